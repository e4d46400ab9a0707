// The agent never chooses its own boundary (G2, E10, G14c): `warden hook
// claude-code|codex|gemini` binds every call to the worktree of its
// registration — `--worktree`, the runtime's own project variable
// (CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR) or the folder the runtime started
// the hook in — and never to the `cwd` of its input, which the model may
// write (Codex sends the `workdir` of the model's `exec_command` there; Gemini
// CLI's shell takes a `dir_path`). A call acting in a folder outside that
// worktree is decided as what it is there: a write outside the worktree.
// Driven through the real binary, with JSON inputs whose `cwd` lies outside.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, exportedAudit } from '../helpers.js';
import { HOST_TMP, sandboxForTests, tempDir } from '../support/backends.js';

const { missing: noSandbox } = sandboxForTests('the runs from a folder outside the worktree');

type Runtime = 'claude-code' | 'codex' | 'gemini';
const RUNTIMES: readonly Runtime[] = ['claude-code', 'codex', 'gemini'];

/** The worktree the hook is bound to, a folder inside it, and the folders outside it. */
let worktree: string;
let inside: string;
/** Outside the worktree, under /var/tmp (which the policy below names). */
let outside: string;
let transcript: string;
let denyVarTmp: string;
let allowAll: string;

beforeAll(() => {
  const root = realpathSync(tempDir('warden-hook-worktree-'));
  worktree = join(root, 'project');
  inside = join(worktree, 'src');
  mkdirSync(inside, { recursive: true });
  outside = realpathSync(mkdtempSync(join(HOST_TMP, 'warden-hook-worktree-outside-')));
  // Codex's transcript: its last turn runs without Codex's own sandbox, so a command may be rewritten.
  transcript = join(root, 'rollout.jsonl');
  writeFileSync(
    transcript,
    `${JSON.stringify({ type: 'turn_context', payload: { sandbox_policy: { type: 'danger-full-access' } } })}\n`,
  );
  denyVarTmp = join(root, 'deny-var-tmp.yaml');
  writeFileSync(
    denyVarTmp,
    `version: 1
workspace: acme
rules:
  - id: no-var-tmp
    action: fileWriteOutsideWorktree
    decision: deny
    when: { paths: ['/var/tmp/**'] }
`,
  );
  allowAll = join(root, 'allow.yaml');
  writeFileSync(allowAll, 'version: 1\nworkspace: acme\nrules: []\n');
});

afterAll(() => {
  rmSync(outside, { recursive: true, force: true });
});

/** A shell call of `runtime`, its input's `cwd` the folder given; `args` adds to its arguments. */
function shellCall(
  runtime: Runtime,
  cwd: string,
  command: string,
  args: Record<string, unknown> = {},
): string {
  if (runtime === 'gemini')
    return JSON.stringify({
      session_id: 'g-session',
      transcript_path: join(worktree, 'none.jsonl'),
      cwd,
      hook_event_name: 'BeforeTool',
      timestamp: '2026-12-01T22:12:29.454Z',
      tool_name: 'run_shell_command',
      tool_input: { command, ...args },
    });
  return JSON.stringify({
    ...(runtime === 'codex'
      ? { session_id: 'c-session', turn_id: 't', transcript_path: transcript, model: 'gpt-5.5' }
      : {}),
    hook_event_name: 'PreToolUse',
    cwd,
    tool_name: 'Bash',
    tool_input: { command, ...args },
    tool_use_id: 'call_worktree',
  });
}

/** A file write of `runtime` to the relative path `file`, its input's `cwd` the folder given. */
function fileWrite(runtime: Runtime, cwd: string, file: string): string {
  const base = { hook_event_name: 'PreToolUse', cwd, tool_use_id: 'call_write' };
  if (runtime === 'claude-code')
    return JSON.stringify({ ...base, tool_name: 'Write', tool_input: { file_path: file } });
  if (runtime === 'codex')
    return JSON.stringify({
      ...base,
      transcript_path: transcript,
      tool_name: 'apply_patch',
      tool_input: { command: `*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch\n` },
    });
  return JSON.stringify({
    hook_event_name: 'BeforeTool',
    cwd,
    tool_name: 'write_file',
    tool_input: { file_path: file, content: 'x' },
  });
}

/**
 * How each runtime binds the hook to `worktree` in these tests, as each does
 * for real: Claude Code names its project in CLAUDE_PROJECT_DIR, Codex starts
 * the hook in the session's folder, and Gemini CLI's hook is installed with
 * `--worktree` (it would name GEMINI_PROJECT_DIR otherwise).
 */
