// `warden policy lint|describe|enumerate`: check a policy before it bites.

import type { Policy } from '@warden/engine';
import { allRules, describeRule, enumerate, lintPolicy } from '@warden/engine';
import type { LoadedPolicy } from '../policy/load.js';
import { chooseManaged, loadPolicyFile } from '../policy/load.js';
import type { DescribeOptions, EnumerateOptions, LintOptions } from './commands/policy.js';
import { readAt } from './decision-command.js';
import type { Io } from './io.js';
import { fail, printJson, style, usage } from './io.js';

function load(io: Io, file: string, json: boolean): LoadedPolicy {
  const loaded = loadPolicyFile(file, 'auto', io.stdin);
  if (!loaded.ok) return fail(io, json, loaded.issues);
  return loaded.value;
}

function summary(policy: Policy): string {
  const rules = policy.rules.length;
  const presets = Object.values(policy.modes).reduce((n, mode) => n + mode.preset.length, 0);
  const parts = [`${rules} rule${rules === 1 ? '' : 's'}`];
  if (presets > 0) parts.push(`${presets} preset rule${presets === 1 ? '' : 's'}`);
  const modes = Object.keys(policy.modes).length;
  if (modes > 0) parts.push(`${modes} mode${modes === 1 ? '' : 's'}`);
  const spaces = Object.keys(policy.spaces).length;
  if (spaces > 0) parts.push(`${spaces} space${spaces === 1 ? '' : 's'}`);
  return parts.join(', ');
}

export function runLint(io: Io, file: string, options: LintOptions): void {
  const json = options.json === true;
  const at = readAt(io, json, options.at);
  const loaded = load(io, file, json);
  const warnings = lintPolicy(loaded.policy, at);
  if (json) {
    printJson(io, {
      valid: true,
      kind: loaded.policy.kind,
      rules: allRules(loaded.policy).length,
      errors: [],
      warnings: warnings.map((w) => ({
        code: w.code,
        path: w.path,
        rule: w.rule,
        message: w.message,
      })),
    });
    return;
  }
  const s = style(io.color);
  const kind =
    loaded.policy.kind === 'managed'
      ? 'managed policy'
      : `policy for workspace \`${loaded.policy.workspace ?? ''}\``;
  io.out(`${s.green('valid')}: ${file}: ${kind}, ${summary(loaded.policy)}\n`);
  for (const w of warnings) io.out(`${s.yellow('warning')}: ${w.path}: ${w.message}\n`);
  if (warnings.length === 0) io.out('no rule is shadowed, duplicated or contradicted\n');
}

export function runDescribe(io: Io, file: string, options: DescribeOptions): void {
  const json = options.json === true;
  const { policy } = load(io, file, json);
  const rules = allRules(policy).map((rule) => ({
    id: rule.id,
    scope: rule.scope,
    origin: rule.origin,
    enforcement: rule.enforcement,
    ...(rule.expiresAt !== undefined ? { expiresAt: rule.expiresAt } : {}),
    sentence: describeRule(rule, policy.workspace, policy.kind === 'managed'),
  }));
  const spaces = Object.entries(policy.spaces).map(([id, space]) => ({
    space: id,
    autonomy: space.autonomy ?? 'actWithApproval',
    sentence: autonomySentence(id, space.autonomy ?? 'actWithApproval'),
  }));
  const nets = Object.entries(policy.modes)
    .filter(([, mode]) => mode.commandNet.length > 0)
    .map(([name, mode]) => ({
      mode: name,
      commandNet: mode.commandNet,
      sentence: `In mode \`${name}\`, commands matching ${mode.commandNet.map((e) => `\`${e}\``).join(', ')} are always denied, whatever any rule allows.`,
    }));
  if (json) {
    printJson(io, {
      kind: policy.kind,
      workspace: policy.workspace ?? null,
      rules,
      spaces,
      commandNets: nets,
    });
    return;
  }
  const s = style(io.color);
  if (rules.length === 0) io.out('no rules: every class has its built-in default\n');
  for (const rule of rules) io.out(`${s.bold(rule.id)}  ${rule.sentence}\n`);
  for (const space of spaces) io.out(`${s.bold(`space:${space.space}`)}  ${space.sentence}\n`);
  for (const net of nets) io.out(`${s.bold(`mode:${net.mode}`)}  ${net.sentence}\n`);
}

/** What each dial setting means, said plainly (G32). */
export function autonomySentence(space: string, autonomy: string): string {
  switch (autonomy) {
    case 'proposeOnly':
      return `Space \`${space}\` is proposeOnly: every gated tool call is denied at once; agents can think and answer but not act.`;
    case 'actFreely':
      return `Space \`${space}\` is actFreely: whatever does not resolve to deny is allowed without asking anyone — prompts are pre-approved; only an explicit deny (and a managed prompt, an unverifiable deny, an unreadable command) survives.`;
    default:
      return `Space \`${space}\` is actWithApproval: prompts wait for a connected approver; with none connected they are denied.`;
  }
}

