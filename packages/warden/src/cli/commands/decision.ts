// `warden explain` and `warden check`: one request, one decision; the flags,
// help and handlers of both, which take the same flags.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { runCheck, runExplain } from '../decision-command.js';
import { collect } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

function decisionOptions(parent: CommandUnknownOpts, name: 'explain' | 'check', about: string) {
  return parent
    .command(name)
    .description(about)
    .requiredOption('--policy <file>', 'the workspace policy (YAML or JSON)')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--request <file>', 'the request (JSON or YAML); `-` reads standard input')
    .option('--agent <id>', 'describe the request with flags instead: the agent')
    .option('--space <id>', 'the space (with --agent)')
    .option('--mode <name>', 'the mode (with --agent)')
    .option('--action <class>', 'an action class, repeatable (with --agent)', collect)
    .option('--command <line>', 'a shell command line (with --agent)')
    .option('--worktree <dir>', 'the absolute worktree root (with --agent)')
    .option(
      '--approver <presence>',
      'whether an approver is connected: `connected` or `none`',
      'none',
    )
    .option(
      '--transactional',
      'the call runs over a copy-on-write layer and is decided on what it does before that lands (as `warden exec` runs it)',
    )
    .option('--at <iso>', 'the time of the decision, with a zone (default: now)')
    .option('--classifier <file>', 'extend the command classifier with this configuration')
    .option('--json', 'print the decision JSON');
}

export type DecisionOptions = OptionsOf<typeof decisionOptions>;

export function registerDecision(program: CommandUnknownOpts, cli: Cli): void {
  decisionOptions(
    program,
    'explain',
    'the what-if check: which rule decides a request, and why (exit 0 whenever a decision is printed)',
  ).action((options) => runExplain(cli.io, options));
  decisionOptions(
    program,
    'check',
    'decide a request; the exit code carries the outcome: 0 allow, 3 deny, 4 ask',
  ).action((options) => runCheck(cli.io, options));
}
