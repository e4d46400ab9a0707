// `warden report --supervisor ID [--since 24h] [--data DIR] [--config FILE] [--json] [--store]`:
// the deterministic supervisor report (I11) from the data folder's store (or
// the Postgres of DATABASE_URL), as Markdown or JSON; `--store` keeps it for
// the human beside the scheduled ones. Thresholds and the default window come
// from the server's configuration file when one is given, so both agree. The
// store and the report load when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { DEFAULT_DATA } from '../../data-folder.js';
import type { ReportProblem } from '../../report/report.js';
import type { Thresholds } from '../../report/thresholds.js';
import type { OpenStoreOptions } from '../../store/open.js';
import type { Store } from '../../store/types.js';
import { DATA_FLAG } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, fail, printJson, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { readServerConfig } from '../server-config.js';

function report(program: CommandUnknownOpts) {
  return program
    .command('report')
    .description(
      'the deterministic supervisor report: findings from the audit log, receipts and tasks of the agents a supervisor may observe — never from files',
    )
    .option('--supervisor <id>', 'the supervisor (default: the only one in the data folder)')
    .option('--since <window>', 'the window: `24h`, `7d`, `30m` or an ISO time (default 24h)')
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option(
      '--config <file>',
      "the server's configuration: its `reports` settings and where the data is",
    )
    .option('--store', 'also store it for the human (`GET /v1/reports`)')
    .option('--json', 'print JSON');
}

export type ReportOptions = OptionsOf<typeof report>;

export function registerReport(program: CommandUnknownOpts, cli: Cli): void {
  report(program).action(async (options) =>
    cli.exit(await runReport(cli.io, options, cli.version)),
  );
}

interface Settings {
  readonly data: string;
  readonly store: OpenStoreOptions;
  readonly since: string | undefined;
  readonly thresholds: Thresholds | undefined;
}

/** Where the data and the store are, and the report settings, from the flags or the configuration. */
async function settingsOf(io: Io, options: ReportOptions): Promise<Settings> {
  const json = options.json === true;
  if (options.config === undefined) {
    const { storeOptionsFromEnv } = await import('../../store/open.js');
    const data = options.data ?? DEFAULT_DATA;
    return {
      data,
      store: storeOptionsFromEnv(io.env, data),
      since: options.since,
      thresholds: undefined,
    };
  }
  const config = await readServerConfig(io, json, {
    config: options.config,
    ...(options.data === undefined ? {} : { data: options.data }),
  });
  return {
    data: config.data,
    store: {
      data: config.data,
      ...(config.databaseUrl === undefined ? {} : { databaseUrl: config.databaseUrl }),
      ...(config.databaseSchema === undefined ? {} : { schema: config.databaseSchema }),
    },
    since: options.since ?? config.reports.since,
    thresholds: config.reports.thresholds,
  };
}

/** The supervisor asked for, or the only one there is. */
async function supervisorOf(io: Io, options: ReportOptions, data: string): Promise<string> {
  if (options.supervisor !== undefined) return options.supervisor;
  const { listInstanceAgents } = await import('../../instance/index.js');
  const supervisors = (await listInstanceAgents(data)).filter((a) => a.role === 'supervisor');
  if (supervisors.length === 1) return (supervisors[0] as { id: string }).id;
  return usage(
    io,
    options.json === true,
    '--supervisor',
    supervisors.length === 0
      ? `give the supervisor with \`--supervisor ID\`: \`${data}\` has none (\`warden agent create ID --role supervisor\`)`
      : `give the supervisor with \`--supervisor ID\`: ${supervisors.map((a) => `\`${a.id}\``).join(', ')}`,
  );
}

/** Opens the store to read; an absent SQLite file is an error, not a new empty store. */
async function open(io: Io, json: boolean, settings: Settings): Promise<Store> {
  const { openStoreFor, placeOf } = await import('../open.js');
  return openStoreFor(io, placeOf(settings.data, settings.store), { json, existing: {} });
}

const FLAG: Readonly<Record<ReportProblem['path'], string>> = {
  supervisor: '--supervisor',
  since: '--since',
  settings: '',
};

export async function runReport(io: Io, options: ReportOptions, _version: string): Promise<number> {
  const json = options.json === true;
  const [{ newId }, { buildReport }, { storeReport }, { renderMarkdown }] = await Promise.all([
    import('../../ids.js'),
    import('../../report/report.js'),
    import('../../report/persist.js'),
    import('../../report/render.js'),
  ]);
  const settings = await settingsOf(io, options);
  const supervisor = await supervisorOf(io, options, settings.data);
  const store = await open(io, json, settings);
  try {
    const now = io.now();
    const built = await buildReport(store, {
      supervisor,
      data: settings.data,
      ...(settings.since === undefined ? {} : { since: settings.since }),
      now,
      ...(settings.thresholds === undefined ? {} : { thresholds: settings.thresholds }),
    });
    if (!built.ok)
      return fail(
        io,
        json,
        built.problems.map((p) => ({
          code: 'invalid_value' as const,
          path: FLAG[p.path],
          message: p.message,
        })),
      );
    if (json) printJson(io, built.report);
    else io.out(renderMarkdown(built.report));
    if (options.store === true) {
      const stored = await storeReport(store.reports, built.report, {
        id: `rep-${newId().toLowerCase()}`,
        createdAt: now,
      });
      io.err(
        stored === null
          ? 'warden: the report was not stored\n'
          : `warden: stored as report ${stored.id} (GET /v1/reports/${stored.id})\n`,
      );
    }
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
