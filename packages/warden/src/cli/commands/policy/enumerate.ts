// `warden policy enumerate FILE --agent ID`: what an agent may do, per action
// class, with the exceptions, the command rules and its mode's command net.
// The engine loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Io } from '../../io.js';
import { fail, printJson, style, usage } from '../../io.js';
import type { OptionsOf, Registration } from '../../registration.js';
import { registration } from '../../registration.js';

function enumerate(policy: CommandUnknownOpts) {
  return policy
    .command('enumerate')
    .description('what an agent may do, per action class, with the exceptions')
    .argument('<file>', 'the workspace policy')
    .option('--agent <id>', 'the agent (required)')
    .option('--space <id>', 'the space it works in')
    .option('--mode <name>', 'the mode it runs in')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON');
}

export type EnumerateOptions = OptionsOf<typeof enumerate>;

export const registerPolicyEnumerate: Registration = registration(enumerate, runEnumerate);

export async function runEnumerate(io: Io, file: string, options: EnumerateOptions): Promise<void> {
  const [{ enumerate }, { chooseManaged, loadPolicyFile }, { readAt }] = await Promise.all([
    import('@warden/engine'),
    import('../../../policy/load.js'),
    import('../../read-at.js'),
  ]);
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
