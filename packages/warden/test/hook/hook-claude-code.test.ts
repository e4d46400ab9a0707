// `warden hook claude-code` (contracts §4, G14b, G14c, G22, G37): recorded
// Claude Code `PreToolUse` inputs in, the exact answer JSON out — standalone on
// a policy file and connected to a real `warden serve` — and every way the hook
// could fail (bad input, crash, timeout, unreachable or silent server) ends as
// a deny, because Claude Code lets a call through when a hook fails.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { Exit } from '../../src/cli/io.js';
import { runHookInstall } from '../../src/cli/commands/hook/install.js';
import { planCall, readPreToolUse } from '../../src/hook/claude-code.js';
import type { PreToolUse } from '../../src/hook/claude-code.js';
import { BIN, FIXTURES, warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { Served, Spawned } from '../support/processes.js';
import {
  api,
  approverWatching,
  agentToken,
  cliToken,
  freePort,
  serve,
} from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
  - id: feature-branches
    action: gitPush
    decision: allow
    when: { refs: ['feature/**'] }
  - id: ask-outside
    action: fileWriteOutsideWorktree
    decision: prompt
  - id: no-prod
    action: networkEgress
    decision: deny
    when: { hosts: ['*.prod.internal'] }
`;

const HOOK_DIST = pathToFileURL(join(BIN, '..', '..', 'dist', 'hook', 'main.js')).href;

/** A recorded input with the worktree it was recorded in replaced by `worktree`. */
function recorded(name: string, worktree: string): string {
  return readFileSync(join(FIXTURES, 'claude-code', name), 'utf8').replaceAll('WORKTREE', worktree);
}

function deny(reason: string) {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  };
}

function allow(reason: string) {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: reason,
    },
  };
}

interface Hooked {
  readonly code: number;
  readonly answer: unknown;
  readonly stderr: string;
}

/**
 * The hook as Claude Code runs it: in the session's project, which it names in
 * CLAUDE_PROJECT_DIR (the recorded inputs' `cwd`), the worktree calls are bound to.
 */
function hook(args: string[], input: string, env: Record<string, string> = {}): Hooked {
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
  let answer: unknown = null;
  if (ran.stdout.trim() !== '') answer = JSON.parse(ran.stdout) as unknown;
  return { code: ran.code, answer, stderr: ran.stderr };
}

function input(tool: string, toolInput: Record<string, unknown>, cwd: string): PreToolUse {
  const read = readPreToolUse({
    hook_event_name: 'PreToolUse',
    cwd,
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: 'toolu_test',
  });
  if (Array.isArray(read)) throw new Error(read.join('; '));
  return read;
}

/** MCP servers Claude Code talks to directly, mapped as the gateway would map them (contracts §7). */
const GATEWAY_CONFIG = `agent: claude-code
workspace: acme
servers:
  github: { url: "https://api.githubcopilot.com/mcp/" }
tools:
  github__push_files: { actions: [gitPush], args: { refs: [branch] } }
  "github__{get,list,search}_*": { readOnly: true }
`;

let worktree: string;
let policyFile: string;
let gatewayConfig: string;
beforeAll(() => {
  const root = tempDir('warden-hook-');
  worktree = join(root, 'api');
  mkdirSync(join(worktree, 'src'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  symlinkSync(join(root, 'elsewhere'), join(worktree, 'out'));
  policyFile = join(root, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
  gatewayConfig = join(root, 'gateway.yaml');
  writeFileSync(gatewayConfig, GATEWAY_CONFIG);
});

describe('G14b/G14c: what a Claude Code tool call asks of the gate', () => {
  it('Bash goes to the shell classifier with the worktree, to run sandboxed once allowed (G2)', async () => {
    expect(
      await planCall(input('Bash', { command: 'git push origin main' }, worktree), worktree),
    ).toEqual({
      kind: 'gate',
      worktree,
      ask: {
        tool: 'Bash',
        command: 'git push origin main',
        arguments: { command: 'git push origin main' },
        callId: 'toolu_test',
      },
      shell: { input: { command: 'git push origin main' }, command: 'git push origin main' },
    });
    // Asking to run without the sandbox is asked of the gate as such, and never rewritten.
    const unsandboxed = { command: 'ls', dangerouslyDisableSandbox: true };
    expect(await planCall(input('Bash', unsandboxed, worktree), worktree)).toEqual({
      kind: 'gate',
      worktree,
      ask: {
        tool: 'Bash',
        command: 'ls',
        arguments: unsandboxed,
        callId: 'toolu_test',
        unsandboxed: true,
      },
    });
  });

  it('a file write inside the worktree is not gated; outside, through `..` or a link, it is', async () => {
    const inside = await planCall(
      input('Write', { file_path: 'src/new.ts', content: '' }, worktree),
      worktree,
    );
    expect(inside).toMatchObject({ kind: 'ungated' });
    const up = await planCall(
      input('Edit', { file_path: `${worktree}/../elsewhere/x.env` }, worktree),
      worktree,
    );
    expect(up).toMatchObject({
      kind: 'gate',
      ask: {
        actions: ['fileWriteOutsideWorktree'],
        args: { paths: [join(worktree, '..', 'elsewhere', 'x.env')] },
      },
    });
    const viaLink = await planCall(
      input('MultiEdit', { file_path: 'out/x.env', edits: [] }, worktree),
      worktree,
    );
    expect(viaLink).toMatchObject({ kind: 'gate', ask: { actions: ['fileWriteOutsideWorktree'] } });
    const notebook = await planCall(
      input('NotebookEdit', { notebook_path: '/etc/x.ipynb' }, worktree),
      worktree,
    );
    expect(notebook).toMatchObject({ kind: 'gate', ask: { args: { paths: ['/etc/x.ipynb'] } } });
  });

  it('records a long content argument by its start and size, so a large write is still decided', async () => {
    const content = 'x'.repeat(3 * 1024 * 1024);
    const plan = await planCall(
      input('Write', { file_path: '/etc/big.txt', content }, worktree),
      worktree,
    );
    expect(plan.kind).toBe('gate');
    const recorded = (plan as { ask: { arguments: { content: string; file_path: string } } }).ask
      .arguments;
    expect(recorded.file_path).toBe('/etc/big.txt');
    expect(recorded.content.length).toBeLessThan(5000);
    expect(recorded.content).toMatch(/… \(3145728 bytes in all\)$/);
  });

  it('WebFetch and WebSearch are network egress with the hosts they name (E12), unknown otherwise', async () => {
    expect(
      await planCall(
        input('WebFetch', { url: 'https://api.github.com/x', prompt: 'p' }, worktree),
        worktree,
      ),
    ).toMatchObject({
      kind: 'gate',
      ask: { actions: ['networkEgress'], args: { hosts: ['https://api.github.com/x'] } },
    });
    expect(
      await planCall(
        input('WebSearch', { query: 'q', allowed_domains: ['docs.rs'] }, worktree),
        worktree,
      ),
    ).toMatchObject({ ask: { args: { hosts: ['docs.rs'] } } });
    const open = await planCall(input('WebSearch', { query: 'q' }, worktree), worktree);
    expect(open).toMatchObject({ kind: 'gate', ask: { actions: ['networkEgress'] } });
    expect((open as { ask: { args?: unknown } }).ask.args).toBeUndefined();
  });

  it('reads pass; an unmapped MCP tool, an unknown tool and a call missing its argument are refused', async () => {
    for (const tool of ['Read', 'Glob', 'Grep', 'LS', 'TodoWrite', 'Task'])
      expect(await planCall(input(tool, {}, worktree), worktree)).toMatchObject({
        kind: 'ungated',
      });
    expect(await planCall(input('mcp__fs__write_file', {}, worktree), worktree)).toMatchObject({
      kind: 'refuse',
      reason: expect.stringContaining('no mapping'),
    });
    expect(
      await planCall(input('mcp__warden__fs__write_file', {}, worktree), worktree),
    ).toMatchObject({
      kind: 'ungated',
      reason: expect.stringContaining("Warden's MCP gateway"),
    });
    expect(
      await planCall(input('mcp__wdn__fs__write_file', {}, worktree), worktree, 'wdn'),
    ).toMatchObject({
      kind: 'ungated',
    });
    expect(await planCall(input('Teleport', {}, worktree), worktree)).toMatchObject({
      kind: 'refuse',
      reason: expect.stringContaining('does not know'),
    });
    expect(await planCall(input('Bash', {}, worktree), worktree)).toMatchObject({ kind: 'refuse' });
    expect(await planCall(input('Write', { content: 'x' }, worktree), worktree)).toMatchObject({
      kind: 'refuse',
    });
  });

  it('reads the input field by field and lists every problem', () => {
    expect(readPreToolUse([])).toEqual(['the input is not a JSON object']);
    expect(
      readPreToolUse({
        hook_event_name: 'PostToolUse',
        cwd: 'rel',
        tool_input: [],
        tool_use_id: 3,
      }),
    ).toHaveLength(5);
  });
});

describe('standalone: decisions from the policy file, prompts denied (G22)', () => {
  it('answers recorded inputs with the exact JSON', () => {
    const data = tempDir();
    const args = ['--policy', policyFile, '--data', data];
    expect(hook(args, recorded('bash-push.json', worktree))).toEqual({
      code: 0,
      stderr: '',
      answer: deny(
        'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace',
      ),
    });
    expect(hook(args, recorded('edit-inside.json', worktree)).answer).toEqual(
      allow('Warden: `Edit` writes inside the worktree (not gated)'),
    );
    expect(hook(args, recorded('read.json', worktree)).answer).toEqual(
      allow('Warden: `Read` reads a file'),
    );
    const outside = hook(args, recorded('write-outside.json', worktree));
    expect(outside.answer).toEqual(
      deny(
        'Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
      ),
    );
    expect(hook(args, recorded('webfetch.json', worktree)).answer).toMatchObject(
      deny(expect.stringContaining('rule `no-prod`') as unknown as string),
    );
    expect(hook(args, recorded('mcp-tool.json', worktree)).answer).toMatchObject(
      deny(expect.stringContaining('no mapping') as unknown as string),
    );
    // Every gated call is in the audit log, with the tool and Claude Code's call id (G39).
    const exported = warden(['audit', 'export', '--data', data]).stdout;
    expect(exported).toContain('toolu_01HrT6b3q1XkM9gq2ZBvN4sU');
    expect(exported).toContain('"claude-code"');
    expect(exported).not.toContain('sk-live-0000');
  });

  it('an invalid policy file is a deny that says why', () => {
    const bad = join(tempDir(), 'bad.yaml');
    writeFileSync(
      bad,
      'version: 1\nworkspace: acme\nrules: [{ action: gitPsh, decision: allow }]\n',
    );
    const ran = hook(['--policy', bad, '--data', tempDir()], recorded('bash-push.json', worktree));
    expect(ran.code).toBe(0);
    expect(ran.answer).toMatchObject(
      deny(expect.stringContaining('cannot be used') as unknown as string),
    );
  });
});

describe('--gateway-config: MCP servers Claude Code talks to directly, mapped as the gateway maps them (G1, G5, contracts §7)', () => {
  const direct = () => [
    '--policy',
    policyFile,
    '--data',
    tempDir(),
    '--gateway-config',
    gatewayConfig,
  ];

  it('G1, G16: a mapped tool is decided with its classes and the arguments its mapping reads', () => {
    const push = recorded('mcp-github-push-files.json', worktree);
    expect(hook(direct(), push)).toEqual({
      code: 0,
      stderr: '',
      answer: deny(
        'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace',
      ),
    });
    expect(
      hook(direct(), push.replace('"branch": "main"', '"branch": "feature/login"')).answer,
    ).toEqual(
      allow(
        'Warden: allowed: `gitPush`: refs [feature/login] lie within refs [feature/**] of rule `feature-branches` in workspace',
      ),
    );
    // A mapped argument of the wrong type is refused, not decided without it.
    expect(hook(direct(), push.replace('"branch": "main"', '"branch": 7')).answer).toEqual(
      deny(
        'Warden: `mcp__github__push_files`: the argument `branch` is read as refs and must be a non-empty string: denied',
      ),
    );
  });

  it('G5: a read-only tool passes; an unmapped one, and a server the file does not list, are denied saying how to map them', () => {
    expect(hook(direct(), recorded('mcp-github-list-issues.json', worktree)).answer).toEqual(
      allow(
        `Warden: \`mcp__github__list_issues\` only reads (\`github__list_issues\` is \`readOnly\` in \`${gatewayConfig}\`): not gated`,
      ),
    );
    expect(hook(direct(), recorded('mcp-github-create-issue.json', worktree)).answer).toEqual(
      deny(
        `Warden: \`mcp__github__create_issue\` has no mapping in the gateway configuration \`${gatewayConfig}\`: map \`github__create_issue\` under \`tools\` there, with \`actions\` (and \`args\`) if it changes anything or \`readOnly: true\` if it only reads (the ratchet)`,
      ),
    );
    expect(hook(direct(), recorded('mcp-tool.json', worktree)).answer).toEqual(
      deny(
        `Warden: \`mcp__filesystem__write_file\` is a tool of the MCP server \`filesystem\`, which the gateway configuration \`${gatewayConfig}\` does not list: add \`filesystem\` under \`servers\` there and map \`filesystem__write_file\` under \`tools\` (\`actions\` with \`args\`, or \`readOnly: true\`), or give Claude Code this server through \`warden gateway\``,
      ),
    );
  });

  it("G1: Warden's own gateway keeps its tools; without --gateway-config an MCP tool is denied, saying how to map it", () => {
    expect(hook(direct(), recorded('mcp-gateway-tool.json', worktree)).answer).toEqual(
      allow(
        "Warden: `mcp__warden__fs__write_file` goes through Warden's MCP gateway, which decides it",
      ),
    );
    expect(
      hook(
        ['--policy', policyFile, '--data', tempDir()],
        recorded('mcp-github-push-files.json', worktree),
      ).answer,
    ).toEqual(
      deny(
        'Warden: `mcp__github__push_files` is an MCP tool with no mapping to action classes: give Claude Code this server through `warden gateway`, where each tool is mapped, or map its tools in a gateway configuration given to the hook with `--gateway-config FILE`',
      ),
    );
  });

  it('G37: a gateway configuration that cannot be read or is invalid is a deny that says why; other tools are not affected', () => {
    const missing = join(tempDir(), 'none.yaml');
    const args = ['--policy', policyFile, '--data', tempDir(), '--gateway-config', missing];
    expect(hook(args, recorded('mcp-github-push-files.json', worktree)).answer).toEqual(
      deny(
        `Warden: the gateway configuration \`${missing}\` (\`--gateway-config\`) cannot be used: no such file \`${missing}\``,
      ),
    );
    const bad = join(tempDir(), 'bad.yaml');
    writeFileSync(bad, GATEWAY_CONFIG.replace('[gitPush]', '[gitPsh]'));
    args[5] = bad;
    expect(hook(args, recorded('mcp-github-push-files.json', worktree)).answer).toMatchObject(
      deny(
        expect.stringContaining(
          'tools.github__push_files.actions[0]: unknown action class `gitPsh`: did you mean `gitPush`?',
        ) as unknown as string,
      ),
    );
    expect(hook(args, recorded('read.json', worktree)).answer).toEqual(
      allow('Warden: `Read` reads a file'),
    );
  });

  it('the decided call is in the audit log under the name Claude Code gave it (G39)', () => {
    const data = tempDir();
    const ran = hook(
      ['--policy', policyFile, '--data', data, '--gateway-config', gatewayConfig],
      recorded('mcp-github-push-files.json', worktree),
    );
    expect(ran.answer).toMatchObject(
      deny(expect.stringContaining('protect-main') as unknown as string),
    );
    const exported = warden(['audit', 'export', '--data', data]).stdout;
    expect(exported).toContain('toolu_01Gp3Xr8Nt5Vb2Kq7Hm4Ld9S');
    expect(exported).toContain('"tool":"mcp__github__push_files"');
  });
});