function bound(runtime: Runtime): { args: string[]; env: Record<string, string>; cwd: string } {
  const elsewhere = realpathSync(tempDir('warden-hook-worktree-started-'));
  if (runtime === 'claude-code')
    return { args: [], env: { CLAUDE_PROJECT_DIR: worktree }, cwd: elsewhere };
  if (runtime === 'codex') return { args: [], env: {}, cwd: worktree };
  return { args: ['--worktree', worktree], env: {}, cwd: elsewhere };
}

/** The environment of a hook: none of the runtimes' project variables or Warden's settings but those given. */
function hookEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const unset = new Set([
    'CLAUDE_PROJECT_DIR',
    'GEMINI_PROJECT_DIR',
    'WARDEN_URL',
    'WARDEN_TOKEN',
    'WARDEN_MANAGED_POLICY',
  ]);
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !unset.has(key))),
    NO_COLOR: '1',
    WARDEN_LOG_LEVEL: 'silent',
    ...extra,
  };
}

interface Answer {
  readonly code: number | null;
  readonly stderr: string;
  /** The decision in words, whatever the runtime's shape. */
  readonly decision: 'allow' | 'deny' | 'none';
  readonly reason: string;
  /** The rewritten command, if the call was rewritten. */
  readonly command?: string;
}

function readAnswer(runtime: Runtime, code: number | null, stdout: string, stderr: string): Answer {
  const json = JSON.parse(stdout === '' ? '{}' : stdout) as {
    hookSpecificOutput?: {
      permissionDecision?: string;
      permissionDecisionReason?: string;
      updatedInput?: { command?: string };
      tool_input?: { command?: string };
    };
    decision?: string;
    reason?: string;
  };
  if (runtime === 'gemini')
    return {
      code,
      stderr,
      decision: json.decision === 'deny' ? 'deny' : json.decision === 'allow' ? 'allow' : 'none',
      reason: json.reason ?? '',
      ...(json.hookSpecificOutput?.tool_input?.command === undefined
        ? {}
        : { command: json.hookSpecificOutput.tool_input.command }),
    };
  const out = json.hookSpecificOutput;
  const decision = out?.permissionDecision;
  return {
    code,
    stderr,
    decision: decision === 'deny' ? 'deny' : decision === 'allow' ? 'allow' : 'none',
    reason: out?.permissionDecisionReason ?? '',
    ...(out?.updatedInput?.command === undefined ? {} : { command: out.updatedInput.command }),
  };
}

/** `warden hook <runtime> <args>`, started in `cwd` with `env`, answering `input`. */
function hookSync(
  runtime: Runtime,
  args: readonly string[],
  input: string,
  where: { cwd: string; env: Record<string, string> },
): Answer {
  const ran = spawnSync(process.execPath, [BIN, 'hook', runtime, ...args], {
    input,
    cwd: where.cwd,
    env: hookEnv(where.env),
    encoding: 'utf8',
  });
  expect(ran.status, ran.stderr).toBe(0);
  return readAnswer(runtime, ran.status, ran.stdout, ran.stderr);
}

/** The same, without blocking this process (a test's own server must answer meanwhile). */
function hookAsync(
  runtime: Runtime,
  args: readonly string[],
  input: string,
  where: { cwd: string; env: Record<string, string> },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'hook', runtime, ...args], {
      cwd: where.cwd,
      env: hookEnv(where.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve(readAnswer(runtime, code, stdout, stderr)));
    child.stdin.end(input);
  });
}

