// `warden policy describe FILE`: every rule of a policy as a sentence, with
// what each space's dial and each mode's command net mean. The engine loads
// when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Io } from '../../io.js';
import { fail, printJson, style } from '../../io.js';
import type { OptionsOf, Registration } from '../../registration.js';
import { registration } from '../../registration.js';

function describe(policy: CommandUnknownOpts) {
  return policy
    .command('describe')
    .description('every rule as a sentence')
    .argument('<file>', 'the policy')
    .option('--json', 'print JSON');
}

export type DescribeOptions = OptionsOf<typeof describe>;

export const registerPolicyDescribe: Registration = registration(describe, runDescribe);

export async function runDescribe(io: Io, file: string, options: DescribeOptions): Promise<void> {
  const [{ allRules, describeRule }, { loadPolicyFile }] = await Promise.all([
    import('@warden/engine'),
    import('../../../policy/load.js'),
  ]);
  const json = options.json === true;
  const loaded = loadPolicyFile(file, 'auto', io.stdin);
  if (!loaded.ok) return fail(io, json, loaded.issues);
  const { policy } = loaded.value;
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
function autonomySentence(space: string, autonomy: string): string {
  switch (autonomy) {
    case 'proposeOnly':
      return `Space \`${space}\` is proposeOnly: every gated tool call is denied at once; agents can think and answer but not act.`;
    case 'actFreely':
      return `Space \`${space}\` is actFreely: whatever does not resolve to deny is allowed without asking anyone — prompts are pre-approved; only an explicit deny (and a managed prompt, an unverifiable deny, an unreadable command) survives.`;
    default:
      return `Space \`${space}\` is actWithApproval: prompts wait for a connected approver; with none connected they are denied.`;
  }
}
