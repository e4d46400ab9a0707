// `warden agent place ID --space S --mode M`: where an agent acts when its
// token binds no space or mode (its registration), on a server (`--server` or
// WARDEN_URL, an admin token) or straight into the data folder (or
// DATABASE_URL's Postgres). What it does not name stays as it was. The client
// and the store load when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { AgentRecord } from '../../../store/types.js';
import type { AgentRecordView } from '../../../views/agents.js';
import { storeOrServerOptions } from '../../flags.js';
import type { Io } from '../../io.js';
import { EXIT, printJson, style, usage } from '../../io.js';
import type { OptionsOf, Registration } from '../../registration.js';
import { registration } from '../../registration.js';
import { local, query, useServer } from '../../store-or-server.js';

function place(agent: CommandUnknownOpts) {
  return storeOrServerOptions(
    agent
      .command('place')
      .description(
        'where an agent acts when its token binds none: its space (autonomy) and mode (command net); what is not named stays',
      )
      .argument('<id>', 'the agent id')
      .option('--space <space>', 'the space it acts in')
      .option('--no-space', 'take it out of every space')
      .option('--mode <mode>', 'the mode it acts in')
      .option('--no-mode', 'take it out of every mode'),
  );
}

export type AgentPlaceOptions = OptionsOf<typeof place>;

export const registerAgentPlace: Registration = registration(place, runPlace);

/** A flag's new value: a name, `null` to take the agent out (`--no-space`), undefined to keep it. */
function change(io: Io, json: boolean, flag: string, value: string | boolean | undefined) {
  if (value === undefined || value === true) return undefined;
  if (value === false) return null;
  if (value.trim() === '' || /\p{Cc}/u.test(value) || value.length > 256)
    return usage(io, json, flag, `\`${value}\` is not a ${flag.slice(2)} name`);
  return value;
}

function where(space: string | null, mode: string | null): string {
  const inSpace = space === null ? 'no space' : `space \`${space}\``;
  const inMode = mode === null ? 'no mode' : `mode \`${mode}\``;
  return `${inSpace} and ${inMode}`;
}

export async function runPlace(io: Io, id: string, options: AgentPlaceOptions): Promise<number> {
  const [{ call, connection }, { agentListView, agentRecordView }] = await Promise.all([
    import('../../client.js'),
    import('../../../views/agents.js'),
  ]);
  const json = options.json === true;
  const space = change(io, json, '--space', options.space);
  const mode = change(io, json, '--mode', options.mode);
  if (space === undefined && mode === undefined)
    return usage(
      io,
      json,
      '--space',
      'say where the agent acts: --space S and/or --mode M (--no-space, --no-mode: none)',
    );
  let placed: AgentRecord | AgentRecordView;
  if (useServer(io, options)) {
    const server = connection(io, options);
    const { agents } = await call(io, server, 'GET', `/v1/agents${query(options)}`, {
      schema: agentListView,
      json,
    });
    const before = agents.find((a) => a.id === id);
    placed = await call(
      io,
      server,
      'PUT',
      `/v1/agents/${encodeURIComponent(id)}${query(options)}`,
      {
        schema: agentRecordView,
        json,
        body: {
          name: before?.name ?? null,
          role: before?.role ?? null,
          model: before?.model ?? null,
          space: space === undefined ? (before?.space ?? null) : space,
          mode: mode === undefined ? (before?.mode ?? null) : mode,
        },
      },
    );
  } else {
    placed = await local(io, json, options, async (warden, workspace) => {
      const before = await warden.store.agents.get(workspace, id);
      return warden.store.agents.upsert(
        {
          workspace,
          id,
          name: before?.name ?? null,
          role: before?.role ?? null,
          model: before?.model ?? null,
          space: space === undefined ? (before?.space ?? null) : space,
          mode: mode === undefined ? (before?.mode ?? null) : mode,
        },
        Date.now(),
      );
    });
  }
  if (json) {
    printJson(io, placed);
    return EXIT.ok;
  }
  const s = style(io.color);
  io.out(
    `${s.green('placed')}: agent \`${placed.id}\` of workspace \`${placed.workspace}\` acts in ${where(placed.space, placed.mode)}` +
      ' when its token binds none\n',
  );
  return EXIT.ok;
}
