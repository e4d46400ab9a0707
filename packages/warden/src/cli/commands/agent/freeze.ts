// `warden agent freeze|thaw|frozen`: the kill switch (E38), on a server
// (`--server` or WARDEN_URL, an admin token) or straight in the data folder
// (or DATABASE_URL's Postgres). The client and the store load when a
// subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { FreezeRecord } from '../../../store/types.js';
import type { FreezeView, ListedFreezeView } from '../../../views/freezes.js';
import { author } from '../../author.js';
import { storeOrServerOptions } from '../../flags.js';
import type { Io } from '../../io.js';
import { EXIT, fail, printJson, printListing, style, usage } from '../../io.js';
import type { Cli, OptionsOf } from '../../registration.js';
import { handler } from '../../registration.js';
import { local, query, useServer } from '../../store-or-server.js';

/** Freezing and thawing act on one agent, or with --all on the whole workspace (`all` says how). */
function agentOrAll(
  agent: CommandUnknownOpts,
  verb: 'freeze' | 'thaw',
  description: string,
  all: string,
) {
  return agent
    .command(verb)
    .description(description)
    .argument('[id]', 'the agent id (or give --all)')
    .option('--all', all);
}

function freeze(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agentOrAll(
      agent,
      'freeze',
      'the kill switch: every call of the agent (or, with --all, of every agent of the workspace) is denied from now on, and its waiting prompts are denied',
      'freeze every agent of the workspace',
    ).option('--reason <text>', 'why: shown to the agent in every deny'),
  );
}

function thaw(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agentOrAll(
      agent,
      'thaw',
      'end a freeze: the agent’s (or, with --all, the workspace’s) calls are decided by the policy again',
      'thaw the workspace (agents frozen one by one stay frozen)',
    ),
  );
}

function frozen(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agent
      .command('frozen')
      .description('the freezes in force: who froze which agent or workspace, when and why'),
  );
}

export type AgentFreezeOptions = OptionsOf<typeof freeze>;
export type AgentThawOptions = OptionsOf<typeof thaw>;
export type AgentFrozenOptions = OptionsOf<typeof frozen>;

export function registerAgentFreeze(agent: CommandUnknownOpts, cli: Cli): void {
  freeze(agent).action(handler(cli, runFreeze));
  thaw(agent).action(handler(cli, runThaw));
  frozen(agent).action(handler(cli, runFrozen));
}

/** The agent the command is about, or null with --all; both or neither is a usage error. */
function target(io: Io, json: boolean, id: string | undefined, all: boolean): string | null {
  if (id !== undefined && all)
    return usage(io, json, '--all', 'give an agent id or --all, not both');
  if (id === undefined && !all)
    return usage(io, json, 'id', 'name the agent, or give --all for the whole workspace');
  return id ?? null;
}

/**
 * What freezing and thawing start from: the client and the views, loaded
 * now; `--json`; the agent, or null with --all; and where its freeze is on a
 * server.
 */
async function freezeTarget(io: Io, id: string | undefined, options: AgentThawOptions) {
  const [client, views] = await Promise.all([
    import('../../client.js'),
    import('../../../views/freezes.js'),
  ]);
  const json = options.json === true;
  const agent = target(io, json, id, options.all === true);
  const path = agent === null ? '/v1/freeze' : `/v1/agents/${encodeURIComponent(agent)}/freeze`;
  return { ...client, ...views, json, agent, url: `${path}${query(options)}` };
}

type Shown = FreezeView | FreezeRecord | ListedFreezeView;

function what(freeze: Shown): string {
  return freeze.agent === null
    ? `every agent of workspace \`${freeze.workspace}\``
    : `agent \`${freeze.agent}\` in workspace \`${freeze.workspace}\``;
}

function since(freeze: Shown): string {
  const at = freeze.frozenAt === null ? '' : ` at ${freeze.frozenAt}`;
  const lifts =
    'managed' in freeze && freeze.managed
      ? '; only the installation operator lifts it, in the managed policy'
      : '';
  return `by ${freeze.by}${at}${freeze.reason === null ? '' : `: ${freeze.reason}`}${lifts}`;
}

export async function runFreeze(
  io: Io,
  id: string | undefined,
  options: AgentFreezeOptions,
): Promise<number> {
  const { call, connection, frozenView, json, agent, url } = await freezeTarget(io, id, options);
  const reason = options.reason ?? null;
  const result = useServer(io, options)
    ? await call(io, connection(io, options), 'PUT', url, {
        schema: frozenView,
        json,
        body: reason === null ? {} : { reason },
      })
    : await local(io, json, options, (warden, workspace) =>
        warden.freeze(workspace, agent, author(), reason),
      );
  if (json) {
    printJson(io, result);
    return EXIT.ok;
  }
  const s = style(io.color);
  const prompts = result.denied.length;
  io.out(
    `${s.red('frozen')}: ${what(result.freeze)} (${since(result.freeze)})\n` +
      `  every call is denied until \`warden agent thaw ${agent ?? '--all'}\`` +
      (prompts === 0
        ? '\n'
        : `; ${prompts} waiting prompt${prompts === 1 ? ' was' : 's were'} denied\n`),
  );
  return EXIT.ok;
}

export async function runThaw(
  io: Io,
  id: string | undefined,
  options: AgentThawOptions,
): Promise<number> {
  const { call, connection, freezeView, json, agent, url } = await freezeTarget(io, id, options);
  let thawed: FreezeView | FreezeRecord;
  if (useServer(io, options)) {
    thawed = await call(io, connection(io, options), 'DELETE', url, { schema: freezeView, json });
  } else {
    const ended = await local(io, json, options, async (warden, workspace) => {
      const freeze = await warden.thaw(workspace, agent, author());
      return {
        workspace,
        freeze,
        refusal: freeze === null ? await warden.managedThawRefusal(workspace, agent) : null,
      };
    });
    if (ended.freeze === null)
      return fail(io, json, [
        {
          code: 'invalid_value',
          path: agent === null ? '--all' : 'id',
          message:
            ended.refusal ??
            (agent === null
              ? `workspace \`${ended.workspace}\` is not frozen`
              : `agent \`${agent}\` is not frozen in workspace \`${ended.workspace}\``),
        },
      ]);
    thawed = ended.freeze;
  }
  if (json) {
    printJson(io, thawed);
    return EXIT.ok;
  }
  const s = style(io.color);
  io.out(`${s.green('thawed')}: ${what(thawed)} (it was frozen ${since(thawed)})\n`);
  return EXIT.ok;
}

export async function runFrozen(io: Io, options: AgentFrozenOptions): Promise<number> {
  const [{ call, connection }, { freezeListView }] = await Promise.all([
    import('../../client.js'),
    import('../../../views/freezes.js'),
  ]);
  const json = options.json === true;
  const freezes: readonly Shown[] = useServer(io, options)
    ? (
        await call(io, connection(io, options), 'GET', `/v1/freezes${query(options)}`, {
          schema: freezeListView,
          json,
        })
      ).freezes
    : await local(io, json, options, (warden, workspace) => warden.freezes(workspace));
  return printListing(io, json, {
    value: { freezes },
    empty: freezes.length === 0,
    none: 'nothing is frozen\n',
    text: (s) =>
      freezes.map((freeze) => `${s.red('frozen')}: ${what(freeze)} (${since(freeze)})\n`).join(''),
  });
}
