// The Claude Code hook enforces what it allows (G2, G37): an allowed `Bash`
// call is answered `allow` with its command rewritten to run under `warden
// exec --grant`, which verifies the grant and runs the original command line
// under the sandbox made from its decision — writes only in the worktree and
// the folders the policy lets the agent write in, no host the command line did
// not name. A grant runs once, only for its command line and worktree, and
// only where it was made; an agent that types `warden exec` itself is decided
// on the command it wraps. Standalone on a policy file and connected to a real
// `warden serve`. Under CI the sandbox backend must be present.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectHost, sandboxBackend } from '../../src/honesty/index.js';
import { GRANT_TTL_MS, issueGrant, verifyGrant } from '../../src/sandbox/grant.js';
import { loadConfig } from '../../src/server/config.js';
import { tempDir, UNDER_CI } from '../support/backends.js';
import type { Served, Spawned } from '../support/processes.js';
import { api, approverWatching, agentToken, cliToken, serve } from '../support/processes.js';
import type { Ran } from '../helpers.js';
import { BIN, GRANTED_RUN, exportedAudit, runAsync, warden } from '../helpers.js';

const backend = sandboxBackend(detectHost());
const missing =
  backend === null
    ? 'this host offers no sandbox backend (`bwrap` and `socat` on Linux): the sandboxed hook runs are skipped'
    : null;
if (missing !== null && UNDER_CI) throw new Error(`under CI the sandbox is required: ${missing}`);
if (missing !== null) console.warn(`[skip] ${missing}`);

let root: string;
let worktree: string;
let area: string;
let beside: string;
let policy: string;

function policyText(areaPath: string): string {
  return `version: 1
workspace: acme
rules:
  - id: spawn
    action: processSpawn
    decision: allow
  - id: build-output
    action: fileWriteOutsideWorktree
    decision: allow
    when: { paths: ['${areaPath}/**'] }
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
`;
}

beforeAll(() => {
  root = realpathSync(tempDir('warden-hook-sandbox-'));
  worktree = join(root, 'worktree');
  area = join(root, 'build-output');
  beside = join(root, 'beside');
  for (const dir of [worktree, area, beside]) mkdirSync(dir);
  policy = join(root, 'policy.yaml');
  writeFileSync(policy, policyText(area));
});

function bash(command: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    hook_event_name: 'PreToolUse',
    cwd: worktree,
    tool_name: 'Bash',
    tool_input: { command, description: 'a step', ...extra },
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
  });
}

interface Answer {
  readonly permissionDecision: string;
  readonly permissionDecisionReason: string;
  readonly updatedInput?: { command: string; description?: string };
}

/** The hook as Claude Code starts it, for the session's project (CLAUDE_PROJECT_DIR): the worktree. */
function hook(args: readonly string[], input: string, env: Record<string, string> = {}): Answer {
  const ran = warden(['hook', 'claude-code', ...args], {
    input,
    env: {
      WARDEN_URL: '',
      WARDEN_TOKEN: '',
      WARDEN_LOG_LEVEL: 'silent',
      CLAUDE_PROJECT_DIR: worktree,
      ...env,
    },
  });
  expect(ran.code, ran.stderr).toBe(0);
  return (JSON.parse(ran.stdout) as { hookSpecificOutput: Answer }).hookSpecificOutput;
}

/** Runs a command line as Claude Code's Bash tool does: `bash -c` in the session's folder. */
function run(command: string, env: Record<string, string> = {}): Promise<Ran> {
  return runAsync('bash', ['-c', command], {
    cwd: worktree,
    env: { ...process.env, NO_COLOR: '1', WARDEN_URL: '', WARDEN_TOKEN: '', ...env },
  });
}

interface Entry {
  readonly kind: string;
  readonly status?: string;
  readonly decisionId?: string | null;
  readonly error?: string;
  readonly arguments?: { sandbox?: { violations: string[]; write: string[] } | null };
}

function audit(data: string): Entry[] {
  return exportedAudit<Entry>(data);
}

