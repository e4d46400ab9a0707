// `warden rules suggest|accept`: prompts approved once again and again, as
// suggested rules; accepting one writes it into the policy.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { storeOrServerOptions } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

const SINCE = 'how far back to look: `7d` (default), `24h`, or an ISO time';
const MIN = 'prompts approved once a suggestion needs at least (default 3)';

function suggest(rules: CommandUnknownOpts) {
  return storeOrServerOptions(
    rules
      .command('suggest')
      .description(
        'prompts a human approved once again and again, as suggested rules, each with the past decisions it would have allowed',
      )
      .option('--since <span>', SINCE)
      .option('--min <n>', MIN),
  );
}

function accept(rules: CommandUnknownOpts) {
  return storeOrServerOptions(
    rules
      .command('accept')
      .description("write a suggestion's rules into the workspace's policy, as its next revision")
      .argument('<id>', 'the suggestion, as `warden rules suggest` names it')
      .option('--since <span>', SINCE)
      .option('--min <n>', MIN),
  );
}

export type RulesSuggestOptions = OptionsOf<typeof suggest>;
export type RulesAcceptOptions = OptionsOf<typeof accept>;

export function registerRules(program: CommandUnknownOpts, cli: Cli): void {
  const rules = program
    .command('rules')
    .description('fewer prompts, not less safety: suggested rules from prompts approved once');
  const load = () => import('../rules-command.js');
  suggest(rules).action(async (options) =>
    cli.exit(await (await load()).runRulesSuggest(cli.io, options)),
  );
  accept(rules).action(async (id, options) =>
    cli.exit(await (await load()).runRulesAccept(cli.io, id, options)),
  );
}