/** A stand-in Warden server that records every decision request and allows it, with a grant when asked. */
interface DecideServer {
  readonly url: string;
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

async function decideServer(): Promise<DecideServer> {
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as Record<string, unknown>;
      requests.push(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          outcome: 'allow',
          reason: 'allowed: by the stand-in',
          auditId: `a${requests.length}`,
          ...(request.grant === true ? { grant: 'wg1.stand-in' } : {}),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the worktree is the registration’s, never the call’s `cwd`', () => {
  let server: DecideServer;
  beforeAll(async () => {
    server = await decideServer();
    return () => server.close();
  });

  it('E10: the decision request’s worktree is the bound one, and a shell call from a folder outside it asks for `fileWriteOutsideWorktree` of that folder, for every runtime (connected)', async () => {
    for (const runtime of RUNTIMES) {
      const { args, env, cwd } = bound(runtime);
      const asked = server.requests.length;
      const answer = await hookAsync(
        runtime,
        [...args, '--server', server.url, '--sandbox', 'off'],
        shellCall(runtime, outside, 'echo hi > marker.txt'),
        { cwd, env: { ...env, WARDEN_TOKEN: 'wdn_stand_in' } },
      );
      expect(answer.decision === 'deny', `${runtime}: ${answer.reason}`).toBe(false);
      expect(server.requests.slice(asked), runtime).toEqual([
        expect.objectContaining({
          worktree,
          actions: ['processSpawn', 'fileWriteOutsideWorktree'],
          // Run where the runtime runs it (unsandboxed, in that folder), and judged there: its
          // writes are the paths the command shows there, never the folder as every class's path.
          command: `cd '${outside}' && echo hi > marker.txt`,
        }),
      ]);
      expect(server.requests.at(-1)?.args, runtime).toBeUndefined();
    }
  });

  it('E10: a shell call from a folder inside the worktree is decided as before: its worktree the bound one, no write outside it', async () => {
    for (const runtime of RUNTIMES) {
      const { args, env, cwd } = bound(runtime);
      const asked = server.requests.length;
      await hookAsync(
        runtime,
        [...args, '--server', server.url, '--sandbox', 'off'],
        shellCall(runtime, worktree, 'make'),
        { cwd, env: { ...env, WARDEN_TOKEN: 'wdn_stand_in' } },
      );
      await hookAsync(
        runtime,
        [...args, '--server', server.url, '--sandbox', 'off'],
        shellCall(runtime, inside, 'make'),
        { cwd, env: { ...env, WARDEN_TOKEN: 'wdn_stand_in' } },
      );
      const [atRoot, inFolder] = server.requests.slice(asked);
      expect(atRoot, runtime).toMatchObject({ worktree, command: 'make' });
      expect(atRoot?.actions, runtime).toBeUndefined();
      // A folder inside the worktree: relative paths resolve there (E26).
      expect(inFolder, runtime).toMatchObject({ worktree, command: `cd '${inside}' && make` });
      expect(inFolder?.actions, runtime).toBeUndefined();
    }
  });

  it.skipIf(noSandbox !== null)(
    'G2: allowed, a shell call from a folder outside the worktree is rewritten to run there under the sandbox whose one writable root is the bound worktree (the grant’s), and the answer says so',
    async () => {
      for (const runtime of RUNTIMES) {
        const { args, env, cwd } = bound(runtime);
        const asked = server.requests.length;
        const answer = await hookAsync(
          runtime,
          [...args, '--server', server.url],
          shellCall(runtime, outside, 'echo hi > marker.txt'),
          { cwd, env: { ...env, WARDEN_TOKEN: 'wdn_stand_in' } },
        );
        expect(answer.decision, `${runtime}: ${answer.reason}`).toBe('allow');
        // Decided as it will run: in that folder, where only the worktree is writable; the line
        // the grant names is the one decided.
        expect(server.requests.slice(asked), runtime).toEqual([
          expect.objectContaining({
            worktree,
            grant: true,
            actions: ['processSpawn', 'fileWriteOutsideWorktree'],
            command: `cd '${outside}' && echo hi > marker.txt`,
          }),
        ]);
        expect(answer.command, runtime).toContain(
          ` --grant wg1.stand-in --worktree ${worktree} --server `,
        );
        expect(answer.command, runtime).toContain(outside);
        expect(answer.reason, runtime).toContain(
          `(runs under Warden's sandbox, in \`${outside}\`, which it may read but not write: only the worktree \`${worktree}\` is writable)`,
        );
      }
    },
  );
});

describe('standalone: a call outside the worktree is decided as what it is (G14c)', () => {
  it('G14c: a shell call from a folder outside the worktree is a write there: a policy denying `fileWriteOutsideWorktree` on `/var/tmp/**` denies it, for every runtime; from inside the worktree it runs', () => {
    for (const runtime of RUNTIMES) {
      const { args, env, cwd } = bound(runtime);
      const standalone = [...args, '--policy', denyVarTmp, '--data', tempDir(), '--sandbox', 'off'];
      const denied = hookSync(
        runtime,
        standalone,
        shellCall(runtime, outside, 'echo hi > marker.txt'),
        { cwd, env },
      );
      expect(denied.decision, runtime).toBe('deny');
      expect(denied.reason, runtime).toBe(
        `Warden: denied: \`fileWriteOutsideWorktree\`: path \`${outside}/marker.txt\` matches paths [/var/tmp/**] of rule \`no-var-tmp\` in workspace`,
      );
      // A command that shows no write there is not certainly one: the rule cannot be verified.
      const unknown = hookSync(runtime, standalone, shellCall(runtime, outside, 'make'), {
        cwd,
        env,
      });
      expect(unknown.decision, runtime).toBe('deny');
      expect(unknown.reason, runtime).toContain('cannot be verified');
      const allowed = hookSync(runtime, standalone, shellCall(runtime, inside, 'ls'), {
        cwd,
        env,
      });
      expect(allowed.decision, `${runtime}: ${allowed.reason}`).not.toBe('deny');
    }
  });

  it("G14c: Gemini CLI's `dir_path` outside the worktree is decided the same way, whatever the input's `cwd`", () => {
    const { args, env, cwd } = bound('gemini');
    const standalone = [...args, '--policy', denyVarTmp, '--data', tempDir(), '--sandbox', 'off'];
    const denied = hookSync(
      'gemini',
      standalone,
      shellCall('gemini', worktree, 'echo hi > marker.txt', { dir_path: outside }),
      { cwd, env },
    );
    expect(denied).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining(
        `path \`${outside}/marker.txt\` matches paths [/var/tmp/**]`,
      ) as string,
    });
    // And a `dir_path` inside the worktree, from a `cwd` outside it, is where the command acts.
    expect(
      hookSync('gemini', standalone, shellCall('gemini', outside, 'ls', { dir_path: inside }), {
        cwd,
        env,
      }).decision,
    ).toBe('allow');
  });