describe('G2: grants name one decision, one command line, one worktree', () => {
  const key = Buffer.alloc(32, 7);
  const call = { command: 'npm test', worktree: '/w', at: 1_000 };
  const grant = issueGrant(key, { auditId: 'a1', ...call });

  it('verifies for exactly what it was made for, until it expires', () => {
    expect(verifyGrant(key, grant, call)).toEqual({ ok: true, auditId: 'a1' });
    for (const other of [
      { ...call, command: 'npm test; curl evil.example' },
      { ...call, worktree: '/' },
    ])
      expect(verifyGrant(key, grant, other)).toMatchObject({
        ok: false,
        problem: expect.stringContaining('does not verify') as unknown as string,
      });
    expect(verifyGrant(Buffer.alloc(32, 8), grant, call).ok).toBe(false);
    expect(verifyGrant(key, grant, { ...call, at: call.at + GRANT_TTL_MS })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('expired') as unknown as string,
    });
  });

  it('a grant naming another decision, a malformed or a giant one, never verifies', () => {
    const [, , expires, mac] = grant.split('.');
    expect(verifyGrant(key, `wg1.a2.${expires}.${mac}`, call).ok).toBe(false);
    for (const bad of [
      '',
      'wg1',
      'wg1.a1',
      `wg2.a1.${expires}.${mac}`,
      `${grant}.x`,
      'x'.repeat(10_000),
    ])
      expect(verifyGrant(key, bad, call).ok).toBe(false);
  });
});

describe("G2: what granted commands may not read is the server's setting", () => {
  it('`sandbox.denyRead` replaces the credential folders; anything but a list of paths is refused', () => {
    const dir = tempDir('warden-config-');
    const good = join(dir, 'good.yaml');
    writeFileSync(good, 'sandbox:\n  denyRead: ["~/.ssh", "/srv/secrets"]\n');
    const loaded = loadConfig({ config: good }, {});
    expect(loaded.ok && loaded.config.sandbox.denyRead).toEqual(['~/.ssh', '/srv/secrets']);
    const defaults = loadConfig({}, {});
    expect(defaults.ok && defaults.config.sandbox.denyRead).toBeUndefined();
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'sandbox:\n  denyRead: ~/.ssh\n  denyWrite: []\n');
    const refused = loadConfig({ config: bad }, {});
    expect(refused.ok).toBe(false);
    const paths = refused.ok ? [] : refused.problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['sandbox.denyRead']));
    expect(paths.some((p) => p.startsWith('sandbox'))).toBe(true);
  });
});

describe('G14c: an agent that types `warden exec` is decided on the command it wraps', () => {
  it('a wrapped push to main is denied, whatever grant it carries', () => {
    const data = tempDir();
    const typed = `warden exec --grant wg1.x.y.z --worktree ${worktree} -- git push origin main`;
    const answer = hook(['--policy', policy, '--data', data], bash(typed));
    expect(answer.permissionDecision).toBe('deny');
    expect(answer.permissionDecisionReason).toContain('protect-main');
  });
});

