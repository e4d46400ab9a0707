// `run_command` under the OS sandbox (G2): where the host offers `bwrap` and
// `socat`, an allowed command writes only inside the worktree, cannot
// read the folders it is denied, and reaches the network only through the
// sandbox's proxy, for the hosts its command line named. `required` on a host
// without a backend refuses the command; `off` runs it without one. Under CI
// the backend must be present (.ci/run installs it).

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectHost, sandboxBackend } from '../../src/honesty/index.js';
import { closeSandbox } from '../../src/sandbox/runtime.js';
import type { BuiltinOptions, RunCommandResult } from '../../src/tools/builtin/index.js';
import { commandHosts } from '../../src/tools/builtin/run-command.js';
import { BIN, warden } from '../helpers.js';
import { UNDER_CI, hostDir } from '../support/backends.js';
import { useBuiltins } from '../support/tools-fixture.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'egress', action: 'networkEgress', decision: 'allow' },
    { id: 'outside', action: 'fileWriteOutsideWorktree', decision: 'allow' },
  ],
};

const backend = sandboxBackend(detectHost());
const missing =
  backend === null
    ? 'this host offers no sandbox backend (`bwrap` and `socat` on Linux): the sandboxed runs are skipped'
    : null;
if (missing !== null && UNDER_CI) throw new Error(`under CI the sandbox is required: ${missing}`);
if (missing !== null) console.warn(`[skip] ${missing}`);

const fx = useBuiltins('warden-sbx-');
const open = (options: BuiltinOptions = {}) => fx.open(POLICY, options);
const run = (args: object) => fx.value<RunCommandResult>('run_command', args);

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('hello from the host\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await closeSandbox();
  await new Promise((resolve) => server.close(resolve));
});

describe('the hosts a sandboxed command may reach', () => {
  it('are the hosts its command line names, as the classifier reads them (G14b)', () => {
    expect(
      commandHosts('curl -sS https://api.example.com/v1 && wget http://cdn.example.org/x'),
    ).toEqual(['api.example.com', 'cdn.example.org']);
    expect(commandHosts('U=https://api.example.com; curl "$U"')).toEqual([]);
    expect(commandHosts('echo hi > out.txt')).toEqual([]);
  });
});

