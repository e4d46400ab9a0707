// `warden policy lint FILE`: validates a policy, lists every problem, and warns
// about rules that never decide. The engine loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Policy } from '@warden/engine';
import type { Io } from '../../io.js';
import { fail, printJson, style } from '../../io.js';
import type { OptionsOf, Registration } from '../../registration.js';
import { registration } from '../../registration.js';

function lint(policy: CommandUnknownOpts) {
  return policy
    .command('lint')
    .description('validate a policy, list every problem, warn about rules that never decide')
    .argument(
      '<file>',
      'the policy (YAML or JSON; a document without `workspace` is a managed policy)',
    )
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON');
}

export type LintOptions = OptionsOf<typeof lint>;

export const registerPolicyLint: Registration = registration(lint, runLint);

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

export async function runLint(io: Io, file: string, options: LintOptions): Promise<void> {
  const [{ allRules, lintPolicy }, { loadPolicyFile }, { readAt }] = await Promise.all([
    import('@warden/engine'),
    import('../../../policy/load.js'),
    import('../../read-at.js'),
  ]);
  const json = options.json === true;
  const at = readAt(io, json, options.at);
  const read = loadPolicyFile(file, 'auto', io.stdin);
  if (!read.ok) return fail(io, json, read.issues);
  const loaded = read.value;
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