describe('G2: the hook rewrites only where it should', () => {
  it('`--sandbox off` allows the command as it is; an unknown mode is a deny', () => {
    const data = tempDir();
    const off = hook(['--policy', policy, '--data', data, '--sandbox', 'off'], bash('ls'));
    expect(off.permissionDecision).toBe('allow');
    expect(off.updatedInput).toBeUndefined();
    const bogus = hook(['--policy', policy, '--data', data, '--sandbox', 'sometimes'], bash('ls'));
    expect(bogus.permissionDecision).toBe('deny');
    expect(bogus.permissionDecisionReason).toContain('`--sandbox sometimes`');
  });

  it('on a host without a backend, `auto` allows the command as it is and `required` denies it', () => {
    const data = tempDir();
    const bare = { PATH: '/nonexistent' };
    const auto = hook(['--policy', policy, '--data', data], bash('ls'), bare);
    expect(auto.permissionDecision).toBe('allow');
    expect(auto.updatedInput).toBeUndefined();
    const required = hook(
      ['--policy', policy, '--data', data, '--sandbox', 'required'],
      bash('ls'),
      bare,
    );
    expect(required.permissionDecision).toBe('deny');
    expect(required.permissionDecisionReason).toContain('no sandbox backend');
  });

  it("standalone, no file tool reaches Warden's data folder, where the audit log and the grant key live", () => {
    const data = join(root, 'data-tools');
    const call = (tool: string, toolInput: Record<string, unknown>) =>
      JSON.stringify({
        hook_event_name: 'PreToolUse',
        cwd: worktree,
        tool_name: tool,
        tool_input: toolInput,
      });
    for (const [tool, toolInput] of [
      ['Read', { file_path: join(data, 'warden.db') }],
      ['Grep', { pattern: 'x', path: data }],
      ['Write', { file_path: join(data, 'warden.db'), content: '' }],
      [
        'Edit',
        { file_path: `${worktree}/../data-tools/warden.db`, old_string: 'a', new_string: 'b' },
      ],
    ] as const) {
      const answer = hook(['--policy', policy, '--data', data], call(tool, toolInput));
      expect(answer.permissionDecision, tool).toBe('deny');
      expect(answer.permissionDecisionReason).toContain("Warden's data folder");
    }
    const elsewhere = hook(
      ['--policy', policy, '--data', data],
      call('Read', { file_path: join(worktree, 'x') }),
    );
    expect(elsewhere.permissionDecision).toBe('allow');
  });

  it('files and reads are not rewritten: they run inside Claude Code', () => {
    const data = tempDir();
    const read = JSON.stringify({
      hook_event_name: 'PreToolUse',
      cwd: worktree,
      tool_name: 'Read',
      tool_input: { file_path: join(worktree, 'x') },
    });
    expect(hook(['--policy', policy, '--data', data], read).updatedInput).toBeUndefined();
  });
});