describe.skipIf(missing !== null)(
  `run_command under the sandbox (G2, ${backend ?? 'none'})`,
  () => {
    it('writes inside the worktree, and a write elsewhere fails even though the gate allowed it', async () => {
      await open();
      // Outside the system's temporary folder, which a sandboxed command sees as its own.
      const elsewhere = hostDir('warden-sbx-out-');
      const value = await run({
        command: `echo inside > inside.txt; echo outside > ${elsewhere}/outside.txt; echo "rc=$?"`,
      });
      expect(value.sandbox).toMatchObject({ backend });
      expect(readFileSync(join(fx.worktree, 'inside.txt'), 'utf8')).toBe('inside\n');
      expect(existsSync(join(elsewhere, 'outside.txt'))).toBe(false);
      expect(value.stdout).toMatch(/rc=[1-9]/);
      expect(value.stderr).toMatch(
        /Read-only file system|Operation not permitted|Permission denied/,
      );
    });

    it('cannot read a denied folder, while the same file is readable without the sandbox', async () => {
      const secrets = fx.folder('warden-sbx-secrets-');
      writeFileSync(join(secrets, 'token'), 'hunter2\n');
      await open({ sandboxDenyRead: [secrets] });
      const value = await run({ command: `cat ${secrets}/token; echo "rc=$?"` });
      expect(value.stdout).not.toContain('hunter2');
      expect(value.stdout).toMatch(/rc=[1-9]/);
      await open({ sandbox: 'off' });
      const plain = await run({ command: `cat ${secrets}/token` });
      expect(plain.sandbox).toBeNull();
      expect(plain.stdout).toBe('hunter2\n');
    });

    it('reaches a host its command line names through the proxy, and nothing else', async () => {
      await open();
      const named = await run({
        command: `curl -sS -m 10 --noproxy '' http://localhost:${port}/`,
      });
      expect(named.sandbox?.hosts).toEqual(['localhost']);
      expect(named.stdout).toBe('hello from the host\n');

      // The gate allowed egress, but the host came from a variable, so the proxy lets nothing through.
      const hidden = await run({
        command: `U=http://localhost:${port}/; curl -sS -m 10 --noproxy '' "$U"`,
      });
      expect(hidden.sandbox?.hosts).toEqual([]);
      expect(hidden.stdout).not.toContain('hello from the host');
      expect(hidden.sandbox?.violations.join('\n')).toContain('localhost');
      expect(hidden.notes.join('\n')).toContain('the sandbox refused');

      // Around the proxy there is no network at all.
      const direct = await run({
        command: `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${port}/; echo "rc=$?"`,
      });
      expect(direct.stdout).not.toContain('hello from the host');
      expect(direct.stdout).toMatch(/rc=[1-9]/);
    });

    it('lets the operator add hosts (a package registry, say) with `sandboxAllowedHosts`', async () => {
      await open({ sandboxAllowedHosts: ['localhost'] });
      const value = await run({
        command: `U=http://localhost:${port}/; curl -sS -m 10 --noproxy '' "$U"`,
      });
      expect(value.sandbox?.hosts).toEqual(['localhost']);
      expect(value.stdout).toBe('hello from the host\n');
    });

    it('a `bwrap` on the PATH that cannot run fails the command and `warden doctor`; the command never runs unsandboxed', () => {
      const bin = fx.folder('warden-sbx-bin-');
      writeFileSync(
        join(bin, 'bwrap'),
        '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      );
      chmodSync(join(bin, 'bwrap'), 0o755);
      const env = { PATH: `${bin}:${process.env['PATH'] ?? ''}` };
      const worktree = join(fx.folder('warden-sbx-broken-'), 'wt');
      mkdirSync(worktree);
      const script = `
      import { openWarden, registerBuiltins, closeSandbox } from ${JSON.stringify(pathToFileURL(join(BIN, '..', '..', 'dist', 'index.js')).href)};
      const w = await openWarden({ data: process.argv[2] });
      await w.putPolicy(${JSON.stringify(POLICY)}, { author: 'test' });
      const tools = registerBuiltins(w.tools({ workspace: 'acme', agent: 'coder-1', source: 'builtin', worktree: process.argv[3] }));
      const r = await tools.call('run_command', { command: 'echo ran > ran.txt' });
      console.log(JSON.stringify({ ok: r.ok, exitCode: r.ok ? r.value.exitCode : null, stderr: r.ok ? r.value.stderr : r.error }));
      await closeSandbox(); await w.close();`;
      const file = join(worktree, '..', 'call.mjs');
      writeFileSync(file, script);
      const child = spawnSync(process.execPath, [file, join(worktree, '..', 'data'), worktree], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(child.stderr).toBe('');
      const out = JSON.parse(child.stdout) as {
        ok: boolean;
        exitCode: number | null;
        stderr: string;
      };
      expect(out.exitCode === null || out.exitCode !== 0).toBe(true);
      expect(out.stderr).toContain('No permissions to create new namespace');
      expect(existsSync(join(worktree, 'ran.txt'))).toBe(false);

      const doctor = warden(['doctor'], { env });
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toContain('sandbox check FAILED');
      expect(doctor.stdout).toContain(
        '`run_command` refuses every command while its sandbox cannot start',
      );
    }, 60_000);

    it('`warden doctor` runs a command under the backend and says it works; `--no-probe` skips that', () => {
      const doctor = warden(['doctor']);
      expect(doctor.code).toBe(0);
      expect(doctor.stdout).toContain(
        `sandbox check: ${backend} works: a command ran under it, wrote inside its worktree and was refused a write beside it`,
      );
      const json = JSON.parse(warden(['doctor', '--json']).stdout) as { probe: { ok: boolean } };
      expect(json.probe).toMatchObject({ ok: true, backend });
      const quick = warden(['doctor', '--no-probe']);
      expect(quick.stdout).not.toContain('sandbox check');
    }, 60_000);

    it('says in its description that it runs under the sandbox', async () => {
      await open();
      expect(fx.tools.list().find((t) => t.name === 'run_command')?.description).toContain(
        'under an OS sandbox',
      );
    });
  },
);

describe('the sandbox modes (G2)', () => {
  const bare = { platform: 'linux', bwrap: null, socat: '/usr/bin/socat' };

  it('`required` on a host without a backend refuses the command, and nothing runs', async () => {
    await open({ sandbox: 'required', sandboxHost: bare });
    const result = await fx.tools.call('run_command', { command: 'echo ran > ran.txt' });
    expect(result).toMatchObject({ ok: false, status: 'Denied' });
    expect(result.ok ? '' : result.error).toContain(
      'shell commands must run sandboxed, but this host offers no sandbox backend (Linux without `bwrap` on the PATH',
    );
    expect(existsSync(join(fx.worktree, 'ran.txt'))).toBe(false);
  });

  it('`auto` on a host without a backend runs the command without one and says so in its result', async () => {
    await open({ sandboxHost: bare });
    const value = await run({ command: 'echo ran > ran.txt' });
    expect(value.sandbox).toBeNull();
    expect(existsSync(join(fx.worktree, 'ran.txt'))).toBe(true);
  });

  it('refuses a mode it does not know', async () => {
    await expect(open({ sandbox: 'sometimes' as never })).rejects.toThrow(
      'option `sandbox` must be one of `auto`, `required`, `off`',
    );
  });
});
