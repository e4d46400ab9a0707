// `warden policy lint|prove|describe|enumerate|test|apply`: check a policy before it
// bites, and store it. `apply` opens a store, so its module loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { connectOptions, DATA_FLAG } from '../flags.js';
import { runDescribe, runEnumerate, runLint } from '../policy-command.js';
import type { Cli, OptionsOf } from '../registration.js';

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

function prove(policy: CommandUnknownOpts) {
  return policy
    .command('prove')
    .description(
      'try every deny and prompt rule against the spellings of its command the classifier knows (wrappers, shells, paths, quoting, options, refs, hosts): holds, needs the sandbox, bypassable or dead (exit 1 when one is bypassable)',
    )
    .argument('<file>', 'the workspace policy')
    .option('--classifier <file>', 'extend the command classifier with this configuration')
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON');
}

function describe(policy: CommandUnknownOpts) {
  return policy
    .command('describe')
    .description('every rule as a sentence')
    .argument('<file>', 'the policy')
    .option('--json', 'print JSON');
}

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

function test(policy: CommandUnknownOpts) {
  return policy
    .command('test')
    .description(
      'run cases against a policy: each request or command line must decide as its case expects (exit 1 when one does not)',
    )
    .argument('<files...>', 'cases files (YAML or JSON): `policy:` names the policy beside them')
    .option('--policy <file>', 'the policy to test (instead of the one each cases file names)')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--at <iso>', 'decide cases without their own `at` at this time (default: now)')
    .option('--junit <file>', 'also write the results as JUnit XML, for CI')
    .option('--json', 'print JSON');
}

function apply(policy: CommandUnknownOpts) {
  return connectOptions(
    policy
      .command('apply')
      .description(
        'store a policy as the next revision: on a server (`--server`, admin token) or in the data folder',
      )
      .argument('<file>', 'the policy (a document without `workspace` is the managed layer)')
      .option(DATA_FLAG.usage, DATA_FLAG.description)
      .option('--message <text>', 'say why, for the revision history'),
  ).option('--json', 'print JSON');
}

export type LintOptions = OptionsOf<typeof lint>;
export type PolicyProveOptions = OptionsOf<typeof prove>;
export type DescribeOptions = OptionsOf<typeof describe>;
export type EnumerateOptions = OptionsOf<typeof enumerate>;
export type ApplyOptions = OptionsOf<typeof apply>;
export type PolicyTestOptions = OptionsOf<typeof test>;

export function registerPolicy(program: CommandUnknownOpts, cli: Cli): void {
  const policy = program.command('policy').description('check a policy before it bites');
  lint(policy).action((file, options) => runLint(cli.io, file, options));
  prove(policy).action(async (file, options) =>
    cli.exit((await import('../policy-prove-command.js')).runPolicyProve(cli.io, file, options)),
  );
  describe(policy).action((file, options) => runDescribe(cli.io, file, options));
  enumerate(policy).action((file, options) => runEnumerate(cli.io, file, options));
  test(policy).action(async (files, options) =>
    cli.exit((await import('../policy-test-command.js')).runPolicyTest(cli.io, files, options)),
  );
  apply(policy).action(async (file, options) =>
    cli.exit(await (await import('../policy-apply-command.js')).runApply(cli.io, file, options)),
  );
}