describe.skipIf(missing !== null)(
  `G2: standalone, allowed commands run sandboxed (${backend ?? 'none'})`,
  () => {
    let data: string;
    const args = () => ['--policy', policy, '--data', data];
    beforeAll(() => {
      data = join(root, 'data-standalone');
    });

    it('the rewritten command runs the original one: the worktree and the allowed area are writable, nothing else is', async () => {
      const command = `echo in > inside.txt; echo built > ${area}/out.txt; echo out > ${beside}/escape.txt; cat inside.txt`;
      const answer = hook(args(), bash(command));
      expect(answer.permissionDecision).toBe('allow');
      expect(answer.permissionDecisionReason).toContain("runs under Warden's sandbox");
      const rewritten = answer.updatedInput;
      expect(rewritten?.description).toBe('a step');
      expect(rewritten?.command).toMatch(GRANTED_RUN);
      const ran = await run(rewritten?.command ?? '');
      expect(ran.stdout).toBe('in\n');
      expect(readFileSync(join(worktree, 'inside.txt'), 'utf8')).toBe('in\n');
      expect(readFileSync(join(area, 'out.txt'), 'utf8')).toBe('built\n');
      expect(existsSync(join(beside, 'escape.txt'))).toBe(false);
      expect(ran.stderr).toContain('the sandbox refused');
      // The run is recorded against its decision, with what the sandbox refused.
      const entries = audit(data);
      const call = entries.filter((e) => e.kind === 'call').at(-1);
      expect(call?.status).toBe('Error');
      expect(call?.arguments?.sandbox?.write).toEqual([area]);
      expect(call?.arguments?.sandbox?.violations.join('\n')).toContain('escape.txt');

      // A grant runs once.
      const again = await run(rewritten?.command ?? '');
      expect(again.code).toBe(3);
      expect(again.stderr).toContain('a grant runs once');
    });

    it('E44: a command it cannot read whole is allowed to run transactionally instead of asking, and what it deleted is decided before it lands', async () => {
      mkdirSync(join(worktree, 'keep'), { recursive: true });
      writeFileSync(join(worktree, 'keep', 'a.txt'), 'a\n');
      const kept = join(root, 'keep-policy.yaml');
      writeFileSync(
        kept,
        `version: 1
workspace: acme
rules:
  - { id: spawn, action: processSpawn, decision: allow }
  - { id: keep-kept, action: fileDelete, decision: deny, when: { paths: ['keep/**'] } }
`,
      );
      const args = () => ['--policy', kept, '--data', join(root, 'data-keep')];
      const hidden = `eval "$(printf '%s' 'rm -f keep/a.txt; echo made > made.txt')"`;
      // Without Warden's sandbox the unreadable part asks, and standalone nobody can answer.
      expect(hook([...args(), '--sandbox', 'off'], bash(hidden)).permissionDecision).toBe('deny');
      const answer = hook(args(), bash(hidden));
      expect(answer.permissionDecision).toBe('allow');
      const ran = await run(answer.updatedInput?.command ?? '');
      expect(ran.code).toBe(3);
      expect(ran.stderr).toContain('keep-kept');
      expect(ran.stderr).toContain('keep/a.txt');
      // Nothing the command did was kept: neither the deletion nor the file it made.
      expect(readFileSync(join(worktree, 'keep', 'a.txt'), 'utf8')).toBe('a\n');
      expect(existsSync(join(worktree, 'made.txt'))).toBe(false);
      // The same kind of command whose effects the policy allows lands whole.
      const fine = hook(args(), bash(`eval "$(printf '%s' 'echo made > made.txt')"`));
      expect(fine.permissionDecision).toBe('allow');
      expect((await run(fine.updatedInput?.command ?? '')).code).toBe(0);
      expect(readFileSync(join(worktree, 'made.txt'), 'utf8')).toBe('made\n');
    });

    it('G2: a grant is claimed before its command runs: two runs started with it at once run it once', async () => {
      const answer = hook(args(), bash('echo x >> once.txt'));
      const rewritten = answer.updatedInput?.command ?? '';
      const both = await Promise.all([run(rewritten), run(rewritten), run(rewritten)]);
      expect(both.map((r) => r.code).sort()).toEqual([0, 3, 3]);
      expect(readFileSync(join(worktree, 'once.txt'), 'utf8')).toBe('x\n');
      for (const refused of both.filter((r) => r.code === 3))
        expect(refused.stderr).toMatch(/a grant runs once/);
    });

    it('G2: a run killed mid-way keeps the entry made when it started, its end is recorded as killed, nothing it did is kept, and its grant never runs again', async () => {
      const command = 'echo started > killed.txt; sleep 30';
      const answer = hook(args(), bash(command));
      const rewritten = answer.updatedInput?.command ?? '';
      const child = spawn('bash', ['-c', rewritten], {
        cwd: worktree,
        env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: '' },
        stdio: 'ignore',
        detached: true,
      });
      const ofRun = (): Entry[] =>
        audit(data).filter(
          (e) => (e as { arguments?: { command?: string } }).arguments?.command === command,
        );
      // Wait until the run has started (its entry is there), then kill the whole group without warning.
      for (let i = 0; i < 200 && ofRun().length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      const ended = new Promise((r) => child.on('exit', r));
      process.kill(-(child.pid as number), 'SIGKILL');
      await ended;
      // The runner notices its client is gone: the run ended, killed.
      for (let i = 0; i < 100 && ofRun().length < 2; i++)
        await new Promise((r) => setTimeout(r, 50));
      const entries = ofRun();
      expect(entries.map((e) => e.status)).toEqual(['Staged', 'Error']);
      expect(entries[1]?.error).toContain('SIGKILL');
      // It ran over a layer, and a killed run's layer is never landed.
      expect(existsSync(join(worktree, 'killed.txt'))).toBe(false);
      const again = await run(rewritten);
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(/a grant runs once/);
    });

    it('a grant does not carry over to another command line, worktree or data folder', async () => {
      const answer = hook(args(), bash('echo granted'));
      const rewritten = answer.updatedInput?.command ?? '';
      const other = await run(rewritten.replace("'echo granted'", "'echo forged > forged.txt'"));
      expect(other.code).toBe(3);
      expect(other.stderr).toContain('does not verify');
      expect(existsSync(join(worktree, 'forged.txt'))).toBe(false);
      const elsewhere = await run(rewritten.replace(data, join(root, 'data-other')));
      expect(elsewhere.code).toBe(3);
      const moved = await run(rewritten.replace(`--worktree ${worktree}`, `--worktree ${beside}`));
      expect(moved.code).toBe(3);
      // The untouched grant still runs.
      const ran = await run(rewritten);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toBe('granted\n');
    });

    it('a granted command cannot read the data folder that holds the grant key', async () => {
      const answer = hook(args(), bash(`cat ${data}/warden.db > stolen.bin`));
      const ran = await run(answer.updatedInput?.command ?? '');
      expect(ran.code).not.toBe(0);
      const stolen = join(worktree, 'stolen.bin');
      expect(existsSync(stolen) ? readFileSync(stolen).length : 0).toBe(0);
    });
  },
);