export function runEnumerate(io: Io, file: string, options: EnumerateOptions): void {
  const json = options.json === true;
  if (options.agent === undefined)
    return usage(io, json, '--agent', 'missing `--agent ID`: permissions are listed for one agent');
  const at = readAt(io, json, options.at);
  const loaded = loadPolicyFile(file, 'workspace', io.stdin);
  if (!loaded.ok) return fail(io, json, loaded.issues);
  const policy = loaded.value.policy;
  if (options.mode !== undefined && !Object.hasOwn(policy.modes, options.mode)) {
    return usage(
      io,
      json,
      '--mode',
      `unknown mode \`${options.mode}\`: the policy defines ${
        Object.keys(policy.modes)
          .map((m) => `\`${m}\``)
          .join(', ') || 'no modes'
      }`,
    );
  }
  const choice = chooseManaged(options.managed, io.env);
  let managed = null;
  if (choice.file !== null) {
    const m = loadPolicyFile(choice.file, 'managed', io.stdin);
    if (!m.ok) return fail(io, json, m.issues);
    managed = m.value.compiled;
  }
  const result = enumerate({
    policy: loaded.value.compiled,
    managed,
    agent: options.agent,
    ...(options.space !== undefined ? { space: options.space } : {}),
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    at,
  });
  if (json) {
    printJson(io, { ...result, managedSource: choice.source });
    return;
  }
  const s = style(io.color);
  const where = [
    `agent \`${result.agent}\``,
    result.space === null ? null : `space \`${result.space}\``,
    result.mode === null ? null : `mode \`${result.mode}\``,
  ]
    .filter((p) => p !== null)
    .join(', ');
  io.out(
    `${s.bold('Permissions')} of ${where} in workspace \`${result.workspace}\` (autonomy: ${result.autonomy})\n\n`,
  );
  const width = 26;
  io.out(s.dim(`  ${'class'.padEnd(width)}${'gets'.padEnd(10)}decided by\n`));
  for (const c of result.classes) {
    const gets =
      c.effective === c.decision ? c.decision : `${c.effective} (${c.decision} before the dial)`;
    io.out(`  ${c.class.padEnd(width)}${gets.padEnd(10)}${c.rule} (${c.scope})\n`);
    for (const e of c.exceptions)
      io.out(s.dim(`  ${' '.repeat(width)}except: ${e.decision} — ${e.sentence} [${e.rule}]\n`));
  }
  if (result.commands.length > 0) {
    io.out(`\n${s.bold('Command rules')}\n`);
    for (const r of result.commands)
      io.out(`  ${r.decision.padEnd(7)} ${r.sentence} [${r.rule}]\n`);
  }
  if (result.commandNet.length > 0) {
    io.out(
      `\n${s.bold('Command net')} of mode \`${result.mode ?? ''}\` (final deny): ${result.commandNet.map((e) => `\`${e}\``).join(', ')}\n`,
    );
  }
  if (result.advisory.length > 0) {
    io.out(`\n${s.bold('Advisory rules')} (reported, never enforced)\n`);
    for (const r of result.advisory) io.out(`  ${r.sentence} [${r.rule}]\n`);
  }
  if (managed !== null)
    io.out(s.dim(`\nmanaged layer from ${choice.source ?? ''}: ${choice.file ?? ''}\n`));
}
