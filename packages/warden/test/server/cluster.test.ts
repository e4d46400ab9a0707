// Two `warden serve` processes on one Postgres (issue: multi-node): an agent's
// adapter talks to one, a human approves from `warden approvals watch` on the
// other, and they agree — approvals, presence (G22), remembered rules (G23),
// policy changes (G24) and revoked tokens reach both within a second
// (LISTEN/NOTIFY). Runs whenever Postgres answers; required under CI.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  tempDir,
  uniqueSchema,
} from '../support/backends.js';
import type { Served, Spawned } from '../support/processes.js';
import {
  agentTokenArgs,
  api,
  cliToken,
  killAll,
  serve,
  spawnWarden,
} from '../support/processes.js';
import { askPushPolicy } from '../support/ask-push-policy.js';

const POLICY = askPushPolicy();

const DENY_PUSH = `version: 1
workspace: acme
rules:
  - id: no-push
    scope: workspace
    action: gitPush
    decision: deny
`;

const schema = uniqueSchema();
const env = { DATABASE_URL: PG_URL, WARDEN_DB_SCHEMA: schema };
const spawned: Spawned[] = [];
let a: Served;
let b: Served;
const tokens = { agent: '', approver: '', admin: '', viewer: '' };

function cli(args: string[]): string {
  const ran = warden(args, { env });
  expect(ran.code, ran.stderr + ran.stdout).toBe(0);
  return ran.stdout;
}

function token(...args: string[]): string {
  return cliToken(args, env).token;
}

function decide(on: Served, body: Record<string, unknown>, query = '') {
  return api(on.url, tokens.agent, 'POST', `/v1/decide${query}`, body);
}

/** Polls until `check` holds, and says how long that took; fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What a push decided on `on` comes to now, answering any prompt it raises with a deny. */
async function pushOutcome(on: Served, ref: string): Promise<string> {
  const answer = await decide(on, { command: `git push origin ${ref}` }, '?wait=0');
  if (answer.body.outcome === 'ask')
    await api(
      on.url,
      tokens.admin,
      'POST',
      `/v1/approvals/${String(answer.body.approvalId)}/answer`,
      {
        kind: 'deny',
        reason: 'probe',
      },
    );
  return String(answer.body.outcome);
}

function watchOn(server: Served): Spawned {
  const watcher = spawnWarden(
    ['approvals', 'watch', '--server', server.url, '--token', tokens.approver],
    env,
  );
  spawned.push(watcher);
  return watcher;
}