describe.skipIf(missing !== null)(
  `G2: connected, the server grants the run (${backend ?? 'none'})`,
  () => {
    let server: Served;
    let agent: string;
    let other: string;
    let approver: string;
    const spawned: Spawned[] = [];

    let serverData: string;

    beforeAll(async () => {
      const data = tempDir();
      serverData = data;
      expect(warden(['policy', 'apply', policy, '--data', data]).code).toBe(0);
      const token = (name: string, id: string) => agentToken(data, id, 'acme', name);
      agent = token('claude', 'claude-code');
      other = token('other', 'someone-else');
      approver = cliToken(['--data', data, '--role', 'approver', '--name', 'bob']).token;
      server = await serve(['--data', data]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all(spawned.map((s) => s.stop('SIGKILL')));
      await server.stop('SIGKILL');
    });

    it('`dangerouslyDisableSandbox` waits for a human, who can approve it only once; approved, it runs as asked', async () => {
      const watcher = await approverWatching(server.url, approver, spawned);
      const child = spawn(process.execPath, [BIN, 'hook', 'claude-code'], {
        stdio: 'pipe',
        env: {
          ...process.env,
          CLAUDE_PROJECT_DIR: worktree,
          WARDEN_URL: server.url,
          WARDEN_TOKEN: agent,
          WARDEN_LOG_LEVEL: 'silent',
        },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stdin.end(bash('ls', { dangerouslyDisableSandbox: true }));
      const line = await watcher.waitFor(/"event":"approval".*\n/);
      const id = /"id":"([0-9A-Z]+)"/.exec(line)?.[1] as string;
      // The rules allow `ls`; only running it without the sandbox asks, and it cannot be remembered.
      const remember = await api(server.url, approver, 'POST', `/v1/approvals/${id}/answer`, {
        kind: 'remember',
        hours: 8,
        scope: 'workspace',
      });
      expect(remember.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(remember.body)).toContain('sandbox');
      const once = await api(server.url, approver, 'POST', `/v1/approvals/${id}/answer`, {
        kind: 'once',
      });
      expect(once.status).toBe(200);
      expect(await new Promise<number | null>((resolve) => child.on('exit', resolve))).toBe(0);
      const answer = (JSON.parse(stdout) as { hookSpecificOutput: Answer }).hookSpecificOutput;
      expect(answer.permissionDecision).toBe('allow');
      expect(answer.updatedInput).toBeUndefined();
    });

    it('the rewritten command asks the server for its profile and reports how it ended', async () => {
      const env = { WARDEN_URL: server.url, WARDEN_TOKEN: agent };
      const answer = hook([], bash(`echo connected > c.txt; echo out > ${beside}/c.txt`), env);
      expect(answer.permissionDecision).toBe('allow');
      const rewritten = answer.updatedInput?.command ?? '';
      expect(rewritten).toContain(`--server ${server.url}`);
      // Another agent's token cannot use this agent's grant.
      const stolen = await run(rewritten, { WARDEN_TOKEN: other });
      expect(stolen.code).toBe(3);
      expect(stolen.stderr).toContain("not this agent's");
      const ran = await run(rewritten, { WARDEN_TOKEN: agent });
      expect(readFileSync(join(worktree, 'c.txt'), 'utf8')).toBe('connected\n');
      expect(existsSync(join(beside, 'c.txt'))).toBe(false);
      expect(ran.stderr).toContain('the sandbox refused');
      const again = await run(rewritten, { WARDEN_TOKEN: agent });
      expect(again.code).toBe(3);
    });

    it("a granted command cannot read the server's data folder", async () => {
      const env = { WARDEN_URL: server.url, WARDEN_TOKEN: agent };
      const answer = hook([], bash(`cat ${serverData}/warden.db > stolen-db.bin`), env);
      const ran = await run(answer.updatedInput?.command ?? '', env);
      expect(ran.code).not.toBe(0);
      const stolen = join(worktree, 'stolen-db.bin');
      expect(existsSync(stolen) ? readFileSync(stolen).length : 0).toBe(0);
    });
  },
);
