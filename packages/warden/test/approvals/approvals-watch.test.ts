// `warden approvals watch|list|answer` against a real `warden serve`: a human
// at a terminal is a connected approver (G22), sees what asked and why, and
// answers once, for N hours in a picked scope (G23), or deny; a soft deny is
// overridden only with a reason by an overrider (G26).

import { spawn } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { Served, Spawned } from '../support/processes.js';
import {
  agentToken,
  api,
  dataToken,
  killAll,
  presence as presenceOn,
  serve,
  spawnWarden,
} from '../support/processes.js';
import { askPushPolicy } from '../support/ask-push-policy.js';
import { eventually } from '../support/warden.js';

const POLICY = askPushPolicy(`  - id: soft-install
    scope: workspace
    action: packageInstall
    decision: deny
    enforcement: soft
`);

interface Setup {
  readonly data: string;
  readonly server: Served;
  readonly agent: string;
  readonly approver: string;
  readonly overrider: string;
  readonly viewer: string;
  readonly admin: string;
}

const cleanup: Spawned[] = [];
let setup: Setup;

let template: { readonly data: string } & Omit<Setup, 'data' | 'server'>;

// The policy and tokens are made once, with the real CLI; each test starts a server on a copy.
beforeAll(() => {
  const data = tempDir();
  const file = join(data, 'policy.yaml');
  writeFileSync(file, POLICY);
  expect(warden(['policy', 'apply', file, '--data', data]).code).toBe(0);
  template = {
    data,
    agent: agentToken(data, 'coder-1', 'acme', 'coder'),
    approver: dataToken(data, '--role', 'approver', '--name', 'bob'),
    overrider: dataToken(data, '--role', 'overrider', '--name', 'olga'),
    viewer: dataToken(data, '--role', 'viewer', '--name', 'vic'),
    admin: dataToken(data, '--role', 'admin', '--name', 'alice'),
  };
}, 60_000);

beforeEach(async () => {
  const data = tempDir();
  cpSync(template.data, data, { recursive: true });
  const server = await serve(['--data', data]);
  cleanup.push(server);
  setup = { ...template, data, server };
});

afterEach(() => killAll(cleanup));

function watch(tokenValue: string, ...args: string[]): Spawned {
  const watcher = spawnWarden([
    'approvals',
    'watch',
    '--server',
    setup.server.url,
    '--token',
    tokenValue,
    ...args,
  ]);
  cleanup.push(watcher);
  return watcher;
}

/** `warden approvals answer <id> <flags>` on the test's server with `tokenValue`. */
function answerAs(tokenValue: string, id: string, ...flags: string[]) {
  return warden([
    'approvals',
    'answer',
    id,
    ...flags,
    '--server',
    setup.server.url,
    '--token',
    tokenValue,
  ]);
}

function decide(body: Record<string, unknown>, query = '') {
  return api(setup.server.url, setup.agent, 'POST', `/v1/decide${query}`, body);
}

/** Waits until prompts wait for an approver, or are denied at once (the what-if check reads presence as decisions do). */
function presence(expected: boolean): Promise<void> {
  return presenceOn(setup.server.url, setup, expected);
}