describe.skipIf(!UNDER_CI && POSTGRES_SKIP !== null)('two servers on one Postgres', () => {
  beforeAll(async () => {
    requirePostgresUnderCi();
    const data = tempDir();
    const file = join(data, 'policy.yaml');
    writeFileSync(file, POLICY);
    cli(['policy', 'apply', file]);
    tokens.agent = token(...agentTokenArgs('coder-1', 'acme', 'coder'));
    tokens.approver = token('--role', 'approver', '--name', 'bob');
    tokens.admin = token('--role', 'admin', '--name', 'alice');
    tokens.viewer = token('--role', 'viewer', '--name', 'vic');
    [a, b] = await Promise.all([
      serve(['--data', tempDir()], env),
      serve(['--data', tempDir()], env),
    ]);
  }, 60_000);

  afterEach(() => killAll(spawned));

  afterAll(async () => {
    await Promise.all([a, b].filter((s) => s !== undefined).map((s) => s.stop('SIGTERM')));
    if (POSTGRES_SKIP === null) await dropSchema(schema);
  });

  it('both say they keep their state in Postgres', () => {
    for (const server of [a, b])
      expect(server.banner).toMatchObject({
        storage: { backend: 'postgres' },
        workspaces: [{ workspace: 'acme' }],
      });
  });

  it('G22: an approver watching B is connected for A; once it stops, A denies prompts at once', async () => {
    expect(await pushOutcome(a, 'feature/p0')).toBe('deny');
    const watcher = watchOn(b);
    await watcher.waitFor('connected to');
    await within(1000, async () => (await pushOutcome(a, 'feature/p1')) === 'ask');
    expect(await watcher.stop('SIGINT')).toBe(0);
    await within(1000, async () => (await pushOutcome(a, 'feature/p2')) === 'deny');
  });

  it('an agent waits on A while a human approves on B, once', async () => {
    const watcher = watchOn(b);
    await watcher.waitFor('connected to');
    const pending = decide(a, { tool: 'git_push', command: 'git push origin feature/x' });
    const screen = await watcher.waitFor('[o] once');
    expect(screen).toContain('agent coder-1, workspace acme');
    const shown = Date.now();
    watcher.write('o');
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ decision: 'prompt', outcome: 'allow' });
    expect(Date.now() - shown).toBeLessThan(1000);
    await watcher.waitFor('✓ approved once by bob');
    // Both servers read the same approval and the same audit record.
    const id = answer.body.approvalId as string;
    for (const server of [a, b]) {
      const read = await api(server.url, tokens.viewer, 'GET', `/v1/approvals/${id}`);
      expect(read.body).toMatchObject({ state: 'approved' });
      const audit = await api(
        server.url,
        tokens.viewer,
        'GET',
        `/v1/audit?workspace=acme&kind=decision&limit=200`,
      );
      const ids = (audit.body.entries as { id: string }[]).map((e) => e.id);
      expect(ids).toContain(answer.body.auditId);
    }
  });

  it('the kill switch: an agent frozen through B is denied on A within a second, and its prompt waiting on A is denied', async () => {
    const watcher = watchOn(b);
    await watcher.waitFor('connected to');
    const asked = await decide(a, { command: 'git push origin feature/frozen' }, '?wait=0');
    expect(asked.body).toMatchObject({ outcome: 'ask' });
    const waiting = api(a.url, tokens.agent, 'GET', `/v1/decide/${String(asked.body.approvalId)}`);
    const frozen = await api(b.url, tokens.admin, 'PUT', '/v1/agents/coder-1/freeze', {
      reason: 'cluster drill',
    });
    expect(frozen.status).toBe(200);
    expect(frozen.body.denied).toEqual([asked.body.approvalId]);
    expect((await waiting).body).toMatchObject({ outcome: 'deny' });
    const took = await within(1000, async () => {
      const answer = await decide(a, { tool: 'git_commit', actions: ['gitCommit'] });
      return answer.body.rule === 'freeze:agent';
    });
    expect(took).toBeLessThan(1000);
    await watcher.stop('SIGINT');
    expect((await api(a.url, tokens.admin, 'DELETE', '/v1/agents/coder-1/freeze')).status).toBe(
      200,
    );
    await within(1000, async () => {
      const answer = await decide(a, { tool: 'git_commit', actions: ['gitCommit'] });
      return answer.body.outcome === 'allow';
    });
  });

  it('G23: a rule remembered on B lets the next push through on A without asking', async () => {
    const watcher = watchOn(b);
    await watcher.waitFor('connected to');
    const pending = decide(a, {
      command: 'git push origin feature/login',
      args: { refs: ['feature/login'] },
    });
    await watcher.waitFor('[r] remember 8 h');
    watcher.write('r');
    await watcher.waitFor('scope [1-');
    watcher.write('1');
    expect((await pending).body).toMatchObject({ outcome: 'allow' });
    await watcher.stop('SIGINT');
    const next = await decide(a, {
      command: 'git push origin feature/signup',
      args: { refs: ['feature/signup'] },
    });
    expect(next.body).toMatchObject({ decision: 'allow', outcome: 'allow' });
  });

  it('G24: a policy applied through B decides on A within a second', async () => {
    const dir = tempDir();
    const file = join(dir, 'deny.yaml');
    writeFileSync(file, DENY_PUSH);
    const applied = warden(
      ['policy', 'apply', file, '--server', b.url, '--token', tokens.admin, '--json'],
      { env },
    );
    expect(applied.code, applied.stderr).toBe(0);
    const took = await within(1000, async () => {
      const answer = await decide(a, { command: 'git push origin hotfix/y' }, '?wait=0');
      return answer.body.decision === 'deny' && JSON.stringify(answer.body).includes('no-push');
    });
    expect(took).toBeLessThan(1000);
    const policy = await api(a.url, tokens.viewer, 'GET', '/v1/policy?workspace=acme');
    expect(JSON.stringify(policy.body)).toContain('no-push');
    // Back to asking, for the tests after this one.
    writeFileSync(file, POLICY);
    cli(['policy', 'apply', file]);
    await within(1000, async () => {
      const answer = await decide(a, { command: 'git push origin hotfix/z' }, '?wait=0');
      return answer.body.decision === 'prompt';
    });
  });

  it('a token revoked on B is refused by A within a second', async () => {
    const made = cliToken(['--role', 'viewer', '--name', 'temp'], env);
    expect((await api(a.url, made.token, 'GET', '/v1/me')).status).toBe(200);
    const revoked = await api(b.url, tokens.admin, 'DELETE', `/v1/tokens/${made.id}`);
    expect(revoked.status).toBe(200);
    const took = await within(
      1500,
      async () => (await api(a.url, made.token, 'GET', '/v1/me')).status === 401,
    );
    expect(took).toBeLessThanOrEqual(1100);
  });
});