  it('G14c: a file written by a relative path from a folder outside the worktree is `fileWriteOutsideWorktree` of that path; from inside it, it is not gated, for every runtime', () => {
    for (const runtime of RUNTIMES) {
      const { args, env, cwd } = bound(runtime);
      const standalone = [...args, '--policy', denyVarTmp, '--data', tempDir()];
      const denied = hookSync(runtime, standalone, fileWrite(runtime, outside, 'notes.txt'), {
        cwd,
        env,
      });
      expect(denied.decision, runtime).toBe('deny');
      expect(denied.reason, runtime).toContain(
        `path \`${join(outside, 'notes.txt')}\` matches paths [/var/tmp/**] of rule \`no-var-tmp\``,
      );
      const ungated = hookSync(runtime, standalone, fileWrite(runtime, inside, 'notes.txt'), {
        cwd,
        env,
      });
      expect(ungated.decision, `${runtime}: ${ungated.reason}`).not.toBe('deny');
      if (runtime !== 'codex') expect(ungated.reason).toContain('writes inside the worktree');
    }
  });

  it.skipIf(noSandbox !== null)(
    'G2: the rewritten command, run by the runtime in the folder the model chose, runs there and writes nothing in it: only the worktree is writable',
    async () => {
      const { args, env, cwd } = bound('claude-code');
      const data = tempDir();
      const answer = hookSync(
        'claude-code',
        [...args, '--policy', allowAll, '--data', data],
        shellCall(
          'claude-code',
          outside,
          `pwd; echo hi > marker.txt; echo x > ${join(outside, 'abs.txt')}`,
        ),
        { cwd, env },
      );
      expect(answer.decision, answer.reason).toBe('allow');
      expect(answer.reason).toContain(`in \`${outside}\`, which it may read but not write`);
      expect(answer.command).toContain(` --worktree ${worktree} `);
      // Claude Code runs the rewritten command line in the session's `cwd`: the outside folder.
      const ran = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn('bash', ['-c', answer.command ?? 'false'], {
          cwd: outside,
          env: hookEnv({}),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout }));
      });
      expect(ran.stdout.split('\n')[0]).toBe(outside);
      expect(existsSync(join(worktree, 'marker.txt'))).toBe(false);
      expect(existsSync(join(outside, 'marker.txt'))).toBe(false);
      expect(existsSync(join(outside, 'abs.txt'))).toBe(false);
      expect(ran.code).not.toBe(0);
    },
  );
});