describe('warden approvals watch', () => {
  it('G22: while it runs prompts wait for it; once it stops they are denied at once', async () => {
    const before = await decide({ command: 'git push origin feature/a' });
    expect(before.body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
    const watcher = watch(setup.approver);
    await watcher.waitFor('connected to');
    expect(watcher.stdout()).toContain('as bob (approver)');
    const pending = decide({
      tool: 'git_push',
      command: 'git push origin feature/a',
      args: { refs: ['feature/a'] },
    });
    const screen = await watcher.waitFor('[o] once');
    // Everything a human needs: agent, tool, action, the prompting rule and facet, the arguments.
    expect(screen).toContain('agent coder-1, workspace acme');
    expect(screen).toContain('tool     git_push');
    expect(screen).toContain('action   git push origin feature/a');
    expect(screen).toContain('gitPush  rule ask-push in workspace');
    expect(screen).toContain('refs     feature/a');
    expect(screen).toMatch(/answer within \d+ s, or it is denied/);
    watcher.write('o');
    const answer = await pending;
    expect(answer.body).toMatchObject({ decision: 'prompt', outcome: 'allow' });
    await watcher.waitFor('✓ approved once by bob');
    expect(await watcher.stop('SIGINT')).toBe(0);
    expect(watcher.stdout()).toContain('stopped watching');
    await presence(false);
  });

  it('G23: remember for 8 hours in the scope picked; the next push is allowed without asking', async () => {
    const watcher = watch(setup.approver);
    await watcher.waitFor('connected to');
    const pending = decide({
      command: 'git push origin feature/login',
      args: { refs: ['feature/login'] },
    });
    await watcher.waitFor('[r] remember 8 h');
    watcher.write('r');
    const picker = await watcher.waitFor('scope [1-');
    expect(picker).toContain('1) agent:coder-1');
    expect(picker).toContain('feature/**');
    watcher.write('1');
    expect((await pending).body).toMatchObject({ outcome: 'allow' });
    await watcher.waitFor('approved for 8 h in agent:coder-1 by bob');
    const next = await decide({
      command: 'git push origin feature/signup',
      args: { refs: ['feature/signup'] },
    });
    expect(next.body).toMatchObject({ decision: 'allow', outcome: 'allow' });
    const rules = await api(setup.server.url, setup.admin, 'GET', '/v1/rules?workspace=acme');
    const remembered = (rules.body.rules as { origin: string; expires?: string }[]).filter(
      (r) => r.origin === 'remembered',
    );
    expect(remembered).toHaveLength(1);
  });

  it('denies with a reason, and re-asks on input it does not understand', async () => {
    const watcher = watch(setup.approver);
    await watcher.waitFor('connected to');
    const pending = decide({ command: 'git push origin feature/b' });
    await watcher.waitFor('[o] once');
    watcher.write('maybe');
    await watcher.waitFor('  type o, r, d or s');
    watcher.write('d');
    await watcher.waitFor('reason (optional)');
    watcher.write('not today');
    expect((await pending).body).toMatchObject({ outcome: 'deny' });
    await watcher.waitFor('✗ denied by bob (not today)');
  });

  it('G26: an overrider overrides a soft deny only with a reason; an approver is not offered it', async () => {
    const approverWatch = watch(setup.approver);
    await approverWatch.waitFor('connected to');
    const overrider = watch(setup.overrider);
    await overrider.waitFor('connected to');
    const denied = await decide({ command: 'npm install left-pad' });
    expect(denied.body).toMatchObject({ decision: 'deny', enforcement: 'soft', overridable: true });
    const screen = await overrider.waitFor('[v] override');
    expect(screen).toContain('soft deny');
    overrider.write('v');
    await overrider.waitFor('reason (required)');
    overrider.write('');
    await overrider.waitFor('an override needs a reason');
    overrider.write('release hotfix needs it');
    await overrider.waitFor('overridden by olga (release hotfix needs it)');
    expect(approverWatch.stdout()).not.toContain('[v] override');
    const retried = await decide({ command: 'npm install left-pad' });
    expect(retried.body).toMatchObject({ outcome: 'allow' });
  });

  it('says when a prompt was answered elsewhere and moves on', async () => {
    const watcher = watch(setup.approver);
    await watcher.waitFor('connected to');
    const pending = decide({ command: 'git push origin feature/c' }, '?wait=0');
    const id = (await pending).body.approvalId as string;
    await watcher.waitFor(id);
    const answered = answerAs(setup.admin, id, '--once');
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toContain('approved once by alice');
    await watcher.waitFor('approved once by alice');
    const held = await api(setup.server.url, setup.agent, 'GET', `/v1/decide/${id}`);
    expect(held.body).toMatchObject({ outcome: 'allow' });
  });

  it('on a terminal one key answers, without Enter; the card shows the deadline the caller said', async () => {
    // `script` gives the watcher a terminal, and passes what the test types to it.
    const command = [process.execPath, BIN, 'approvals', 'watch', '--server', setup.server.url]
      .map((w) => `'${w}'`)
      .join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, WARDEN_TOKEN: setup.approver, NO_COLOR: '1', TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    try {
      await eventually(async () => screen.includes('connected to'), 15_000);
      await presence(true);
      const pending = api(
        setup.server.url,
        setup.agent,
        'POST',
        '/v1/decide',
        { tool: 'git_push', command: 'git push origin feature/k', args: { refs: ['feature/k'] } },
        { 'x-warden-wait': '30' },
      );
      // Its card (after the one the presence probe raised and denied itself).
      const card = () => screen.slice(screen.indexOf('feature/k'));
      await eventually(
        async () => screen.includes('feature/k') && card().includes('[o] once'),
        15_000,
      );
      expect(card()).toMatch(/answer within (29|28) s, or it is denied/);
      child.stdin.write('o');
      expect((await pending).body).toMatchObject({ decision: 'prompt', outcome: 'allow' });
      await eventually(async () => screen.includes('approved once by bob'), 15_000);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('ends when its input ends, and then prompts are denied at once (G22)', async () => {
    const watcher = watch(setup.approver);
    await watcher.waitFor('connected to');
    await presence(true);
    const pending = decide({ command: 'git push origin feature/d' });
    await watcher.waitFor('[o] once');
    watcher.child.stdin.end();
    expect(await watcher.exited).toBe(0);
    expect((await pending).body).toMatchObject({ outcome: 'deny' });
    await presence(false);
  });

  it('refuses a token that cannot answer, and a server that is not there', async () => {
    const viewer = watch(setup.viewer);
    expect(await viewer.exited).toBe(1);
    expect(viewer.stderr()).toContain('a `viewer` token cannot answer approvals');
    const agent = watch(setup.agent);
    expect(await agent.exited).toBe(1);
    const unknown = watch('wdn_nope');
    expect(await unknown.exited).toBe(1);
    expect(unknown.stderr()).toContain('the token is not known or was revoked (HTTP 401)');
    const nothing = spawnWarden(['approvals', 'watch', '--token', setup.approver], {
      WARDEN_URL: undefined,
    });
    expect(await nothing.exited).toBe(1);
    expect(nothing.stderr()).toContain('--server');
  });

  it('is told when its token is revoked, and stops being an approver', async () => {
    const watcher = watch(setup.approver);
    await watcher.waitFor('connected to');
    expect(warden(['token', 'revoke', 'bob', '--data', setup.data]).code).toBe(0);
    expect(await watcher.exited).toBe(1);
    expect(watcher.stderr()).toContain('the token was revoked');
    await presence(false);
  });

  it('prints the stream as JSON lines with --json, answering nothing itself', async () => {
    const watcher = watch(setup.approver, '--json');
    await watcher.waitFor('"event":"ready"');
    const id = (await decide({ command: 'git push origin feature/e' }, '?wait=0')).body
      .approvalId as string;
    await watcher.waitFor(`"id":"${id}"`);
    const line = watcher
      .stdout()
      .split('\n')
      .find((l) => l.includes('"event":"approval"'));
    expect(JSON.parse(line as string)).toMatchObject({
      event: 'approval',
      data: { id, agent: 'coder-1', state: 'pending' },
    });
    const listed = warden([
      'approvals',
      'list',
      '--server',
      setup.server.url,
      '--token',
      setup.viewer,
      '--json',
    ]);
    expect(JSON.parse(listed.stdout)).toMatchObject({ approvals: [{ id, state: 'pending' }] });
    const denied = answerAs(setup.approver, id, '--deny', '--reason', 'no');
    expect(denied.code, denied.stderr).toBe(0);
    await watcher.waitFor('"event":"settled"');
  });
});

describe('prompts nobody can answer any more', () => {
  it('G22: a `?wait=0` prompt ends when its last approver goes away, though no caller waits on it; a later answer is refused', async () => {
    const watcher = watch(setup.approver, '--json');
    await watcher.waitFor('"event":"ready"');
    const id = (await decide({ command: 'git push origin feature/g' }, '?wait=0')).body
      .approvalId as string;
    expect(typeof id).toBe('string');
    await watcher.stop('SIGTERM');
    // Nobody waits on it: the server itself ends it once no approver is connected.
    const ended = await eventually(async () => {
      const read = await api(setup.server.url, setup.viewer, 'GET', `/v1/approvals/${id}`);
      return read.body.state === 'pending' ? null : read.body;
    }, 20_000);
    expect(ended).toMatchObject({
      state: 'expired',
      closedReason: 'no approver is connected any more',
    });
    const late = answerAs(setup.approver, id, '--once');
    expect(late.code).not.toBe(0);
    const final = await api(setup.server.url, setup.agent, 'GET', `/v1/decide/${id}`);
    expect(final.body).toMatchObject({ outcome: 'deny' });
  }, 40_000);
});

describe('warden approvals answer', () => {
  it('needs exactly one way to answer, and a role that may give it', async () => {
    const id = (await decide({ command: 'git push origin feature/f' }, '?wait=0')).body.approvalId;
    // No approver is connected: `?wait=0` denied it at once, so there is nothing to answer.
    expect(id).toBeUndefined();
    const watcher = watch(setup.approver, '--json');
    await watcher.waitFor('"event":"ready"');
    const open = (await decide({ command: 'git push origin feature/f' }, '?wait=0')).body
      .approvalId as string;
    const none = answerAs(setup.approver, open);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('say how to answer');
    const two = answerAs(setup.approver, open, '--once', '--deny');
    expect(two.stderr).toContain('answer one way, not `--once` and `--deny`');
    const overrider = answerAs(setup.overrider, open, '--once');
    expect(overrider.code).toBe(1);
    expect(overrider.stderr).toContain('HTTP 403');
    const remember = answerAs(setup.approver, open, '--remember', '--hours', '2', '--json');
    expect(remember.code).toBe(1);
    expect(remember.stdout).toContain('pick a scope with `--scope`');
    const ok = answerAs(
      setup.approver,
      open,
      '--remember',
      '--hours',
      '2',
      '--scope',
      'workspace',
      '--json',
    );
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      state: 'approved',
      answer: { kind: 'remember', hours: 2, scope: 'workspace', by: 'bob' },
    });
    const late = answerAs(setup.approver, open, '--deny');
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('HTTP 409');
  });
});