describe('every failure is a deny, never a crash (G37)', () => {
  it('bad input, no policy and bad settings answer deny JSON with exit 0', () => {
    const cases: [string[], string, string][] = [
      [['--policy', policyFile], '', 'no input'],
      [['--policy', policyFile], '{"tool_name":', 'not JSON'],
      [['--policy', policyFile], '{"hook_event_name":"Stop"}', 'not a `PreToolUse` call'],
      [['--policy', policyFile], '{"hook_event_name":"PostToolUse"}', 'not a `PostToolUse` call'],
      [[], recorded('bash-push.json', worktree), 'the hook has no policy'],
      [['--timeout', 'soon'], recorded('bash-push.json', worktree), '`--timeout soon`'],
      [['--server', 'http://127.0.0.1:9', '--policy', policyFile], '{}', 'not both'],
    ];
    for (const [args, text, says] of cases) {
      const ran = hook(args, text);
      expect(ran.code, says).toBe(0);
      expect(ran.answer, says).toMatchObject(
        deny(expect.stringContaining(says) as unknown as string),
      );
    }
  });

  it('bad arguments exit 2 with the reason on standard error, which Claude Code reads as a deny', () => {
    const ran = hook(['--no-such-flag'], recorded('bash-push.json', worktree));
    expect(ran.code).toBe(2);
    expect(ran.answer).toBeNull();
    expect(ran.stderr).toMatch(/^Warden: bad hook arguments: .*denied, fail-closed\n$/);
  });

  it('an uncaught error inside the hook exits 2, not 1 (which Claude Code would let through)', () => {
    const script = `import(${JSON.stringify(HOOK_DIST)}).then((m) => { void m.mainHook('claude-code', []); setTimeout(() => { throw new Error('boom'); }, 50); });`;
    const held = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe' });
    return new Promise<void>((resolve) => {
      let stderr = '';
      held.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      held.on('exit', (code) => {
        expect(code).toBe(2);
        expect(stderr).toContain('Warden: internal error: boom: denied, fail-closed');
        resolve();
      });
    });
  });

  it('input that never ends still gets an answer: exit 2 a second after --timeout', async () => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-code', '--timeout', '1'], {
      stdio: 'pipe',
      env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: '' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('no answer in time');
    expect(Date.now() - started).toBeLessThan(8000);
  });
});

