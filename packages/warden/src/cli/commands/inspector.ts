// `warden inspector --data DIR --as AGENT_ID`: the AgentInspector as an MCP
// server on standard input/output (contracts §4, §5); or, connected, `--server
// URL --token T`, the server's inspector as the token's supervisor. `--as` names the
// supervisor whose `tools.agentInspector` settings apply; the store is the
// data folder's SQLite file, or Postgres with DATABASE_URL. It takes no
// policy: it only reads. Every problem that stops it is one `error:` line on
// standard error and exit 1; standard output is the MCP channel, so its
// warnings and logs go to standard error too. The inspector and the store
// load when it runs.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { DEFAULT_DATA } from '../../data-folder.js';
import type { Store } from '../../store/types.js';
import { DATA_FLAG } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, untilSignalled } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';

function inspector(program: CommandUnknownOpts) {
  return program
    .command('inspector')
    .description(
      "the AgentInspector: a supervisor's read-only MCP server on stdio (audit, receipts, tasks, allowlisted files)",
    )
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option(
      '--as <agentId>',
      'the supervisor it answers for (its settings: `tools.agentInspector`)',
    )
    .option(
      '--server <url>',
      "connected: the server's inspector (default WARDEN_URL when `--data` is not given)",
    )
    .option(
      '--token <token>',
      "with --server: the supervisor's agent token (default WARDEN_TOKEN)",
    );
}

export type InspectorCommandOptions = OptionsOf<typeof inspector>;

export function registerInspector(program: CommandUnknownOpts, cli: Cli): void {
  inspector(program).action(async (options) =>
    cli.exit(await runInspector(cli.io, options, cli.version)),
  );
}

/**
 * `warden inspector --server URL --token T`: the server answers from its data
 * folder and store as the token's agent; `--as`, when given, must be that agent.
 */
async function runConnected(
  io: Io,
  options: InspectorCommandOptions,
  version: string,
): Promise<number> {
  const url = options.server ?? io.env.WARDEN_URL ?? '';
  const token = options.token ?? io.env.WARDEN_TOKEN ?? '';
  const flagProblems: string[] = [];
  if (token === '')
    flagProblems.push("--token: give the supervisor's agent token (`--token T` or WARDEN_TOKEN)");
  let base = '';
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    base = parsed.href.replace(/\/$/, '');
  } catch {
    flagProblems.push(`--server: \`${url}\` is not an http(s) URL: e.g. \`http://127.0.0.1:8787\``);
  }
  if (options.data !== undefined)
    flagProblems.push(
      "--data: connected to a server, the inspector reads the server's data folder: leave `--data` out",
    );
  if (flagProblems.length > 0) return problems(io, flagProblems);
  const { connectInspector } = await import('../../inspector/remote.js');
  let remote;
  try {
    remote = await connectInspector(base, token);
  } catch (error) {
    return problems(io, [`--server: ${error instanceof Error ? error.message : String(error)}`]);
  }
  if (options.as !== undefined && options.as !== remote.supervisor)
    return problems(io, [
      `--as: the token is agent \`${remote.supervisor}\`, not \`${options.as}\`: a supervisor inspects as itself`,
    ]);
  for (const warning of remote.warnings) io.err(`warning: ${warning}\n`);
  const { serveInspectorStdio } = await import('../../inspector/mcp.js');
  io.err(
    `warden inspector: serving the AgentInspector of ${base} for supervisor \`${remote.supervisor}\` on standard input/output\n`,
  );
  const { signalled, dispose } = untilSignalled();
  try {
    await Promise.race([serveInspectorStdio(remote, version), signalled]);
  } finally {
    dispose();
  }
  return EXIT.ok;
}

function problems(io: Io, lines: readonly string[]): number {
  for (const line of lines) io.err(`error: ${line}\n`);
  return EXIT.usage;
}

function isFolder(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function runInspector(
  io: Io,
  options: InspectorCommandOptions,
  version: string,
): Promise<number> {
  if (
    options.server !== undefined ||
    (options.data === undefined && (io.env.WARDEN_URL ?? '') !== '')
  )
    return runConnected(io, options, version);
  const log = (line: string) => io.err(`warden inspector: ${line}\n`);
  const data = resolve(options.data ?? DEFAULT_DATA);
  const flagProblems: string[] = [];
  if (options.as === undefined || options.as === '')
    flagProblems.push(
      '--as: name the supervisor whose settings apply (`--as AGENT_ID`, an agent of the instance with the `agentInspector` tool)',
    );
  if (!isFolder(data))
    flagProblems.push(
      `--data: \`${data}\` is not a folder: give the instance's data folder (the one holding \`agents/\`)`,
    );
  if (flagProblems.length > 0) return problems(io, flagProblems);
  const supervisor = options.as as string;

  const [{ Redactor }, { openStore }, { agentCredentials }, { storePlace }] = await Promise.all([
    import('../../audit/redact.js'),
    import('../../store/open.js'),
    import('../../warden.js'),
    import('../open.js'),
  ]);
  // Credentials of every agent are known before anything is said, even an error.
  const redactor = new Redactor({ literals: agentCredentials(data) });
  const redacted = (lines: readonly string[]) => lines.map((l) => redactor.redactText(l).text);

  const { loadSupervisor } = await import('../../inspector/supervisor.js');
  const loaded = await loadSupervisor(data, supervisor);
  if (!loaded.ok) return problems(io, redacted(loaded.problems.map((p) => `--as: ${p}`)));
  for (const warning of redacted(loaded.warnings)) io.err(`warning: ${warning}\n`);

  let store: Store;
  try {
    // The inspector never writes: no audit writer thread is started.
    store = await openStore({ ...storePlace(io, data).options, auditThread: false });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return problems(io, redacted([`cannot open ${storePlace(io, data).where}: ${why}`]));
  }

  const { Inspector } = await import('../../inspector/inspector.js');
  const { serveInspectorStdio } = await import('../../inspector/mcp.js');
  const inspector = new Inspector({
    data,
    store,
    supervisor,
    settings: loaded.settings,
    redactor,
    clock: io.now,
  });
  const { observableAgents, allowFileAccess } = loaded.settings;
  const seen =
    observableAgents.length === 0
      ? 'every other agent'
      : `${observableAgents.length} observable agent${observableAgents.length === 1 ? '' : 's'}`;
  log(
    `serving the AgentInspector for supervisor \`${supervisor}\` (${seen}, file access ${allowFileAccess ? 'on' : 'off'}) on standard input/output, ${store.backend}`,
  );
  const { signalled, dispose } = untilSignalled();
  try {
    await Promise.race([serveInspectorStdio(inspector, version), signalled]);
  } finally {
    dispose();
    await store.close().catch(() => undefined);
  }
  return EXIT.ok;
}
