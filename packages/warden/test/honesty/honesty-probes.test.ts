// `warden doctor`'s checks of each sandboxed path (G2, G7, G37): on a host
// with a backend, a command started through `run_command`, the Claude Code
// hook, `warden exec` and the gateway's stdio launch writes inside its
// worktree and is refused a write beside it, and the matrix then claims those
// paths; a `bwrap` that cannot run fails every check and doctor exits 1.
// Under CI the backend must be present (.ci/run installs it).

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/honesty/index.js';
import { PROBE_PATHS, detectHost, sandboxBackend } from '../../src/honesty/index.js';
import { probePaths } from '../../src/honesty/probes.js';
import { closeSandbox } from '../../src/sandbox/runtime.js';
import { warden } from '../helpers.js';
import { UNDER_CI } from '../support/backends.js';

const backend = sandboxBackend(detectHost());
const missing =
  backend === null
    ? 'this host offers no sandbox backend (`bwrap` and `socat` on Linux): the checks that run commands are skipped'
    : null;
if (missing !== null && UNDER_CI) throw new Error(`under CI the sandbox is required: ${missing}`);
if (missing !== null) console.warn(`[skip] ${missing}`);

const folders: string[] = [];
afterAll(async () => {
  await closeSandbox();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

interface DoctorJson {
  host: { backend: string | null; floorMissing: boolean; statement: string };
  adapters: { adapter: string; cells: { sandboxCovered: { value: unknown; note: string } } }[];
  probe: { ok: boolean; backend: string | null } | null;
  probes: ProbeResult[] | null;
}

const sandboxCell = (json: DoctorJson, id: string) =>
  json.adapters.find((a) => a.adapter === id)?.cells.sandboxCovered;

describe('the checks on a host without a backend (G2)', () => {
  it('run nothing: each path is skipped and says what is missing', async () => {
    const bare = { platform: 'linux', bwrap: null, socat: '/usr/bin/socat' };
    const results = await probePaths({ host: bare });
    expect(results.map((r) => r.path)).toEqual([...PROBE_PATHS]);
    for (const r of results) {
      expect(r.status).toBe('skipped');
      expect(r.detail).toContain(
        'no sandbox backend on this host (Linux without `bwrap` on the PATH',
      );
    }
  });
});

describe.skipIf(missing !== null)(`the checks on this host (G2, G37, ${backend ?? 'none'})`, () => {
  it('run_command, the hook, `warden exec` and the gateway each confine a command to its worktree', async () => {
    const results = await probePaths();
    expect(results.map((r) => [r.path, r.status, r.detail])).toEqual([
      [
        'run_command',
        'ok',
        'a command ran under it, wrote inside its worktree and was refused a write beside it',
      ],
      [
        'hook',
        'ok',
        'an allowed `Bash` call was answered with its command rewritten to `warden exec --grant …`, which wrote inside its worktree and was refused a write beside it',
      ],
      [
        'exec',
        'ok',
        '`warden exec` ran a command that wrote inside its worktree and was refused a write beside it',
      ],
      [
        'gateway',
        'ok',
        "a stdio server started through the gateway's sandboxed launch wrote inside its writable folder and was refused a write beside it",
      ],
    ]);
  }, 60_000);

  it('`warden doctor` prints one ok line per path and claims `warden exec` covered; --json gives the checks as data (G7, G37)', () => {
    const human = warden(['doctor']);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('sandbox check'))).toEqual([
      `sandbox check: ${backend} works: a command ran under it, wrote inside its worktree and was refused a write beside it`,
      expect.stringMatching(/^sandbox check, hook: ok: /),
      expect.stringMatching(/^sandbox check, exec: ok: /),
      expect.stringMatching(/^sandbox check, gateway: ok: /),
    ]);
    expect(lines.find((l) => l.startsWith('exec '))).toMatch(/yes\s+✗\s+✓\s+✓\s+✗\s+✓\s+warden /);
    expect(lines.find((l) => l.startsWith('claude-code-hook '))).toMatch(
      /yes\s+✗\s+~\s+✓\s+✓\s+~\s+claude-code /,
    );

    const json = JSON.parse(warden(['doctor', '--json']).stdout) as DoctorJson;
    expect(json.probes?.map((p) => [p.path, p.status])).toEqual(PROBE_PATHS.map((p) => [p, 'ok']));
    expect(json.probe).toMatchObject({ ok: true, backend });
    expect(sandboxCell(json, 'exec')?.value).toBe(true);
    expect(sandboxCell(json, 'claude-code-hook')?.value).toBe('partial');
    expect(sandboxCell(json, 'mcp-gateway')?.value).toBe('partial');
    expect(json.host.floorMissing).toBe(false);
    expect(json.host.statement).toContain('checked on this host for');
  }, 90_000);

  it('a `bwrap` on the PATH that cannot run fails every check, the matrix claims none of those paths, and doctor exits 1 (G2, G7)', () => {
    const bin = mkdtempSync(join(tmpdir(), 'warden-doctor-bin-'));
    folders.push(bin);
    writeFileSync(
      join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
    );
    chmodSync(join(bin, 'bwrap'), 0o755);
    const env = { PATH: `${bin}:${process.env['PATH'] ?? ''}` };

    const json = warden(['doctor', '--json'], { env });
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as DoctorJson;
    expect(parsed.probes?.map((p) => [p.path, p.status])).toEqual(
      PROBE_PATHS.map((p) => [p, 'failed']),
    );
    expect(parsed.probes?.find((p) => p.path === 'hook')?.detail).toContain(
      'No permissions to create new namespace',
    );
    for (const id of [
      'builtin',
      'exec',
      'mcp-gateway',
      'claude-code-via-gateway',
      'claude-code-hook',
    ]) {
      const cell = sandboxCell(parsed, id);
      expect(cell?.value, id).toBe(false);
      expect(cell?.note, id).toContain('the check of this path failed');
    }
    expect(parsed.host.floorMissing).toBe(true);
    expect(parsed.host.statement).toContain('except where the check on this host failed');

    const human = warden(['doctor'], { env });
    expect(human.code).toBe(1);
    const checks = human.stdout.split('\n').filter((l) => l.startsWith('sandbox check'));
    expect(checks).toHaveLength(4);
    expect(checks[0]).toMatch(/^sandbox check FAILED: .*`run_command` refuses every command/);
    expect(checks.slice(1).map((l) => l.split(':')[0])).toEqual([
      'sandbox check, hook',
      'sandbox check, exec',
      'sandbox check, gateway',
    ]);
    for (const line of checks.slice(1)) expect(line).toContain(': FAILED: ');
  }, 90_000);
});