describe('the data folder (standalone)', () => {
  it("G39: a call acting in Warden's data folder, which holds the audit log, is denied; the default `--data` lies in the bound worktree, not where the hook was started", () => {
    for (const runtime of RUNTIMES) {
      const project = realpathSync(tempDir('warden-hook-worktree-data-'));
      const started = realpathSync(tempDir('warden-hook-worktree-started-'));
      const where = { cwd: started, env: {} };
      const args = ['--worktree', project, '--policy', allowAll, '--sandbox', 'off'];
      // A first call makes the data folder in the project.
      const first = hookSync(runtime, args, shellCall(runtime, project, 'ls'), where);
      expect(first.decision, `${runtime}: ${first.reason}`).not.toBe('deny');
      const data = join(project, '.warden');
      expect(existsSync(join(started, '.warden')), runtime).toBe(false);
      expect(
        exportedAudit<{ kind: string }>(data).filter((e) => e.kind === 'decision'),
        runtime,
      ).toHaveLength(1);
      // Acting in it, a command would reach `warden.db` by a relative path.
      const inData = hookSync(runtime, args, shellCall(runtime, data, 'cat warden.db'), where);
      expect(inData, runtime).toMatchObject({
        decision: 'deny',
        reason: `Warden: \`${runtime === 'gemini' ? 'run_shell_command' : 'Bash'}\` acts in \`${data}\`, in Warden's data folder, which no agent may read or change`,
      });
      // A relative write from there names a file in it.
      const write = hookSync(runtime, args, fileWrite(runtime, data, 'keys.txt'), where);
      expect(write.decision, runtime).toBe('deny');
      expect(write.reason, runtime).toContain("Warden's data folder");
    }
  });
});

describe('which worktree the hook is bound to', () => {
  let server: DecideServer;
  beforeAll(async () => {
    server = await decideServer();
    return () => server.close();
  });

  /** The worktree the hook asked the server with, for a shell call in `worktree`. */
  async function worktreeAsked(
    runtime: Runtime,
    args: readonly string[],
    where: { cwd: string; env: Record<string, string> },
  ): Promise<unknown> {
    const asked = server.requests.length;
    const answer = await hookAsync(
      runtime,
      [...args, '--server', server.url, '--sandbox', 'off'],
      shellCall(runtime, worktree, 'ls'),
      { cwd: where.cwd, env: { ...where.env, WARDEN_TOKEN: 'wdn_stand_in' } },
    );
    expect(answer.decision, answer.reason).not.toBe('deny');
    return server.requests[asked]?.worktree;
  }

  it('E10: `--worktree` first, then the runtime’s project variable (CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR), then the folder the runtime started the hook in', async () => {
    const other = realpathSync(tempDir('warden-hook-worktree-other-'));
    const started = realpathSync(tempDir('warden-hook-worktree-started-'));
    expect(
      await worktreeAsked('claude-code', ['--worktree', other], {
        cwd: started,
        env: { CLAUDE_PROJECT_DIR: worktree },
      }),
    ).toBe(other);
    expect(
      await worktreeAsked('claude-code', [], {
        cwd: started,
        env: { CLAUDE_PROJECT_DIR: worktree },
      }),
    ).toBe(worktree);
    expect(
      await worktreeAsked('gemini', [], { cwd: started, env: { GEMINI_PROJECT_DIR: worktree } }),
    ).toBe(worktree);
    // Gemini CLI also sets CLAUDE_PROJECT_DIR; its hook reads its own variable only.
    expect(
      await worktreeAsked('gemini', [], { cwd: started, env: { CLAUDE_PROJECT_DIR: other } }),
    ).toBe(started);
    // Codex names no project: the session's folder, where it starts the hook.
    expect(
      await worktreeAsked('codex', [], { cwd: worktree, env: { CLAUDE_PROJECT_DIR: other } }),
    ).toBe(worktree);
  });

  it('G37: a `--worktree` that is relative, or no folder, is a deny that says why', () => {
    for (const [given, says] of [
      ['project', 'the worktree `project` (`--worktree`) is not an absolute path'],
      [
        join(worktree, 'none'),
        `the worktree \`${join(worktree, 'none')}\` (\`--worktree\`) cannot be read (ENOENT)`,
      ],
    ] as const) {
      const answer = hookSync(
        'claude-code',
        ['--worktree', given, '--policy', allowAll, '--data', tempDir()],
        shellCall('claude-code', worktree, 'ls'),
        { cwd: worktree, env: {} },
      );
      expect(answer).toMatchObject({
        decision: 'deny',
        reason: `Warden: ${says}: every call is judged against it`,
      });
    }
  });
});