describe('connected: a real `warden serve` decides, humans answer prompts', () => {
  let server: Served;
  let agent: string;
  let approver: string;
  const spawned: Spawned[] = [];

  beforeAll(async () => {
    const data = tempDir();
    expect(warden(['policy', 'apply', policyFile, '--data', data]).code).toBe(0);
    agent = agentToken(data, 'claude-code', 'acme', 'claude');
    approver = cliToken(['--data', data, '--role', 'approver', '--name', 'bob']).token;
    server = await serve(['--data', data]);
    spawned.push(server);
    return async () => {
      await Promise.all(spawned.map((s) => s.stop('SIGKILL')));
    };
  }, 60_000);

  afterEach(async () => {
    await Promise.all(spawned.splice(1).map((s) => s.stop('SIGKILL')));
  });

  const env = () => ({ WARDEN_URL: server.url, WARDEN_TOKEN: agent });

  it('allow and deny come from the server, identity from the token', async () => {
    const push = recorded('bash-push.json', worktree).replace(
      'git push origin main',
      'git push origin feature/x',
    );
    expect(hook([], push, env()).answer).toMatchObject(
      allow(expect.stringContaining('rule `feature-branches`') as unknown as string),
    );
    expect(hook([], recorded('bash-push.json', worktree), env()).answer).toEqual(
      deny(
        'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace',
      ),
    );
    // The server records which choke point asked.
    const audit = await api(server.url, approver, 'GET', '/v1/audit?workspace=acme&kind=decision');
    const entries = audit.body.entries as { source: string; agentId: string }[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.source === 'claude-code' && e.agentId === 'claude-code')).toBe(
      true,
    );
    // The token is agent `claude-code`; asking as another agent is refused, and refused means deny.
    const other = hook(['--agent', 'someone-else'], push, env());
    expect(other.answer).toMatchObject(
      deny(expect.stringContaining('HTTP 403') as unknown as string),
    );
  });

  it('G22: a prompt waits for a connected approver, and the answer lets the call through', async () => {
    const watcher = await approverWatching(server.url, approver, spawned);
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-code'], {
      stdio: 'pipe',
      env: { ...process.env, CLAUDE_PROJECT_DIR: worktree, ...env() },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end(recorded('write-outside.json', worktree));
    const line = await watcher.waitFor(/"event":"approval".*\n/);
    const id = /"id":"([0-9A-Z]+)"/.exec(line)?.[1] as string;
    const answered = await api(server.url, approver, 'POST', `/v1/approvals/${id}/answer`, {
      kind: 'once',
    });
    expect(answered.status).toBe(200);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject(
      allow(expect.stringContaining('fileWriteOutsideWorktree') as unknown as string),
    );
  });

  it('G22: a prompt nobody answers within --timeout is denied', async () => {
    await approverWatching(server.url, approver, spawned);
    const started = Date.now();
    const ran = hook(['--timeout', '2'], recorded('write-outside.json', worktree), env());
    expect(ran.code).toBe(0);
    expect(ran.answer).toMatchObject(
      deny(expect.stringContaining('no decision within 2 s') as unknown as string),
    );
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('contracts §4, G1: --gateway-config: the server decides a directly reached MCP tool with its mapping', () => {
    expect(
      hook(
        ['--gateway-config', gatewayConfig],
        recorded('mcp-github-push-files.json', worktree),
        env(),
      ).answer,
    ).toEqual(
      deny(
        'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace',
      ),
    );
  });

  it('a bad token, an unreachable server and a silent one are denies', async () => {
    const text = recorded('bash-push.json', worktree);
    expect(
      hook([], text, { WARDEN_URL: server.url, WARDEN_TOKEN: 'wdn_nope' }).answer,
    ).toMatchObject(deny(expect.stringContaining('HTTP 401') as unknown as string));
    const port = await freePort();
    expect(
      hook([], text, { WARDEN_URL: `http://127.0.0.1:${port}`, WARDEN_TOKEN: agent }).answer,
    ).toMatchObject(
      deny(expect.stringContaining('cannot reach the Warden server') as unknown as string),
    );
    expect(hook([], text, { WARDEN_URL: server.url }).answer).toMatchObject(
      deny(expect.stringContaining('no token') as unknown as string),
    );
    // A server that accepts the connection and never answers.
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address() as { port: number };
    const hung = hook(['--timeout', '1'], text, {
      WARDEN_URL: `http://127.0.0.1:${address.port}`,
      WARDEN_TOKEN: agent,
    });
    for (const socket of sockets) socket.destroy();
    silent.close();
    expect(hung.code).toBe(0);
    expect(hung.answer).toMatchObject(
      deny(expect.stringContaining('no decision within 1 s') as unknown as string),
    );
  });
});

describe('warden hook install claude-code', () => {
  /** `warden hook install claude-code --project <project> <flags>`. */
  const install = (project: string, ...flags: string[]) =>
    warden(['hook', 'install', 'claude-code', '--project', project, ...flags]);

  it('writes one entry for all tools, keeps the rest of the settings, and replaces itself', () => {
    const project = tempDir();
    mkdirSync(join(project, '.claude'));
    const file = join(project, '.claude', 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        model: 'opus',
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'lint-bash' }] }],
          Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }],
        },
      }),
    );
    for (let i = 0; i < 2; i++) {
      const ran = install(project, '--policy', policyFile, '--json');
      expect(ran.code, ran.stderr).toBe(0);
    }
    const settings = JSON.parse(readFileSync(file, 'utf8')) as {
      model: string;
      hooks: {
        PreToolUse: { matcher: string; hooks: { command: string; timeout?: number }[] }[];
        Stop: unknown[];
      };
    };
    expect(settings.model).toBe('opus');
    expect(settings.hooks.Stop).toHaveLength(1);
    const ours = settings.hooks.PreToolUse.filter((g) =>
      g.hooks.some((h) => /warden-hook \S+ claude-code/.test(h.command)),
    );
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ matcher: '*', hooks: [{ type: 'command', timeout: 60 }] });
    expect(settings.hooks.PreToolUse.some((g) => g.matcher === 'Bash')).toBe(true);
    // The command it wrote runs: a shell starts it as Claude Code would.
    const command = ours[0]?.hooks[0]?.command as string;
    const ran = spawnSync('sh', ['-c', command], {
      input: recorded('bash-push.json', worktree),
      encoding: 'utf8',
      cwd: project,
      env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: '', WARDEN_LOG_LEVEL: 'silent' },
    });
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject(
      deny(expect.stringContaining('protect-main') as unknown as string),
    );
  });

  it('refuses a settings file that is not JSON, and conflicting flags, writing nothing', () => {
    const project = tempDir();
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), '{ nope');
    const ran = install(project);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('is not JSON');
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{ nope');
    const both = warden(['hook', 'install', 'claude-code', '--user', '--project', project]);
    expect(both.code).toBe(1);
  });

  it('G2: --sandbox is checked and passed on to the installed hook', () => {
    const project = tempDir();
    const bogus = install(project, '--sandbox', 'maybe');
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('`--sandbox maybe` is not one of auto, required, off');
    expect(existsSync(join(project, '.claude', 'settings.json'))).toBe(false);
    const ran = install(project, '--policy', policyFile, '--sandbox', 'required');
    expect(ran.code, ran.stderr).toBe(0);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toContain(
      '--sandbox required',
    );
  });

  it('contracts §4: --gateway-config is checked and passed on: the installed hook maps directly reached MCP servers', async () => {
    const project = tempDir();
    let out = '';
    let err = '';
    const io: Io = {
      out: (text) => {
        out += text;
      },
      err: (text) => {
        err += text;
      },
      stdin: () => '',
      env: {},
      now: () => 0,
      color: false,
    };
    expect(
      await runHookInstall(io, { project, policy: policyFile, gatewayConfig, json: true }),
      err,
    ).toBe(0);
    const { command } = JSON.parse(out) as { command: string };
    expect(command).toContain(` --gateway-config ${gatewayConfig}`);
    const ran = spawnSync('sh', ['-c', command], {
      input: recorded('mcp-github-push-files.json', worktree),
      encoding: 'utf8',
      cwd: project,
      env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: '', WARDEN_LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(ran.stdout)).toEqual(
      deny(
        'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace',
      ),
    );
    // A file the hook could not use is refused at install, and nothing is written.
    const other = tempDir();
    err = '';
    let code: number | null = null;
    try {
      await runHookInstall(io, { project: other, gatewayConfig: join(other, 'none.yaml') });
    } catch (error) {
      code = error instanceof Exit ? error.code : -1;
    }
    expect(code).toBe(1);
    expect(err).toContain('error: --gateway-config: ');
    expect(err).toContain('nothing was written');
    expect(existsSync(join(other, '.claude', 'settings.json'))).toBe(false);
  });

  it('--user writes to ~/.claude/settings.json', () => {
    const home = tempDir();
    const ran = warden(
      ['hook', 'install', 'claude-code', '--user', '--server', 'http://127.0.0.1:8787'],
      {
        env: { HOME: home },
      },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const written = readFileSync(join(home, '.claude', 'settings.json'), 'utf8');
    expect(written).toContain('--server http://127.0.0.1:8787');
    expect(written).not.toContain('wdn_');
  });
});
