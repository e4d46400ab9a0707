// `warden rules suggest|accept`: on a server (`--server` or WARDEN_URL;
// `accept` takes an admin token) or in the data folder. The client and the
// store load when a subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Suggestion } from '../../approvals/suggest.js';
import type { timeParam as readTime } from '../../server/context.js';
import type { SuggestionView } from '../../views/suggestions.js';
import { author } from '../author.js';
import { storeOrServerOptions } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, fail, printJson, printListing, style, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { handler } from '../registration.js';
import { local, useServer } from '../store-or-server.js';

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
  suggest(rules).action(handler(cli, runRulesSuggest));
  accept(rules).action(handler(cli, runRulesAccept));
}

interface Window {
  readonly since?: string | undefined;
  readonly min?: string | undefined;
  readonly workspace?: string | undefined;
}

function queryOf(options: Window): string {
  const params = new URLSearchParams();
  if (options.workspace !== undefined) params.set('workspace', options.workspace);
  if (options.since !== undefined) params.set('since', options.since);
  if (options.min !== undefined) params.set('min', options.min);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function localWindow(io: Io, json: boolean, options: Window, read: typeof readTime) {
  let sinceMs: number;
  try {
    sinceMs = read('since', options.since ?? '7d', io.now()) as number;
  } catch (error) {
    return usage(io, json, '--since', (error as Error).message);
  }
  if (options.min === undefined) return { sinceMs };
  const min = Number(options.min);
  if (!Number.isInteger(min) || min < 1)
    return usage(io, json, '--min', `\`${options.min}\` is not a whole number of at least 1`);
  return { sinceMs, min };
}

function ruleText(rule: { readonly [key: string]: unknown }): string {
  const what =
    typeof rule.action === 'string' ? `\`${rule.action}\`` : `\`${String(rule.command)}\``;
  const when = rule.when === undefined ? '' : ` when ${JSON.stringify(rule.when)}`;
  return `${String(rule.decision)} ${what}${when}`;
}

/** Cells listed per suggestion; --json has them all. */
const MAX_CELLS_SHOWN = 8;

type Cell = Suggestion['blastRadius']['cells'][number];

/** `gitPush in agent:coder-1: ask by default:gitPush → allow by sug-…-1`. */
function cellText(cell: Cell): string {
  const word = (c: Cell['before']) =>
    c === null ? 'no column' : `${c.effective === 'prompt' ? 'ask' : c.effective} by ${c.rule}`;
  return `${cell.class} in ${cell.scope}: ${word(cell.before)} → ${word(cell.after)}`;
}

function lines(s: ReturnType<typeof style>, suggestion: Suggestion | SuggestionView): string[] {
  const { blastRadius: b } = suggestion;
  return [
    `${s.bold(suggestion.id)}  ${suggestion.scope}  ${suggestion.approvals} prompts approved once (${suggestion.agents.join(', ')}; ${suggestion.tools.join(', ') || 'no tool named'}), ${suggestion.firstAt} to ${suggestion.lastAt}`,
    ...suggestion.rules.map((rule) => `  ${ruleText(rule)}`),
    `  blast radius: ${b.wouldAllow} of ${b.looked} past decisions not allowed then would be allowed` +
      (b.wereDenied === 0 ? '' : s.red(` (${b.wereDenied} of them were denied)`)),
    b.cells.length === 0
      ? '  matrix: no cell changes (the rules decide only the calls their conditions match)'
      : `  matrix: ${b.cells.length} cell${b.cells.length === 1 ? ' changes' : 's change'}`,
    ...b.cells.slice(0, MAX_CELLS_SHOWN).map((c) => `    ${cellText(c)}`),
    ...(b.cells.length > MAX_CELLS_SHOWN
      ? [`    … and ${b.cells.length - MAX_CELLS_SHOWN} more (--json lists them all)`]
      : []),
    `  accept: warden rules accept ${suggestion.id}`,
  ];
}

export async function runRulesSuggest(io: Io, options: RulesSuggestOptions): Promise<number> {
  const [{ call, connection }, { suggestionListView }, { timeParam }] = await Promise.all([
    import('../client.js'),
    import('../../views/suggestions.js'),
    import('../../server/context.js'),
  ]);
  const json = options.json === true;
  const suggestions: readonly (Suggestion | SuggestionView)[] = useServer(io, options)
    ? (
        await call(io, connection(io, options), 'GET', `/v1/rules/suggestions${queryOf(options)}`, {
          schema: suggestionListView,
          json,
        })
      ).suggestions
    : await local(io, json, options, (warden, workspace) =>
        warden.suggestions(workspace, localWindow(io, json, options, timeParam)),
      );
  return printListing(io, json, {
    value: { suggestions },
    empty: suggestions.length === 0,
    none: 'no suggestion: no prompt was approved once often enough\n',
    text: (s) => suggestions.flatMap((suggestion) => [...lines(s, suggestion), '']).join('\n'),
  });
}

export async function runRulesAccept(
  io: Io,
  id: string,
  options: RulesAcceptOptions,
): Promise<number> {
  const [{ call, connection }, { acceptedSuggestionView }, { timeParam }] = await Promise.all([
    import('../client.js'),
    import('../../views/suggestions.js'),
    import('../../server/context.js'),
  ]);
  const json = options.json === true;
  let accepted: { readonly suggestion: Suggestion | SuggestionView; readonly revision: number };
  if (useServer(io, options)) {
    accepted = await call(
      io,
      connection(io, options),
      'POST',
      `/v1/rules/suggestions/${encodeURIComponent(id)}/accept${queryOf(options)}`,
      { schema: acceptedSuggestionView, json },
    );
  } else {
    const done = await local(io, json, options, async (warden, workspace) => ({
      workspace,
      result: await warden.acceptSuggestion(
        workspace,
        id,
        author(),
        localWindow(io, json, options, timeParam),
      ),
    }));
    if (done.result === null)
      return fail(io, json, [
        {
          code: 'invalid_value',
          path: 'id',
          message: `no suggestion \`${id}\` stands in \`${done.workspace}\``,
        },
      ]);
    if (!done.result.ok) return usage(io, json, 'id', done.result.problem);
    accepted = { suggestion: done.result.suggestion, revision: done.result.revision.revision };
  }
  if (json) {
    printJson(io, accepted);
    return EXIT.ok;
  }
  const s = style(io.color);
  io.out(
    `${s.green('accepted')}: ${accepted.suggestion.id} is now in revision ${accepted.revision} of the policy:\n` +
      accepted.suggestion.rules
        .map((rule) => `  ${ruleText(rule)} in ${accepted.suggestion.scope}\n`)
        .join(''),
  );
  return EXIT.ok;
}
