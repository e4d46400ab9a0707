// `warden doctor`: where rules are enforced on this host (G37, G2, G7). It
// runs a command through each path by which Warden starts processes under the
// sandbox — `run_command`, the Claude Code hook, `warden exec`, the gateway's
// stdio servers — and prints the honesty matrix computed with what that showed,
// then one line per check. A check that fails where a backend is present is
// exit 1: commands on that path cannot run, and the operator should know.

import type { HonestyMatrix, ProbePath, ProbeResult } from '../honesty/index.js';
import { ADAPTERS, detectHost, honestyMatrix, renderMatrix } from '../honesty/index.js';
import type { DoctorOptions } from './commands/doctor.js';
import type { Io } from './io.js';
import { EXIT } from './io.js';

const PATH_LABELS: Readonly<Record<Exclude<ProbePath, 'run_command'>, string>> = {
  hook: 'hook',
  exec: 'exec',
  gateway: 'gateway',
};

/** What a path cannot do while its check fails, from the adapter that declares it. */
function broken(path: ProbePath): string {
  const declared = ADAPTERS.find((a) => a.sandboxed?.probe === path)?.sandboxed;
  return declared?.broken ?? 'nothing runs on it while its sandbox cannot start';
}

/**
 * One line per check. `run_command`'s keeps the wording it has always had
 * (`sandbox check: <backend> works: …`); the others name their path.
 */
function checkLine(probe: ProbeResult, matrix: HonestyMatrix): string {
  if (probe.path === 'run_command') {
    if (probe.status === 'ok')
      return `sandbox check: ${matrix.host.backend ?? 'the backend'} works: ${probe.detail}`;
    if (probe.status === 'failed')
      return `sandbox check FAILED: ${probe.detail}; ${broken(probe.path)}`;
    return `sandbox check, run_command: skipped: ${probe.detail}`;
  }
  const label = PATH_LABELS[probe.path];
  if (probe.status === 'ok') return `sandbox check, ${label}: ok: ${probe.detail}`;
  if (probe.status === 'failed')
    return `sandbox check, ${label}: FAILED: ${probe.detail}; ${broken(probe.path)}`;
  return `sandbox check, ${label}: skipped: ${probe.detail}`;
}

export async function runDoctor(io: Io, version: string, options: DoctorOptions): Promise<number> {
  const host = detectHost({ env: io.env });
  const probes =
    options.probe !== false
      ? await (await import('../honesty/probes.js')).probePaths({ host, env: io.env })
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
    io.out(`${JSON.stringify({ ...matrix, probe, probes }, null, 2)}\n`);
  } else {
    const checks = (probes ?? []).map((p) => checkLine(p, matrix));
    io.out(`${renderMatrix(matrix)}${checks.length === 0 ? '' : `\n${checks.join('\n')}\n`}`);
  }
  return failed ? EXIT.usage : EXIT.ok;
}
