// `warden exec` (contracts §4, G1, G2, G22, G39): the real binary asks the gate
// whether a shell command may run — standalone on a policy file and connected
// to a real `warden serve` — and runs an allowed one under the OS sandbox:
// the command's exit code and output pass through, a deny exits 3 and runs
// nothing, a write outside the worktree and a host the command line did not
// name are refused, and the audit log holds the decision and how the run
// ended. Under CI the sandbox backend must be present.

import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/honesty/index.js';
import type { Ran } from '../helpers.js';
import { BIN, exportedAudit, runAsync, warden } from '../helpers.js';
import { hostDir, sandboxForTests, tempDir } from '../support/backends.js';
import type { Served, Spawned } from '../support/processes.js';
import { api, approverWatching, agentToken, cliToken, serve } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - id: spawn
    action: processSpawn
    decision: allow
  - id: egress
    action: networkEgress
    decision: allow
  - id: outside
    action: fileWriteOutsideWorktree
    decision: allow
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
  - id: ask-release
    action: gitPush
    decision: prompt
    when: { refs: ['release/**'] }
`;

const { backend, missing } = sandboxForTests();

/** Runs `warden exec` without blocking this process (the tests' HTTP server must answer meanwhile). */
function exec(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  return runAsync(process.execPath, [BIN, 'exec', ...args], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      WARDEN_URL: '',
      WARDEN_TOKEN: '',
      WARDEN_LOG_LEVEL: 'silent',
      ...env,
    },
  });
}

interface Entry {
  readonly kind: string;
  readonly status: string;
  readonly tool: string;
  readonly source: string;
  readonly agentId: string;
  readonly decisionId: string | null;
  readonly callId: string;
  readonly outcome?: string;
  readonly durationMs?: number | null;
  readonly error?: string;
  readonly arguments?: {
    command?: string;
    exitCode?: number;
    sandbox?: { backend: string; hosts: string[]; violations: string[] } | null;
  };
}

function audit(data: string): Entry[] {
  return exportedAudit<Entry>(data);
}

/** The decision entry and the call entries recorded for the command `command`. */
/** A run's decision, how it ended (`calls`), and the entry made when it started (`started`). */
function recorded(entries: readonly Entry[], command: string) {
  const all = entries.filter((e) => e.kind === 'call' && e.arguments?.command === command);
  const calls = all.filter((e) => e.status !== 'Staged');
  const started = all.filter((e) => e.status === 'Staged');
  const decision = entries.find(
    (e) => e.kind === 'decision' && all.some((c) => c.callId === e.callId),
  );
  return { decision, calls, started };
}

let root: string;
let policy: string;
let worktree: string;
let data: string;
const standalone = () => ['--policy', policy, '--data', data, '--worktree', worktree];

beforeAll(() => {
  root = tempDir('warden-exec-');
  policy = join(root, 'policy.yaml');
  writeFileSync(policy, POLICY);
  worktree = join(root, 'worktree');
  mkdirSync(worktree);
  data = join(root, 'data');
});

describe('contracts §4: usage errors exit 1 and run nothing', () => {
  it.each([
    [['--policy', 'POLICY', '--worktree', 'WT', '--'], 'give the command line after `--`'],
    [['--policy', 'POLICY', '--', 'touch marker'], 'give `--worktree DIR`'],
    [['--policy', 'POLICY', '--worktree', 'WT/nowhere', '--', 'touch marker'], 'is not a folder'],
    [['--worktree', 'WT', '--', 'touch marker'], 'say who decides'],
    [
      [
        '--server',
        'http://127.0.0.1:9',
        '--policy',
        'POLICY',
        '--worktree',
        'WT',
        '--',
        'touch marker',
      ],
      'not both',
    ],
    [['--server', 'http://127.0.0.1:9', '--worktree', 'WT', '--', 'touch marker'], 'no token'],
    [
      ['--policy', 'POLICY', '--worktree', 'WT', '--timeout', 'soon', '--', 'touch marker'],
      '`--timeout soon` is not a number of seconds',
    ],
    [['--policy', 'POLICY', '--worktree', 'WT', '--bogus', '--', 'touch marker'], 'unknown option'],
  ])('%j', async (args, message) => {
    const ran = await exec(args.map((a) => a.replace('POLICY', policy).replace('WT', worktree)));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(message);
    expect(existsSync(join(worktree, 'marker'))).toBe(false);
  });
});

describe('the gate decides before anything runs (G1, G22)', () => {
  // `--no-sandbox` lets these run on a host without a backend too; where there is one, it is used.
  it('contracts §4: a deny prints the reason on standard error, exits 3 and runs nothing', async () => {
    const command = 'touch marker && git push origin main';
    const ran = await exec([...standalone(), '--no-sandbox', '--', command]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain(
      'denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace',
    );
    expect(ran.stdout).toBe('');
    expect(existsSync(join(worktree, 'marker'))).toBe(false);
    const { calls } = recorded(audit(data), command);
    expect(calls.map((c) => c.status)).toEqual(['Denied']);
  });

  it('G22: a prompt standalone has no approver, so it is denied: exit 3, nothing runs', async () => {
    const ran = await exec([
      ...standalone(),
      '--no-sandbox',
      '--',
      'touch marker; git push origin release/1',
    ]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain(
      'needs approval: `gitPush`: ref `release/1` matches refs [release/**] of rule `ask-release`',
    );
    expect(ran.stderr).toContain('no approver is connected, so it is denied');
    expect(existsSync(join(worktree, 'marker'))).toBe(false);
  });

  it('--json says the deny and its decision as one JSON line on standard error', async () => {
    const ran = await exec([
      ...standalone(),
      '--no-sandbox',
      '--json',
      '--',
      'git push origin main',
    ]);
    expect(ran.code).toBe(3);
    const said = JSON.parse(ran.stderr.trim().split('\n').pop() as string) as {
      outcome: string;
      decision: { rule: string };
    };
    expect(said).toMatchObject({ outcome: 'deny', decision: { rule: 'protect-main' } });
  });
});

describe('G2: a host without a sandbox backend', () => {
  /** A PATH with `bash` and `touch` but no `bwrap`. */
  function bare(): string {
    const bin = tempDir('warden-exec-bin-');
    for (const name of ['bash', 'touch']) {
      const found = findOnPath(name, {
        platform: process.platform,
        env: process.env,
        exists: existsSync,
      });
      if (found === null) throw new Error(`the tests need \`${name}\` on the PATH`);
      symlinkSync(found, join(bin, name));
    }
    return bin;
  }

  it('refuses to run the command unless `--no-sandbox` is given, and then says the guard rules are the only boundary', async () => {
    const env = { PATH: bare() };
    const refused = await exec([...standalone(), '--', 'touch ran.txt'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('this host offers no sandbox backend');
    expect(refused.stderr).toContain('the command was not run');
    expect(existsSync(join(worktree, 'ran.txt'))).toBe(false);

    const ran = await exec([...standalone(), '--no-sandbox', '--', 'touch ran.txt'], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(
      'this host offers no sandbox backend: the command runs without one, and the guard rules are the only boundary',
    );
    expect(existsSync(join(worktree, 'ran.txt'))).toBe(true);
    const { calls } = recorded(audit(data), 'touch ran.txt');
    expect(calls.at(-1)).toMatchObject({ status: 'Ok', arguments: { sandbox: null } });
  });
});

describe.skipIf(missing !== null)(
  `allowed commands under the sandbox (G2, ${backend ?? 'none'})`,
  () => {
    let server: Server;
    let port = 0;
    beforeAll(async () => {
      server = createServer((_req, res) => res.end('hello from the host\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('contracts §4, G39: the command runs in the worktree, its output and exit code pass through, and the audit has the decision and the completion', async () => {
      const command = 'echo hello; echo oops >&2; echo in > inside.txt; exit 7';
      const ran = await exec([...standalone(), '--', command]);
      expect(ran.code).toBe(7);
      expect(ran.stdout).toBe('hello\n');
      expect(ran.stderr).toContain('oops');
      expect(existsSync(join(worktree, 'inside.txt'))).toBe(true);

      const ok = await exec([...standalone(), '--', 'echo fine']);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toBe('fine\n');

      const entries = audit(data);
      const failed = recorded(entries, command);
      expect(failed.decision).toMatchObject({ outcome: 'allow', tool: 'exec', source: 'exec' });
      expect(failed.calls).toHaveLength(1);
      expect(failed.calls[0]).toMatchObject({
        status: 'Error',
        tool: 'exec',
        agentId: 'exec',
        callId: failed.decision?.callId,
        error: 'the command exited with code 7',
        arguments: { exitCode: 7, sandbox: { backend, hosts: [], violations: [] } },
      });
      expect(typeof failed.calls[0]?.durationMs).toBe('number');
      expect(recorded(entries, 'echo fine').calls[0]).toMatchObject({ status: 'Ok' });
      expect(warden(['audit', 'verify', '--data', data]).code).toBe(0);
    });

    it('a write outside the worktree fails though the gate allowed it, and is recorded as a sandbox violation', async () => {
      // Outside the system's temporary folder, which a sandboxed command sees as its own.
      const elsewhere = hostDir('warden-exec-out-');
      const command = `echo x > ${elsewhere}/outside.txt; echo "rc=$?"`;
      const ran = await exec([...standalone(), '--', command]);
      expect(ran.stdout).toMatch(/rc=[1-9]/);
      expect(existsSync(join(elsewhere, 'outside.txt'))).toBe(false);
      const { decision, calls } = recorded(audit(data), command);
      expect(decision).toMatchObject({ outcome: 'allow' });
      expect(calls[0]?.status).toBe('Error');
      expect(calls[0]?.arguments?.sandbox?.violations.join('\n')).toContain(
        `${elsewhere}/outside.txt`,
      );
      expect(calls[0]?.error).toContain('the sandbox refused what the command tried');
    });

    it('reaches a host its command line names, and no other: the proxy refuses it and the audit says so', async () => {
      const named = await exec([
        ...standalone(),
        '--',
        `curl -sS -m 10 --noproxy '' http://localhost:${port}/`,
      ]);
      expect(named.code, named.stderr).toBe(0);
      expect(named.stdout).toBe('hello from the host\n');

      // The gate allowed egress to a host it could not read; the sandbox lets nothing through.
      const hidden = `U=http://localhost:${port}/; curl -sS -m 10 --noproxy '' "$U"`;
      const refused = await exec([...standalone(), '--', hidden]);
      expect(refused.stdout).not.toContain('hello from the host');
      const { calls } = recorded(audit(data), hidden);
      expect(calls[0]?.arguments?.sandbox?.hosts).toEqual([]);
      expect(calls[0]?.arguments?.sandbox?.violations.join('\n')).toContain('localhost');

      // Around the proxy there is no network at all.
      const direct = await exec([
        ...standalone(),
        '--',
        `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${port}/`,
      ]);
      expect(direct.code).not.toBe(0);
      expect(direct.stdout).not.toContain('hello from the host');
    });

    it('--timeout kills the command: exit 124, recorded as an error', async () => {
      const started = Date.now();
      const ran = await exec([...standalone(), '--timeout', '1', '--', 'sleep 30']);
      expect(ran.code).toBe(124);
      expect(ran.stderr).toContain('the command ran longer than 1 s and was killed');
      expect(Date.now() - started).toBeLessThan(15_000);
      const { calls } = recorded(audit(data), 'sleep 30');
      expect(calls[0]).toMatchObject({ status: 'Error' });
    });

    describe('connected: a real `warden serve` decides and records', () => {
      let served: Served;
      let agent: string;
      let viewer: string;
      let approver: string;
      const spawned: Spawned[] = [];
      beforeAll(async () => {
        const serverData = tempDir();
        expect(warden(['policy', 'apply', policy, '--data', serverData]).code).toBe(0);
        agent = agentToken(serverData, 'ci-runner', 'acme', 'ci');
        viewer = cliToken(['--data', serverData, '--role', 'viewer', '--name', 'eve']).token;
        approver = cliToken(['--data', serverData, '--role', 'approver', '--name', 'bob']).token;
        served = await serve(['--data', serverData]);
        spawned.push(served);
        return async () => {
          await Promise.all(spawned.map((s) => s.stop('SIGKILL')));
        };
      }, 60_000);

      it('G22: a prompt waits for a connected approver, and once lets the command run', async () => {
        const env = { WARDEN_URL: served.url, WARDEN_TOKEN: agent };
        const watcher = await approverWatching(served.url, approver, spawned);
        // The push is in the line only for the gate to see: it never runs.
        const approved = exec(
          ['--worktree', worktree, '--', 'echo yes > approved.txt || git push origin release/1'],
          env,
        );
        const line = await watcher.waitFor(/"event":"approval".*\n/);
        expect(existsSync(join(worktree, 'approved.txt'))).toBe(false);
        const id = /"id":"([0-9A-Z]+)"/.exec(line)?.[1] as string;
        const answered = await api(served.url, approver, 'POST', `/v1/approvals/${id}/answer`, {
          kind: 'once',
        });
        expect(answered.status).toBe(200);
        const ran = await approved;
        expect(ran.code, ran.stderr).toBe(0);
        expect(existsSync(join(worktree, 'approved.txt'))).toBe(true);
      });

      it('contracts §4: allow runs with the exit code passed through, deny exits 3, and the server holds the decision and the completion', async () => {
        const env = { WARDEN_URL: served.url, WARDEN_TOKEN: agent };
        const ran = await exec(['--worktree', worktree, '--', 'echo connected; exit 5'], env);
        expect(ran.code, ran.stderr).toBe(5);
        expect(ran.stdout).toBe('connected\n');
        const denied = await exec(
          ['--worktree', worktree, '--', 'touch marker && git push origin main'],
          env,
        );
        expect(denied.code).toBe(3);
        expect(denied.stderr).toContain('rule `protect-main`');
        expect(existsSync(join(worktree, 'marker'))).toBe(false);

        const calls = (await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=call'))
          .body.entries as Entry[];
        const done = calls.find((e) => e.arguments?.command === 'echo connected; exit 5');
        expect(done).toMatchObject({
          status: 'Error',
          tool: 'exec',
          source: 'exec',
          agentId: 'ci-runner',
          error: 'the command exited with code 5',
        });
        const decisions = (
          await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=decision')
        ).body.entries as Entry[];
        expect(decisions.find((e) => e.callId === done?.callId)).toMatchObject({
          outcome: 'allow',
          source: 'exec',
        });
      });

      it('an unreachable server is a deny: exit 3, nothing runs', async () => {
        const ran = await exec(['--worktree', worktree, '--', 'touch marker'], {
          WARDEN_URL: 'http://127.0.0.1:9',
          WARDEN_TOKEN: agent,
        });
        expect(ran.code).toBe(3);
        expect(ran.stderr).toContain('cannot reach the Warden server');
        expect(existsSync(join(worktree, 'marker'))).toBe(false);
      });

      it("contracts §4: the agent is the token's; asking as another is refused, and refused is a deny", async () => {
        const ran = await exec(
          ['--agent', 'someone-else', '--worktree', worktree, '--', 'touch marker'],
          {
            WARDEN_URL: served.url,
            WARDEN_TOKEN: agent,
          },
        );
        expect(ran.code).toBe(3);
        expect(ran.stderr).toContain('the Warden server answered HTTP 403');
        expect(existsSync(join(worktree, 'marker'))).toBe(false);
      });
    });
  },
);
