// `warden doctor`: where rules are enforced on this host (G37, G2, G7). It
// runs a command through each path by which Warden starts processes under the
// sandbox — `run_command`, the Claude Code hook, `warden exec`, the gateway's
// stdio servers — and prints the honesty matrix computed with what that showed,
// then one line per check. A check that fails where a backend is present is
// exit 1: commands on that path cannot run, and the operator should know.
// Then, for each agent runtime, whether Warden's hook is installed in this
// folder's settings and the user's, for which events, and whether the runtime
// would call it (Codex: trusted; Gemini CLI: the connection's variables let
// through; every runtime: the hook's program exists). The checks load when it
// runs.

import { resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { DEFAULT_DATA } from '../../data-folder.js';
import type { HonestyMatrix, ProbePath, ProbeResult } from '../../honesty/index.js';
import type { ADAPTERS } from '../../honesty/index.js';
import type { RuntimeInstaller } from '../hook-install/runtime.js';
import type { HookStatus } from '../hook-install/runtime.js';
import type { Io } from '../io.js';
import { EXIT } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';

function doctor(program: CommandUnknownOpts) {
  return program
    .command('doctor')
    .description(
      "where rules are enforced on this host: the honesty matrix, with a command run through each sandboxed path (exit 1 if one fails), and Warden's hook in each agent runtime's settings here and the user's: for which events, and whether the runtime would call it",
    )
    .option('--json', 'print JSON')
    .option(
      '--no-probe',
      'do not run a command through each sandboxed path (run_command, hook, exec, gateway) to check it is confined',
    );
}

export type DoctorOptions = OptionsOf<typeof doctor>;

export function registerDoctor(program: CommandUnknownOpts, cli: Cli): void {
  doctor(program).action(async (options) =>
    cli.exit(await runDoctor(cli.io, cli.version, options)),
  );
}

/** Warden's hook in each runtime's project (this folder) and user settings. */
function hookStatuses(io: Io, installers: readonly RuntimeInstaller[]): HookStatus[] {
  const project = process.cwd();
  return installers.flatMap((installer) =>
    (['project', 'user'] as const).map((scope) =>
      installer.inspect({ scope, project, env: io.env }),
    ),
  );
}

/** One line per runtime and scope, then the problems of each, indented. */
function hookLines(statuses: readonly HookStatus[]): string {
  const lines = statuses.map((h) => {
    const where = `hook, ${h.runtime} (${h.scope}, ${h.file})`;
    const head = !h.installed
      ? `${where}: not installed`
      : `${where}: ${h.events.join(' + ')}: ${h.called ? 'called' : 'NOT called'}${h.trusted === undefined ? '' : h.trusted ? ', trusted' : ', not trusted'}${h.envAllowed === false ? ', WARDEN_URL/WARDEN_TOKEN not let through' : ''}`;
    return [head, ...h.problems.map((p) => `  ${p}`)].join('\n');
  });
  return `${lines.join('\n')}\n`;
}

const PATH_LABELS: Readonly<Record<Exclude<ProbePath, 'run_command'>, string>> = {
  hook: 'hook',
  exec: 'exec',
  gateway: 'gateway',
};

/** What a path cannot do while its check fails, from the adapter that declares it. */
function broken(path: ProbePath, adapters: typeof ADAPTERS): string {
  const declared = adapters.find((a) => a.sandboxed?.probe === path)?.sandboxed;
  return declared?.broken ?? 'nothing runs on it while its sandbox cannot start';
}

/**
 * One line per check. `run_command`'s keeps the wording it has always had
 * (`sandbox check: <backend> works: …`); the others name their path.
 */
function checkLine(probe: ProbeResult, matrix: HonestyMatrix, adapters: typeof ADAPTERS): string {
  if (probe.path === 'run_command') {
    if (probe.status === 'ok')
      return `sandbox check: ${matrix.host.backend ?? 'the backend'} works: ${probe.detail}`;
    if (probe.status === 'failed')
      return `sandbox check FAILED: ${probe.detail}; ${broken(probe.path, adapters)}`;
    return `sandbox check, run_command: skipped: ${probe.detail}`;
  }
  const label = PATH_LABELS[probe.path];
  if (probe.status === 'ok') return `sandbox check, ${label}: ok: ${probe.detail}`;
  if (probe.status === 'failed')
    return `sandbox check, ${label}: FAILED: ${probe.detail}; ${broken(probe.path, adapters)}`;
  return `sandbox check, ${label}: skipped: ${probe.detail}`;
}

/** This folder's runner (`.warden`), and whether the hooks' clients can reach one here. */
async function runnerLines(io: Io): Promise<{ json: unknown; text: string }> {
  const { runnerStatus } = await import('../../runner/lifecycle.js');
  const { runnerClientUsable } = await import('../../hook/sandboxed.js');
  const data = resolve(DEFAULT_DATA);
  const status = await runnerStatus(data);
  const client = runnerClientUsable(io.env);
  const text = [
    status.running
      ? `runner (${data}): running, pid ${status.pid} since ${status.since}: ${status.hooks} hook calls, ${status.runs} runs`
      : `runner (${data}): not running (${status.reason}); the next hook call starts it`,
    client
      ? "runner's clients: sh, bash and socat are here: installed hooks ask the resident runner"
      : "runner's clients: bash or socat is missing: installed hooks answer each call in a Node process of their own",
  ].join('\n');
  return { json: { data, ...status, clients: client }, text: `${text}\n` };
}

export async function runDoctor(io: Io, version: string, options: DoctorOptions): Promise<number> {
  const [{ ADAPTERS, detectHost, honestyMatrix, renderMatrix }, { INSTALLERS }] = await Promise.all(
    [import('../../honesty/index.js'), import('../hook-install/installers.js')],
  );
  const host = detectHost({ env: io.env });
  const probes =
    options.probe !== false
      ? await (await import('../../honesty/probes.js')).probePaths({ host, env: io.env })
      : null;
  const matrix = honestyMatrix(host, { version, ...(probes === null ? {} : { probes }) });
  const failed = (probes ?? []).some((p) => p.status === 'failed');
  if (options.json === true) {
    const runCommand = probes?.find((p) => p.path === 'run_command');
    // `probe` is `run_command`'s check in the shape it has always had.
    const probe =
      runCommand === undefined || runCommand.status === 'skipped'
        ? null
        : {
            ok: runCommand.status === 'ok',
            backend: matrix.host.backend,
            detail: runCommand.detail,
          };
    const runner = (await runnerLines(io)).json;
    io.out(
      `${JSON.stringify({ ...matrix, probe, probes, hooks: hookStatuses(io, INSTALLERS), runner }, null, 2)}\n`,
    );
  } else {
    const checks = (probes ?? []).map((p) => checkLine(p, matrix, ADAPTERS));
    io.out(`${renderMatrix(matrix)}${checks.length === 0 ? '' : `\n${checks.join('\n')}\n`}`);
    io.out(`\n${hookLines(hookStatuses(io, INSTALLERS))}`);
    io.out(`\n${(await runnerLines(io)).text}`);
  }
  return failed ? EXIT.usage : EXIT.ok;
}
