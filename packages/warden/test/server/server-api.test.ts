// The HTTP API (contracts §8): every route driven in process through Hono's
// `app.request` over a real Warden on SQLite. Decide answers the decision
// (§3) with its `auditId`, holds a prompt while an approver holds the live
// channel and denies it at once without one (G22); the identity on every
// entry is the token's (I1); errors are `{ errors: [...] }` with a 4xx that
// lists every problem and never a stack.

import type { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../src/server/api.js';
import { createAgent } from '../../src/instance/index.js';
import { CONSOLE_PATHS } from '../../src/server/web.js';
import { createToken } from '../../src/tokens.js';
import { makeToken, openTestServer } from '../support/server.js';
import { auditLog, eventually } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

type J = Record<string, unknown>;

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: { autonomy: 'actWithApproval' } },
  modes: { review: { commandNet: ['git push --force'] } },
  rules: [
    { id: 'ask-push', action: 'gitPush', decision: 'prompt' },
    { id: 'no-publish', command: 'npm publish', decision: 'deny', enforcement: 'soft' },
    { id: 'no-force', command: 'git push --force', decision: 'deny' },
    { id: 'watch-egress', action: 'networkEgress', decision: 'deny', enforcement: 'advisory' },
  ],
};

const PUSH = { tool: 'git_push', actions: ['gitPush'], args: { refs: ['feature/login'] } };
const COMMIT = { tool: 'git_commit', actions: ['gitCommit'] };
const PUBLISH = { tool: 'shell', command: 'npm publish' };

interface Answer {
  readonly status: number;
  readonly body: J;
  readonly text: string;
  readonly headers: Headers;
}

interface Stream {
  readonly status: number;
  readonly events: { event: string; data: J }[];
  next(event: string, match?: (data: J) => boolean): Promise<J>;
  close(): Promise<void>;
}

interface Harness {
  readonly t: TestWarden;
  readonly app: Hono<Env>;
  readonly tokens: Record<'admin' | 'approver' | 'overrider' | 'viewer' | 'agent', string>;
  /** Moves the server's clock (the token cache reads it) forward. */
  advance(ms: number): void;
  call(
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    init?: RequestInit,
  ): Promise<Answer>;
  stream(token: string): Promise<Stream>;
  close(): Promise<void>;
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: J = {};
  try {
    body = JSON.parse(text) as J;
  } catch {
    // not JSON: `text` holds it
  }
  return { status: res.status, body, text, headers: res.headers };
}

async function harness(policy: object | null = POLICY): Promise<Harness> {
  let skew = 0;
  const { t, app, tokens } = await openTestServer(policy, {
    warden: { approvals: { timeoutMs: 10_000, pollMs: 20, beatMs: 200, presenceTtlMs: 1000 } },
    clock: () => Date.now() + skew,
  });
  const streams = new Set<Stream>();
  const call: Harness['call'] = async (method, path, token, body, init = {}) => {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(path, {
      method,
      headers,
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      ...init,
    });
    return answerOf(res);
  };
  const stream = async (token: string): Promise<Stream> => {
    const res = await app.request('/v1/approvals/stream', {
      headers: { authorization: `Bearer ${token}` },
    });
    const events: { event: string; data: J }[] = [];
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const pump = (async () => {
      if (reader === undefined || res.status !== 200) return;
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of chunk.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) as J });
        }
      }
    })();
    const opened: Stream = {
      status: res.status,
      events,
      next: (event, match = () => true) =>
        eventually(() =>
          Promise.resolve(events.find((e) => e.event === event && match(e.data))?.data),
        ),
      close: async () => {
        streams.delete(opened);
        await reader?.cancel().catch(() => undefined);
        await pump;
      },
    };
    if (res.status === 200) streams.add(opened);
    else await res.body?.cancel();
    return opened;
  };
  return {
    t,
    app,
    tokens,
    advance: (ms) => {
      skew += ms;
    },
    call,
    stream,
    close: async () => {
      for (const open of [...streams]) await open.close();
      await t.cleanup();
    },
  };
}

/** The agent's token for workspace acme: decide a request, as the adapter would. */
function decide(h: Harness, request: object | string, query = '', token = h.tokens.agent) {
  return h.call('POST', `/v1/decide${query}`, token, request);
}

describe('HTTP API: decide, approvals and the live channel (contracts §8, G22, I1)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('contracts §8: POST /v1/decide answers the decision (§3) with auditId, durable and stamped from the token (I1)', async () => {
    const r = await decide(h, { ...COMMIT, callId: 'c-1', arguments: { message: 'fix' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      decision: 'allow',
      outcome: 'allow',
      rule: 'default:gitCommit',
      scope: 'default',
      overridable: false,
      prompts: [],
      managed: null,
      managedSource: null,
      advisories: [],
      callId: 'c-1',
    });
    expect(typeof r.body.reason).toBe('string');
    expect(Array.isArray(r.body.facets)).toBe(true);
    const auditId = r.body.auditId as string;
    expect(typeof auditId).toBe('string');
    // A 2xx answer means the entry is durable: it is in the log now.
    const entry = (await auditLog(h.t.warden.store)).find((e) => e.id === auditId);
    expect(entry).toMatchObject({
      kind: 'decision',
      workspace: 'acme',
      agentId: 'coder-1',
      source: 'http',
      callId: 'c-1',
      outcome: 'allow',
    });
  });

  it('contracts §8: a body may repeat the bound workspace and agent; a space its token and registration do not name is 403', async () => {
    const r = await decide(h, { workspace: 'acme', agent: 'coder-1', ...COMMIT });
    expect(r.status).toBe(200);
    const entry = (await auditLog(h.t.warden.store)).find((e) => e.id === r.body.auditId);
    expect(entry).toMatchObject({ workspace: 'acme', agentId: 'coder-1' });
    const picked = await decide(h, { space: 'payments', ...COMMIT });
    expect(picked.status).toBe(403);
  });

  it('E31: a request the policy cannot read is denied (fail-closed), not an error', async () => {
    const r = await decide(h, { tool: 'x', actions: ['gitPushh'] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ decision: 'deny', outcome: 'deny', rule: 'failClosed' });
    expect(String(r.body.reason)).toContain('gitPushh');
  });

  it('G22: with no approver channel open, a prompt is denied at once', async () => {
    const started = Date.now();
    const r = await decide(h, PUSH);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ decision: 'prompt', outcome: 'deny', rule: 'ask-push' });
    expect(r.body.approvalId).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('G22: the SSE stream makes its holder a connected approver; closing it ends that', async () => {
    const s = await h.stream(h.tokens.approver);
    expect(s.status).toBe(200);
    expect(await s.next('ready')).toMatchObject({ name: 'alice', roles: ['approver'] });
    expect(await h.t.warden.approvals.connected('acme')).toBe(true);
    await s.close();
    await eventually(async () => !(await h.t.warden.approvals.connected('acme')));
    expect((await decide(h, PUSH)).body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
  });

  it('G22: an approver who goes away while the channel opens is not left connected', async () => {
    const res = await h.app.request('/v1/approvals/stream', {
      headers: { authorization: `Bearer ${h.tokens.approver}` },
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    await eventually(async () => !(await h.t.warden.approvals.connected('acme')));
    expect((await decide(h, PUSH)).body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
  });

  it('contracts §8: ?wait=0 answers ask with an approvalId; GET /v1/decide/:approvalId waits for the answer', async () => {
    const s = await h.stream(h.tokens.approver);
    await s.next('ready');
    const asked = await decide(h, PUSH, '?wait=0');
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ decision: 'prompt', outcome: 'ask', rule: 'ask-push' });
    const approvalId = asked.body.approvalId as string;
    expect(typeof approvalId).toBe('string');
    // The pending approval reaches the channel with what a human needs to answer it.
    const shown = await s.next('approval', (a) => a.id === approvalId);
    expect(shown).toMatchObject({
      kind: 'prompt',
      state: 'pending',
      agent: 'coder-1',
      tool: 'git_push',
    });
    const waiting = h.call('GET', `/v1/decide/${approvalId}`, h.tokens.agent);
    const answered = await h.call('POST', `/v1/approvals/${approvalId}/answer`, h.tokens.approver, {
      kind: 'once',
      reason: 'looks fine',
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: approvalId, state: 'approved' });
    const final = await waiting;
    expect(final.status).toBe(200);
    expect(final.body).toMatchObject({
      outcome: 'allow',
      approvalId,
      approval: { state: 'approved', answer: { kind: 'once', by: 'alice', reason: 'looks fine' } },
    });
    await s.next('settled', (a) => a.id === approvalId);
  });

  it('G22: a caller that says how long it waits (X-Warden-Wait) gets a prompt that ends a second before, and the approver sees that deadline', async () => {
    const s = await h.stream(h.tokens.approver);
    await s.next('ready');
    const res = await h.app.request('/v1/decide?wait=0', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.tokens.agent}`,
        'content-type': 'application/json',
        'x-warden-wait': '5',
      },
      body: JSON.stringify(PUSH),
    });
    expect(res.status).toBe(200);
    const asked = (await res.json()) as { approvalId: string };
    const shown = await s.next('approval', (a) => a.id === asked.approvalId);
    expect(Date.parse(shown.expiresAt as string) - Date.parse(shown.createdAt as string)).toBe(
      4000,
    );
    // Without the header the approval timeout applies (10 s here), as it does when the caller waits longer.
    const plain = await decide(h, PUSH, '?wait=0');
    const other = await s.next('approval', (a) => a.id === plain.body.approvalId);
    expect(Date.parse(other.expiresAt as string) - Date.parse(other.createdAt as string)).toBe(
      10_000,
    );
    for (const bad of ['soon', '-3', '0', '1e9']) {
      const refused = await h.app.request('/v1/decide', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.tokens.agent}`,
          'content-type': 'application/json',
          'x-warden-wait': bad,
        },
        body: JSON.stringify(COMMIT),
      });
      expect(refused.status, bad).toBe(400);
      expect(await refused.text()).toContain('is not a number of seconds between 0 and 86400');
    }
  });

  it('G22: a long-poll decide is held until an approver answers through POST /v1/approvals/:id/answer', async () => {
    const s = await h.stream(h.tokens.approver);
    await s.next('ready');
    const held = decide(h, { ...PUSH, callId: 'c-held' });
    const pending = await s.next('approval', (a) => a.callId === 'c-held');
    let done = false;
    void held.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    const answered = await h.call(
      'POST',
      `/v1/approvals/${String(pending.id)}/answer`,
      h.tokens.approver,
      { kind: 'deny', reason: 'not today' },
    );
    expect(answered.status).toBe(200);
    const final = await held;
    expect(final.status).toBe(200);
    expect(final.body).toMatchObject({ decision: 'prompt', outcome: 'deny', callId: 'c-held' });
    expect(String(final.body.reason)).toContain('denied by alice: not today');
    // Answering twice is a conflict, not a second answer.
    const again = await h.call(
      'POST',
      `/v1/approvals/${String(pending.id)}/answer`,
      h.tokens.approver,
      { kind: 'once' },
    );
    expect(again.status).toBe(409);
  });

  it('G22: a long-poll decide whose caller goes away ends the approval as a no', async () => {
    const s = await h.stream(h.tokens.approver);
    await s.next('ready');
    const controller = new AbortController();
    const gone = h.call(
      'POST',
      '/v1/decide',
      h.tokens.agent,
      { ...PUSH, callId: 'c-abort' },
      {
        signal: controller.signal,
      },
    );
    const pending = await s.next('approval', (a) => a.callId === 'c-abort');
    controller.abort();
    await gone.catch(() => undefined);
    const settled = await eventually(async () => {
      const a = await h.t.warden.store.approvals.get(String(pending.id));
      return a?.state === 'pending' ? null : a;
    });
    expect(settled.state).toBe('cancelled');
    const late = await h.call(
      'POST',
      `/v1/approvals/${String(pending.id)}/answer`,
      h.tokens.approver,
      {
        kind: 'once',
      },
    );
    expect(late.status).toBe(409);
  });

  it('G23: "approve for N hours" writes a remembered rule that GET /v1/rules lists and DELETE /v1/rules/:id revokes', async () => {
    const s = await h.stream(h.tokens.approver);
    await s.next('ready');
    const asked = await decide(h, PUSH, '?wait=0');
    const approvalId = asked.body.approvalId as string;
    const shown = await h.call('GET', `/v1/approvals/${approvalId}`, h.tokens.viewer);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: approvalId, rememberable: true });
    const scopes = (shown.body.scopes as { scope: string }[]).map((x) => x.scope);
    expect(scopes).toContain('agent:coder-1');
    const answered = await h.call('POST', `/v1/approvals/${approvalId}/answer`, h.tokens.approver, {
      kind: 'remember',
      hours: 8,
      scope: 'agent:coder-1',
    });
    expect(answered.status).toBe(200);
    const rules = await h.call('GET', '/v1/rules', h.tokens.viewer);
    expect(rules.status).toBe(200);
    const remembered = (rules.body.rules as J[]).find((r) => r.origin === 'remembered');
    expect(remembered).toMatchObject({
      scope: 'agent:coder-1',
      action: 'gitPush',
      decision: 'allow',
      layer: 'workspace',
      revocable: true,
      readOnly: false,
    });
    expect(typeof remembered?.expiresAt).toBe('string');
    expect(typeof remembered?.sentence).toBe('string');
    // The next push to a sibling branch is allowed by it, without asking.
    const sibling = await decide(h, { ...PUSH, args: { refs: ['feature/signup'] } });
    expect(sibling.body).toMatchObject({ outcome: 'allow', scope: 'agent:coder-1' });
    // A rule of the document is not revoked here: it is a conflict.
    expect((await h.call('DELETE', '/v1/rules/ask-push', h.tokens.admin)).status).toBe(409);
    expect((await h.call('DELETE', '/v1/rules/nope', h.tokens.admin)).status).toBe(404);
    const revoked = await h.call('DELETE', `/v1/rules/${String(remembered?.id)}`, h.tokens.admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: remembered?.id, revokedBy: 'ada' });
    const after = await h.call('GET', '/v1/rules', h.tokens.viewer);
    expect((after.body.rules as J[]).some((r) => r.origin === 'remembered')).toBe(false);
    const unlisted = await decide(h, { ...PUSH, args: { refs: ['feature/x'] } }, '?wait=0');
    expect(unlisted.body).toMatchObject({ outcome: 'ask' });
  });

  it('G26: a soft deny answers an approvalId; an override with a reason lets the same call through once', async () => {
    const denied = await decide(h, PUBLISH);
    expect(denied.body).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      enforcement: 'soft',
      overridable: true,
    });
    const approvalId = denied.body.approvalId as string;
    // A reason is required: every problem is listed.
    const bare = await h.call(
      'POST',
      `/v1/approvals/${approvalId}/override`,
      h.tokens.overrider,
      {},
    );
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual([{ path: 'reason', message: expect.any(String) }]);
    const blank = await h.call('POST', `/v1/approvals/${approvalId}/override`, h.tokens.overrider, {
      reason: '   ',
    });
    expect(blank.status).toBe(422);
    const ok = await h.call('POST', `/v1/approvals/${approvalId}/override`, h.tokens.overrider, {
      reason: 'hotfix 2.1.1',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      id: approvalId,
      kind: 'override',
      state: 'approved',
      answer: { kind: 'override', by: 'olga', reason: 'hotfix 2.1.1' },
    });
    const retried = await decide(h, PUBLISH);
    expect(retried.body).toMatchObject({
      outcome: 'allow',
      override: { by: 'olga', reason: 'hotfix 2.1.1' },
    });
    expect((await decide(h, PUBLISH)).body.outcome).toBe('deny');
    const log = await auditLog(h.t.warden.store);
    expect(log.find((e) => e.kind === 'approval' && e.answer === 'override')).toMatchObject({
      by: 'olga',
      reason: 'hotfix 2.1.1',
    });
  });

  it('G26: GET /v1/decide/:approvalId does not wait on an override, so one override lets one call through', async () => {
    const denied = await decide(h, PUBLISH);
    const approvalId = denied.body.approvalId as string;
    const waited = await h.call('GET', `/v1/decide/${approvalId}`, h.tokens.agent);
    expect(waited.status).toBe(404);
    // Asking did not end the override request either.
    const approval = await h.call('GET', `/v1/approvals/${approvalId}`, h.tokens.viewer);
    expect(approval.body.state).toBe('pending');
    await h.call('POST', `/v1/approvals/${approvalId}/override`, h.tokens.overrider, {
      reason: 'hotfix',
    });
    expect((await h.call('GET', `/v1/decide/${approvalId}`, h.tokens.agent)).status).toBe(404);
    expect((await decide(h, PUBLISH)).body.outcome).toBe('allow');
    expect((await decide(h, PUBLISH)).body.outcome).toBe('deny');
    expect((await h.call('GET', '/v1/decide/nope', h.tokens.agent)).status).toBe(404);
  });

  it('G27: a hard deny opens no override', async () => {
    const r = await decide(h, { tool: 'shell', command: 'git push --force origin main' });
    expect(r.body).toMatchObject({ decision: 'deny', enforcement: 'hard', overridable: false });
    expect(r.body.approvalId).toBeUndefined();
  });

  it('GET /v1/approvals lists approvals newest first, filtered by state', async () => {
    const first = await decide(h, PUBLISH);
    const second = await decide(h, { ...PUBLISH, arguments: { otp: 'x' } });
    const all = await h.call('GET', '/v1/approvals', h.tokens.viewer);
    expect(all.status).toBe(200);
    expect((all.body.approvals as J[]).map((a) => a.id)).toEqual([
      second.body.approvalId,
      first.body.approvalId,
    ]);
    await h.call(
      'POST',
      `/v1/approvals/${String(first.body.approvalId)}/answer`,
      h.tokens.overrider,
      {
        kind: 'deny',
      },
    );
    const pending = await h.call('GET', '/v1/approvals?state=pending&limit=10', h.tokens.viewer);
    expect((pending.body.approvals as J[]).map((a) => a.id)).toEqual([second.body.approvalId]);
    expect((await h.call('GET', '/v1/approvals/nope', h.tokens.viewer)).status).toBe(404);
    const bad = await h.call('GET', '/v1/approvals?state=maybe&limit=0', h.tokens.viewer);
    expect(bad.status).toBe(400);
    expect((bad.body.errors as J[]).map((e) => e.path).sort()).toEqual([
      'query.limit',
      'query.state',
    ]);
  });

  it('contracts §8, I1: POST /v1/audit records how an allowed call ended, linked to its decision, stamped from the token', async () => {
    const allowed = await decide(h, { ...COMMIT, callId: 'c-9', arguments: { message: 'x' } });
    const r = await h.call('POST', '/v1/audit', h.tokens.agent, {
      auditId: allowed.body.auditId,
      status: 'Ok',
      durationMs: 812,
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      kind: 'call',
      agentId: 'coder-1',
      workspace: 'acme',
      source: 'http',
      callId: 'c-9',
      decisionId: allowed.body.auditId,
      tool: 'git_commit',
      status: 'Ok',
      durationMs: 812,
    });
    // Durable when acknowledged.
    const log = await auditLog(h.t.warden.store);
    expect(log.some((e) => e.id === r.body.id)).toBe(true);
    // A call no decision covered needs its tool; the agent id is never the body's.
    const loose = await h.call('POST', '/v1/audit', h.tokens.agent, {
      tool: 'web_fetch',
      status: 'Error',
      error: 'timeout',
    });
    expect(loose.status).toBe(201);
    expect(loose.body).toMatchObject({ agentId: 'coder-1', tool: 'web_fetch', status: 'Error' });
    const neither = await h.call('POST', '/v1/audit', h.tokens.agent, { status: 'Ok' });
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual([{ path: 'tool', message: expect.any(String) }]);
    const forged = await h.call('POST', '/v1/audit', h.tokens.agent, {
      tool: 'x',
      status: 'Ok',
      agentId: 'someone-else',
    });
    expect(forged.status).toBe(400);
    const staged = await h.call('POST', '/v1/audit', h.tokens.agent, {
      tool: 'x',
      status: 'Staged',
    });
    expect(staged.status).toBe(400);
  });

  it('contracts §8: one decision is reported once; a second report, also sent at the same time, is a 409', async () => {
    const allowed = await decide(h, { ...COMMIT, callId: 'c-10' });
    const report = () =>
      h.call('POST', '/v1/audit', h.tokens.agent, { auditId: allowed.body.auditId, status: 'Ok' });
    const [a, b] = await Promise.all([report(), report()]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const refused = a.status === 409 ? a : b;
    expect((refused.body.errors as J[])[0]?.message).toContain('was reported already');
    const again = await report();
    expect(again.status).toBe(409);
    const log = await auditLog(h.t.warden.store);
    expect(
      log.filter((e) => e.kind === 'call' && e.decisionId === allowed.body.auditId),
    ).toHaveLength(1);
    // A denied call did not run: nothing can report it as run.
    const denied = await decide(h, { ...PUSH, callId: 'c-11' });
    expect(denied.body.outcome).toBe('deny');
    const ran = await h.call('POST', '/v1/audit', h.tokens.agent, {
      auditId: denied.body.auditId,
      status: 'Ok',
    });
    expect(ran.status).toBe(409);
    expect((ran.body.errors as J[])[0]?.message).toContain('did not run');
  });
});

describe('HTTP API: what-if, policy, spaces, managed, templates (G24, G29, G32, G38)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('G38: POST /v1/what-if answers what decide would, and why, without recording a decision', async () => {
    const decisions = async () =>
      (await auditLog(h.t.warden.store)).filter((e) => e.kind === 'decision').length;
    const human = await h.call('POST', '/v1/what-if', h.tokens.viewer, {
      request: { agent: 'coder-1', actions: ['gitPush'], args: { refs: ['main'] } },
      approver: 'connected',
    });
    expect(human.status).toBe(200);
    expect(human.body).toMatchObject({ decision: 'prompt', outcome: 'ask', rule: 'ask-push' });
    const none = await h.call('POST', '/v1/what-if', h.tokens.viewer, {
      request: { workspace: 'acme', agent: 'coder-1', actions: ['gitPush'] },
      approver: 'none',
    });
    expect(none.body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
    // An agent's what-if is its own: workspace and agent from the token.
    const agent = await h.call('POST', '/v1/what-if', h.tokens.agent, {
      request: { actions: ['gitCommit'] },
      at: '2026-11-30T10:00:00Z',
    });
    expect(agent.status).toBe(200);
    expect(agent.body).toMatchObject({ decision: 'allow', outcome: 'allow' });
    // The same as decide: by G3 the answer is the agent's.
    const decided = await decide(h, { tool: 'shell', command: 'npm publish' });
    const explained = await h.call('POST', '/v1/what-if', h.tokens.agent, {
      request: { tool: 'shell', command: 'npm publish' },
    });
    expect(explained.body).toMatchObject({
      decision: decided.body.decision,
      rule: decided.body.rule,
      scope: decided.body.scope,
      enforcement: decided.body.enforcement,
    });
    // Only the one decide call is a decision in the log.
    expect(await decisions()).toBe(1);
  });

  it('G38, E1, E31: a what-if request that is not valid is refused with every problem listed', async () => {
    const r = await h.call('POST', '/v1/what-if', h.tokens.viewer, {
      request: { workspace: 'acme', agent: 'coder-1', actions: ['gitPushh'], mode: 'nope' },
    });
    expect(r.status).toBe(422);
    const errors = r.body.errors as J[];
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.every((e) => String(e.path).startsWith('request'))).toBe(true);
    expect(JSON.stringify(errors)).toContain('gitPush');
    const at = await h.call('POST', '/v1/what-if', h.tokens.viewer, {
      request: { agent: 'coder-1', actions: ['gitCommit'] },
      at: '2026-11-30T10:00:00',
    });
    expect(at.status).toBe(400);
    expect((at.body.errors as J[])[0]?.path).toBe('at');
    const closed = await h.call('POST', '/v1/what-if', h.tokens.viewer, {
      request: { agent: 'coder-1', actions: ['gitCommit'], colour: 'red' },
      approver: 'sometimes',
    });
    expect(closed.status).toBe(400);
    expect((closed.body.errors as J[]).map((e) => e.path).sort()).toEqual(['approver', 'request']);
  });

  it('G24: GET/PUT /v1/policy write revisions; revisions, one revision and the diff read them back', async () => {
    const current = await h.call('GET', '/v1/policy', h.tokens.viewer);
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ workspace: 'acme', revision: 1, document: POLICY });
    const next = {
      ...POLICY,
      spaces: { ...POLICY.spaces, sandbox: { autonomy: 'actFreely' } },
      rules: [
        ...POLICY.rules.filter((r) => r.id !== 'watch-egress'),
        { id: 'commits', action: 'gitCommit', decision: 'allow' },
      ],
    };
    const put = await h.call('PUT', '/v1/policy', h.tokens.admin, {
      document: next,
      message: 'add sandbox',
      expectedRevision: 1,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      workspace: 'acme',
      revision: 2,
      author: 'ada',
      message: 'add sandbox',
    });
    expect(put.body.document).toBeUndefined();
    const stale = await h.call('PUT', '/v1/policy', h.tokens.admin, {
      document: POLICY,
      expectedRevision: 1,
    });
    expect(stale.status).toBe(409);
    expect((stale.body.errors as J[])[0]?.message).toContain('revision 2');
    const none = await h.call('PUT', '/v1/policy', h.tokens.admin, {
      document: POLICY,
      expectedRevision: null,
    });
    expect(none.status).toBe(409);
    const revisions = await h.call('GET', '/v1/policy/revisions', h.tokens.viewer);
    expect((revisions.body.revisions as J[]).map((r) => r.revision)).toEqual([2, 1]);
    const one = await h.call('GET', '/v1/policy/revisions/1', h.tokens.viewer);
    expect(one.body).toMatchObject({ revision: 1, document: POLICY });
    expect((await h.call('GET', '/v1/policy/revisions/9', h.tokens.viewer)).status).toBe(404);
    expect((await h.call('GET', '/v1/policy/revisions/x', h.tokens.viewer)).status).toBe(404);
    const diff = await h.call('GET', '/v1/policy/diff?from=1', h.tokens.viewer);
    expect(diff.status).toBe(200);
    expect(diff.body).toMatchObject({
      from: 1,
      to: 2,
      rules: {
        added: [{ id: 'commits' }],
        removed: [{ id: 'watch-egress' }],
        changed: [],
      },
      spaces: { added: [{ name: 'sandbox', autonomy: 'actFreely' }], removed: [], changed: [] },
      modes: { added: [], removed: [], changed: [] },
    });
    expect((await h.call('GET', '/v1/policy/diff?from=1&to=7', h.tokens.viewer)).status).toBe(404);
    expect((await h.call('GET', '/v1/policy/diff', h.tokens.viewer)).status).toBe(400);
    // The change is in the audit log with who made it.
    const changes = (await auditLog(h.t.warden.store)).filter((e) => e.kind === 'change');
    expect(changes.at(-1)).toMatchObject({ change: 'policy-revision', by: 'ada' });
  });

  it('contracts §1: an invalid policy is rejected whole with every problem listed as path: message', async () => {
    const r = await h.call('PUT', '/v1/policy', h.tokens.admin, {
      document: {
        version: 2,
        workspace: 'acme',
        rules: [
          { id: 'a', action: 'gitPushh', decision: 'deny' },
          { id: 'b', action: 'gitPush', decision: 'maybe' },
        ],
      },
    });
    expect(r.status).toBe(422);
    const paths = (r.body.errors as J[]).map((e) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'document.version',
        'document.rules[0].action',
        'document.rules[1].decision',
      ]),
    );
    expect(JSON.stringify(r.body)).toContain('did you mean');
    expect(
      (await h.call('GET', '/v1/policy/revisions', h.tokens.viewer)).body.revisions,
    ).toHaveLength(1);
  });

  it('G30–G32: spaces list their autonomy and meaning; PUT /v1/spaces/:id sets the dial as a new revision', async () => {
    const listed = await h.call('GET', '/v1/spaces', h.tokens.viewer);
    expect(listed.status).toBe(200);
    expect(listed.body.spaces).toEqual([
      {
        id: 'payments',
        autonomy: 'actWithApproval',
        effective: 'actWithApproval',
        meaning: expect.stringContaining('approver'),
      },
    ]);
    expect((listed.body.levels as J[]).map((l) => l.level)).toEqual([
      'proposeOnly',
      'actWithApproval',
      'actFreely',
    ]);
    const set = await h.call('PUT', '/v1/spaces/payments', h.tokens.admin, {
      autonomy: 'proposeOnly',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      revision: 2,
      space: 'payments',
      autonomy: 'proposeOnly',
      meaning: expect.stringContaining('denied'),
    });
    // The agent acts in the space it is registered in (contracts §8).
    await h.call('PUT', '/v1/agents/coder-1', h.tokens.admin, { space: 'payments' });
    const commit = await decide(h, COMMIT);
    expect(commit.body).toMatchObject({ decision: 'deny', rule: 'autonomy:proposeOnly' });
    const free = await h.call('PUT', '/v1/spaces/lab', h.tokens.admin, { autonomy: 'actFreely' });
    expect(free.body.meaning).toContain('without asking');
    await h.call('PUT', '/v1/agents/coder-1', h.tokens.admin, { space: 'lab' });
    const push = await decide(h, PUSH);
    expect(push.body).toMatchObject({ outcome: 'allow', rule: 'autonomy:actFreely' });
    const unset = await h.call('PUT', '/v1/spaces/payments', h.tokens.admin, { autonomy: null });
    expect(unset.body).toMatchObject({
      autonomy: null,
      meaning: expect.stringContaining('approver'),
    });
    const spaces = (await h.call('GET', '/v1/spaces', h.tokens.viewer)).body.spaces as J[];
    expect(spaces.find((s) => s.id === 'payments')).toMatchObject({
      autonomy: null,
      effective: 'actWithApproval',
    });
    const bad = await h.call('PUT', '/v1/spaces/payments', h.tokens.admin, { autonomy: 'yolo' });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as J[])[0]?.path).toBe('autonomy');
  });

  it('G28, G29: the stored managed layer is read and written over HTTP and tightens decisions', async () => {
    const empty = await h.call('GET', '/v1/managed', h.tokens.viewer);
    expect(empty.body).toMatchObject({ source: null, readOnly: false, document: null });
    const managed = {
      version: 1,
      rules: [{ id: 'pin-commits', action: 'gitCommit', decision: 'deny' }],
    };
    const put = await h.call('PUT', '/v1/managed', h.tokens.admin, {
      document: managed,
      message: 'pin',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ revision: 1, author: 'ada' });
    const read = await h.call('GET', '/v1/managed', h.tokens.viewer);
    expect(read.body).toMatchObject({ source: 'store', readOnly: false, document: managed });
    await eventually(async () => (await decide(h, COMMIT)).body.decision === 'deny');
    const rules = await h.call('GET', '/v1/rules', h.tokens.viewer);
    expect(rules.body.managedSource).toBe('store');
    expect((rules.body.rules as J[]).find((r) => r.id === 'pin-commits')).toMatchObject({
      layer: 'managed',
      origin: 'managed',
      readOnly: true,
      revocable: false,
    });
    const invalid = await h.call('PUT', '/v1/managed', h.tokens.admin, {
      document: { version: 1, workspace: 'acme', rules: [] },
    });
    expect(invalid.status).toBe(422);
  });

  it('templates: list, preview the rules they would add, apply them as a new revision with origin `template`', async () => {
    const list = await h.call('GET', '/v1/templates', h.tokens.viewer);
    expect(list.status).toBe(200);
    const names = (list.body.templates as J[]).map((t) => t.name);
    expect(names).toContain('protect-main');
    const preview = await h.call('POST', '/v1/templates/protect-main/preview', h.tokens.viewer, {
      params: { branches: ['release/**'] },
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ template: 'protect-main', revision: 1 });
    const previewed = preview.body.rules as J[];
    expect(previewed.length).toBeGreaterThan(0);
    // A preview writes nothing.
    expect((await h.call('GET', '/v1/policy', h.tokens.viewer)).body.revision).toBe(1);
    const applied = await h.call('POST', '/v1/templates/protect-main/apply', h.tokens.admin, {
      params: { branches: ['release/**'] },
    });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ revision: 2 });
    expect(applied.body.added).toEqual(previewed);
    const rules = (await h.call('GET', '/v1/rules', h.tokens.viewer)).body.rules as J[];
    const added = rules.filter((r) => r.origin === 'template');
    expect(added.length).toBe(previewed.length);
    expect(added[0]).toMatchObject({ action: 'gitPush', decision: 'deny', layer: 'workspace' });
    const main = await decide(h, { ...PUSH, args: { refs: ['main'] } });
    expect(main.body).toMatchObject({ decision: 'deny' });
    expect((await h.call('POST', '/v1/templates/nope/preview', h.tokens.viewer, {})).status).toBe(
      404,
    );
    const badArgs = await h.call('POST', '/v1/templates/protect-main/apply', h.tokens.admin, {
      params: { branches: ['!main'], colour: 'red' },
    });
    expect(badArgs.status).toBe(422);
    expect((badArgs.body.errors as J[]).length).toBeGreaterThanOrEqual(2);
  });
});

describe('HTTP API: records, work and meta (contracts §6, G37, G39, I2)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('contracts §8: GET /v1/audit filters by agent, status, tool, kind, since and limit, newest first', async () => {
    const a = await decide(h, { ...COMMIT, callId: 'c-a' });
    await h.call('POST', '/v1/audit', h.tokens.agent, { auditId: a.body.auditId, status: 'Ok' });
    await h.call('POST', '/v1/audit', h.tokens.agent, { tool: 'web_fetch', status: 'Error' });
    const all = await h.call('GET', '/v1/audit', h.tokens.viewer);
    expect(all.status).toBe(200);
    const entries = all.body.entries as J[];
    const times = entries.map((e) => String(e.occurredAt));
    expect([...times].sort().reverse()).toEqual(times);
    const errors = await h.call(
      'GET',
      '/v1/audit?agent=coder-1&status=Error&since=1h',
      h.tokens.viewer,
    );
    expect((errors.body.entries as J[]).map((e) => [e.tool, e.status])).toEqual([
      ['web_fetch', 'Error'],
    ]);
    const two = await h.call('GET', '/v1/audit?status=Ok&status=Error&kind=call', h.tokens.viewer);
    expect((two.body.entries as J[]).map((e) => e.status)).toEqual(['Error', 'Ok']);
    const byTool = await h.call('GET', '/v1/audit?tool=git_commit&limit=1', h.tokens.viewer);
    expect(byTool.body.entries).toHaveLength(1);
    const future = await h.call('GET', '/v1/audit?since=2999-01-01T00:00:00Z', h.tokens.viewer);
    expect(future.body.entries).toEqual([]);
    const bad = await h.call(
      'GET',
      '/v1/audit?since=yesterday&status=Fine&limit=0',
      h.tokens.viewer,
    );
    expect(bad.status).toBe(400);
    expect((bad.body.errors as J[]).map((e) => e.path).sort()).toEqual([
      'query.limit',
      'query.status',
    ]);
    const since = await h.call('GET', '/v1/audit?since=yesterday', h.tokens.viewer);
    expect(since.status).toBe(400);
    expect((since.body.errors as J[])[0]?.path).toBe('since');
  });

  it('G39: the permissions audit lists every decision with facets, rule and advisory hits, filtered by outcome', async () => {
    await decide(h, COMMIT);
    await decide(h, {
      tool: 'fetch',
      actions: ['networkEgress'],
      args: { hosts: ['example.com'] },
    });
    await decide(h, PUSH);
    const all = await h.call('GET', '/v1/permissions/audit', h.tokens.viewer);
    expect(all.status).toBe(200);
    const decisions = all.body.decisions as J[];
    expect(decisions).toHaveLength(3);
    expect(decisions.every((d) => d.kind === 'decision')).toBe(true);
    const denied = await h.call('GET', '/v1/permissions/audit?outcome=deny', h.tokens.viewer);
    expect((denied.body.decisions as J[]).map((d) => d.tool)).toEqual(['git_push']);
    const advisory = await h.call('GET', '/v1/permissions/audit?advisory=1', h.tokens.viewer);
    const hits = advisory.body.decisions as J[];
    expect(hits.map((d) => d.tool)).toEqual(['fetch']);
    expect(hits[0]?.decision).toMatchObject({
      advisories: [{ rule: 'watch-egress', facet: 'networkEgress', wouldBe: 'deny' }],
    });
    const counted = await h.call('GET', '/v1/permissions/advisories', h.tokens.viewer);
    expect(counted.body).toMatchObject({
      decisions: 3,
      truncated: false,
      rules: [
        {
          rule: 'watch-egress',
          facet: 'networkEgress',
          wouldBe: 'deny',
          count: 1,
          agents: ['coder-1'],
        },
      ],
    });
  });

  it('I2: runs record steps, tokens and cost; the taskboard and the agents read back', async () => {
    const task = await h.call('POST', '/v1/tasks', h.tokens.admin, {
      agent: 'coder-1',
      title: 'fix the login',
      dueAt: '2020-01-01T00:00:00Z',
    });
    expect(task.status).toBe(201);
    const taskId = task.body.id as string;
    const run = await h.call('POST', '/v1/runs', h.tokens.agent, { taskId, budgetCents: 500 });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ agent: 'coder-1', workspace: 'acme', taskId });
    const runId = run.body.id as string;
    const step = await h.call('POST', `/v1/runs/${runId}/steps`, h.tokens.agent, {
      kind: 'model',
      tokensIn: 1200,
      tokensOut: 300,
      costCents: 4,
    });
    expect(step.status).toBe(201);
    const finished = await h.call('POST', `/v1/runs/${runId}/finish`, h.tokens.agent, {
      status: 'done',
    });
    expect(finished.status).toBe(200);
    const runs = await h.call('GET', '/v1/runs?agent=coder-1', h.tokens.viewer);
    expect((runs.body.runs as J[]).map((r) => r.id)).toEqual([runId]);
    const one = await h.call('GET', `/v1/runs/${runId}`, h.tokens.viewer);
    expect(one.body).toMatchObject({
      id: runId,
      stepList: [{ kind: 'model', tokensIn: 1200, costCents: 4 }],
    });
    expect((await h.call('GET', `/v1/runs/${runId}`, h.tokens.agent)).status).toBe(200);
    expect((await h.call('GET', '/v1/runs/nope', h.tokens.viewer)).status).toBe(404);
    const overdue = await h.call('GET', '/v1/tasks?state=overdue', h.tokens.viewer);
    expect((overdue.body.tasks as J[]).map((t) => t.id)).toEqual([taskId]);
    const mine = await h.call('GET', '/v1/tasks', h.tokens.agent);
    expect((mine.body.tasks as J[]).map((t) => t.id)).toEqual([taskId]);
    const done = await h.call('PATCH', `/v1/tasks/${taskId}`, h.tokens.agent, { state: 'done' });
    expect(done.status).toBe(200);
    const open = await h.call('GET', '/v1/tasks?state=open', h.tokens.viewer);
    expect(open.body.tasks).toEqual([]);
    const agent = await h.call('PUT', '/v1/agents/coder-1', h.tokens.admin, {
      name: 'Coder',
      space: 'payments',
    });
    expect(agent.status).toBe(200);
    // An agent of the data folder that works in acme is listed too, with its tools (inspector.md §2).
    await createAgent(h.t.data, {
      id: 'sup',
      role: 'supervisor',
      workspace: 'acme',
    });
    await createAgent(h.t.data, { id: 'elsewhere', role: 'coder', workspace: 'beta' });
    const agents = await h.call('GET', '/v1/agents', h.tokens.viewer);
    expect(agents.body.agents).toEqual([
      expect.objectContaining({
        id: 'coder-1',
        name: 'Coder',
        space: 'payments',
        registered: true,
        tools: null,
      }),
      expect.objectContaining({
        id: 'sup',
        role: 'supervisor',
        registered: false,
        tools: ['agentInspector', 'messageHuman'],
        lastActivity: null,
      }),
    ]);
  });

  it('G37: GET /v1/honesty is the honesty matrix of this host; GET /v1/me is the token', async () => {
    const honesty = await h.call('GET', '/v1/honesty', h.tokens.agent);
    expect(honesty.status).toBe(200);
    expect(honesty.body).toMatchObject({ host: expect.any(Object), adapters: expect.any(Array) });
    expect((honesty.body.adapters as J[]).length).toBeGreaterThan(0);
    const me = await h.call('GET', '/v1/me', h.tokens.agent);
    expect(me.body).toMatchObject({
      name: 'coder',
      role: 'agent',
      workspace: 'acme',
      agent: 'coder-1',
      space: null,
      mode: null,
    });
    expect(JSON.stringify(me.body)).not.toContain(h.tokens.agent);
    expect((await h.call('GET', '/v1/me', h.tokens.viewer)).body).toMatchObject({
      role: 'viewer',
      workspace: null,
    });
  });

  it('contracts §8: tokens are listed without secrets, made once, and refused within a second of revocation', async () => {
    const made = await h.call('POST', '/v1/tokens', h.tokens.admin, {
      role: 'agent',
      name: 'reviewer',
      workspace: 'acme',
      agent: 'reviewer-1',
      space: 'payments',
    });
    expect(made.status).toBe(201);
    const secret = made.body.token as string;
    expect(secret).toMatch(/^wdn_/);
    const record = made.body.record as J;
    expect(record).toMatchObject({
      role: 'agent',
      agent: 'reviewer-1',
      space: 'payments',
      createdBy: 'ada',
    });
    expect((await h.call('GET', '/v1/me', secret)).body).toMatchObject({ agent: 'reviewer-1' });
    const listed = await h.call('GET', '/v1/tokens', h.tokens.admin);
    expect(listed.status).toBe(200);
    expect((listed.body.tokens as J[]).map((t) => t.name)).toEqual(
      expect.arrayContaining(['ada', 'alice', 'olga', 'vic', 'coder', 'reviewer']),
    );
    for (const token of Object.values(h.tokens)) expect(listed.text).not.toContain(token);
    expect(listed.text).not.toContain(secret);
    const bad = await h.call('POST', '/v1/tokens', h.tokens.admin, { role: 'agent', name: '' });
    expect(bad.status).toBe(422);
    expect((bad.body.errors as J[]).map((e) => e.path).sort()).toEqual([
      'agent',
      'name',
      'workspace',
    ]);
    const revoked = await h.call('DELETE', `/v1/tokens/${String(record.id)}`, h.tokens.admin);
    expect(revoked.status).toBe(200);
    expect(typeof revoked.body.revokedAt).toBe('string');
    // Revoked through this server: refused here at once, though it was used a moment ago.
    const refused = await h.call('GET', '/v1/me', secret);
    expect(refused.status).toBe(401);
    h.advance(1500);
    expect((await h.call('GET', '/v1/me', secret)).status).toBe(401);
    const withRevoked = await h.call('GET', '/v1/tokens?revoked=true', h.tokens.admin);
    expect((withRevoked.body.tokens as J[]).map((t) => t.name)).toContain('reviewer');
    const without = await h.call('GET', '/v1/tokens', h.tokens.admin);
    expect((without.body.tokens as J[]).map((t) => t.name)).not.toContain('reviewer');
    expect((await h.call('DELETE', '/v1/tokens/tok_nope', h.tokens.admin)).status).toBe(404);
  });
});

describe('HTTP API: the surface itself (contracts §3, §8)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('contracts §8: /v1/openapi.json documents every mounted route, with its permission', async () => {
    const r = await h.call('GET', '/v1/openapi.json', h.tokens.viewer);
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const paths = r.body.paths as Record<string, Record<string, J>>;
    const documented = new Set(
      Object.entries(paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    // The web console's files and pages are not API routes.
    const mounted = h.app.routes
      .filter((route) => route.method !== 'ALL' && !CONSOLE_PATHS.includes(route.path))
      .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    expect(mounted.length).toBeGreaterThan(30);
    for (const route of mounted) expect(documented, route).toContain(route);
    // A static path beside a parameter's path of the same method is served by the parameter's route.
    expect([...documented].filter((route) => !mounted.includes(route))).toEqual([
      'GET /v1/approvals/stream',
    ]);
    for (const fixed of [
      'POST /v1/decide',
      'POST /v1/audit',
      'GET /v1/audit',
      'GET /healthz',
      'GET /readyz',
    ])
      expect(documented).toContain(fixed);
    const decideOp = paths['/v1/decide']?.post;
    expect(decideOp?.['x-warden-permission']).toBe('decide');
    expect(decideOp?.requestBody).toBeDefined();
  });

  it('every route fits the fastest router, which takes no two routes for one path', async () => {
    await h.call('GET', '/healthz', undefined);
    const router = h.app.router as unknown as { name: string; activeRouter?: { name: string } };
    expect(router.activeRouter?.name).toBe('RegExpRouter');
  });

  it('contracts §8: /healthz and /readyz answer without a token', async () => {
    const health = await h.call('GET', '/healthz');
    expect(health).toMatchObject({ status: 200, body: { ok: true } });
    const ready = await h.call('GET', '/readyz');
    expect(ready).toMatchObject({ status: 200, body: { ok: true, storage: 'sqlite' } });
  });

  it('GET /v1/me says when the token expires, null when it does not', async () => {
    expect((await h.call('GET', '/v1/me', h.tokens.viewer)).body).toMatchObject({
      expiresAt: null,
    });
    const until = Date.now() + 86_400_000;
    const made = await createToken(h.t.warden.store.tokens, {
      role: 'viewer',
      name: 'for-a-day',
      expiresAt: until,
      by: 'test',
      at: Date.now(),
    });
    if (!made.ok) throw new Error(JSON.stringify(made.problems));
    expect((await h.call('GET', '/v1/me', made.token)).body).toMatchObject({
      name: 'for-a-day',
      expiresAt: new Date(until).toISOString(),
    });
  });

  it('contracts §8: a missing, malformed, unknown or revoked token gets 401 with the error shape', async () => {
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${h.tokens.admin}` }],
      ['unknown', { authorization: 'Bearer wdn_nope' }],
    ];
    for (const [what, headers] of cases) {
      const r = await answerOf(await h.app.request('/v1/me', { headers }));
      expect(r.status, what).toBe(401);
      expect(r.body.errors, what).toEqual([{ path: 'authorization', message: expect.any(String) }]);
    }
    const made = await makeToken(h.t.warden.store.tokens, 'viewer', 'temp');
    expect((await h.call('GET', '/v1/me', made.token)).status).toBe(200);
    await h.t.warden.store.tokens.revoke(made.record.id, Date.now());
    h.advance(1500);
    expect((await h.call('GET', '/v1/me', made.token)).status).toBe(401);
    // Even decide needs a token.
    expect((await h.call('POST', '/v1/decide', undefined, COMMIT)).status).toBe(401);
  });

  it('contracts §3: bad input gets a 4xx listing every problem with its path, and no stack trace', async () => {
    const r = await decide(h, {
      tool: 7,
      actions: 'gitPush',
      args: { refs: 'main', count: -1, colours: [] },
      extra: true,
    });
    expect(r.status).toBe(400);
    const paths = (r.body.errors as J[]).map((e) => e.path).sort();
    expect(paths).toEqual(['', 'actions', 'args', 'args.count', 'args.refs', 'tool']);
    for (const e of r.body.errors as J[])
      expect(Object.keys(e).sort()).toEqual(['message', 'path']);
    expect(r.text).not.toMatch(/at .*\.(ts|js):\d+/);
    const notJson = await decide(h, '{"tool":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors).toEqual([{ path: 'body', message: 'the body is not JSON' }]);
    const query = await decide(h, COMMIT, '?wait=2&later=1');
    expect(query.status).toBe(400);
    expect((query.body.errors as J[]).map((e) => e.path).sort()).toEqual(['query', 'query.wait']);
  });

  it('contracts §8: an unknown route is a 404 in the error shape', async () => {
    const r = await h.call('GET', '/v1/nothing-here', h.tokens.admin);
    expect(r.status).toBe(404);
    expect(r.body.errors).toEqual([{ path: '', message: 'no route `GET /v1/nothing-here`' }]);
    const wrongMethod = await h.call('DELETE', '/v1/policy', h.tokens.admin);
    expect(wrongMethod.status).toBe(404);
    const outside = await h.call('GET', '/nothing');
    expect(outside.status).toBe(404);
    expect(outside.body.errors).toHaveLength(1);
  });

  it('contracts §8: a body over 2 MiB is refused with 413, with or without a length', async () => {
    const big = JSON.stringify({
      ...COMMIT,
      arguments: { blob: 'x'.repeat(2 * 1024 * 1024 + 10) },
    });
    const r = await decide(h, big);
    expect(r.status).toBe(413);
    expect(r.body.errors).toEqual([{ path: 'body', message: expect.stringContaining('2 MiB') }]);
    const sized = await h.call('POST', '/v1/decide', h.tokens.agent, undefined, {
      body: big,
      headers: {
        authorization: `Bearer ${h.tokens.agent}`,
        'content-length': String(Buffer.byteLength(big)),
      },
    });
    expect(sized.status).toBe(413);
    // Just under the limit is fine.
    const fits = JSON.stringify({ ...COMMIT, arguments: { blob: 'x'.repeat(1024 * 1024) } });
    expect((await decide(h, fits)).status).toBe(200);
    // Nothing was recorded for the refused bodies.
    const decisions = (await auditLog(h.t.warden.store)).filter((e) => e.kind === 'decision');
    expect(decisions).toHaveLength(1);
  });

  it('contracts §8: with one workspace a human need not name it; with two it must', async () => {
    await h.t.warden.putPolicy({ version: 1, workspace: 'beta', rules: [] }, { author: 'test' });
    const ambiguous = await h.call('GET', '/v1/policy', h.tokens.viewer);
    expect(ambiguous.status).toBe(400);
    expect((ambiguous.body.errors as J[])[0]).toMatchObject({ path: 'workspace' });
    expect(String((ambiguous.body.errors as J[])[0]?.message)).toContain('`beta`');
    const beta = await h.call('GET', '/v1/policy?workspace=beta', h.tokens.viewer);
    expect(beta.body).toMatchObject({ workspace: 'beta', revision: 1 });
  });
});

describe('the kill switch: freezing an agent or a workspace', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('a frozen agent is denied every call, naming the freeze; its thaw lets the policy decide again', async () => {
    expect((await decide(h, COMMIT)).body).toMatchObject({ outcome: 'allow' });
    const frozen = await h.call('PUT', '/v1/agents/coder-1/freeze', h.tokens.admin, {
      reason: 'runaway loop',
    });
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({
      freeze: { workspace: 'acme', agent: 'coder-1', by: 'ada', reason: 'runaway loop' },
      denied: [],
    });
    const denied = await decide(h, COMMIT);
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'freeze:agent',
      scope: 'agent:coder-1',
      enforcement: 'hard',
      overridable: false,
    });
    expect(denied.body.reason).toContain('frozen by ada');
    expect(denied.body.reason).toContain('runaway loop');
    expect(typeof denied.body.auditId).toBe('string');
    // Another agent of the workspace is not affected.
    const other = await openAgentToken(h, 'coder-2');
    expect((await decide(h, COMMIT, '', other)).body).toMatchObject({ outcome: 'allow' });
    const listed = await h.call('GET', '/v1/freezes?workspace=acme', h.tokens.viewer);
    expect(listed.body).toMatchObject({ freezes: [{ agent: 'coder-1', by: 'ada' }] });
    const thawed = await h.call('DELETE', '/v1/agents/coder-1/freeze', h.tokens.admin);
    expect(thawed.status).toBe(200);
    expect((await decide(h, COMMIT)).body).toMatchObject({ outcome: 'allow' });
    expect((await h.call('DELETE', '/v1/agents/coder-1/freeze', h.tokens.admin)).status).toBe(404);
    const changes = await h.call('GET', '/v1/audit?workspace=acme&kind=change', h.tokens.viewer);
    const said = (changes.body.entries as { change: string; by: string }[]).map(
      (e) => `${e.change} by ${e.by}`,
    );
    expect(said).toEqual(expect.arrayContaining(['agent-frozen by ada', 'agent-thawed by ada']));
  });

  it('no override, no remembered approval and no soft deny lift a freeze', async () => {
    await h.call('PUT', '/v1/agents/coder-1/freeze', h.tokens.admin, {});
    const publish = await decide(h, PUBLISH);
    expect(publish.body).toMatchObject({ rule: 'freeze:agent', overridable: false });
    expect(publish.body.overrideId).toBeUndefined();
  });

  it('a freeze denies the prompts the agent is waiting on', async () => {
    const s = await h.stream(h.tokens.approver);
    await s.next('ready');
    const asked = await decide(h, PUSH, '?wait=0');
    expect(asked.body).toMatchObject({ outcome: 'ask' });
    const approvalId = asked.body.approvalId as string;
    const waiting = h.call('GET', `/v1/decide/${approvalId}`, h.tokens.agent);
    const frozen = await h.call('PUT', '/v1/agents/coder-1/freeze', h.tokens.admin, {
      reason: 'stop',
    });
    expect(frozen.body).toMatchObject({ denied: [approvalId] });
    const final = await waiting;
    expect(final.body).toMatchObject({ outcome: 'deny' });
    expect(JSON.stringify(final.body)).toContain('frozen');
    const read = await h.call('GET', `/v1/approvals/${approvalId}`, h.tokens.viewer);
    expect(read.body).toMatchObject({ state: 'denied' });
  });

  it('a workspace freeze stops every agent of it; thawing it leaves an agent frozen on its own frozen', async () => {
    const other = await openAgentToken(h, 'coder-2');
    await h.call('PUT', '/v1/agents/coder-1/freeze', h.tokens.admin, {});
    const whole = await h.call('PUT', '/v1/freeze?workspace=acme', h.tokens.admin, {
      reason: 'incident 42',
    });
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ freeze: { agent: null, reason: 'incident 42' } });
    const second = await decide(h, COMMIT, '', other);
    expect(second.body).toMatchObject({ rule: 'freeze:workspace', scope: 'workspace' });
    // The agent's own freeze is the more specific one, and the one named.
    expect((await decide(h, COMMIT)).body).toMatchObject({ rule: 'freeze:agent' });
    expect((await h.call('DELETE', '/v1/freeze?workspace=acme', h.tokens.admin)).status).toBe(200);
    expect((await decide(h, COMMIT, '', other)).body).toMatchObject({ outcome: 'allow' });
    expect((await decide(h, COMMIT)).body).toMatchObject({ rule: 'freeze:agent' });
  });

  it('only an admin freezes or thaws; an agent cannot thaw itself; a bad reason is refused', async () => {
    for (const token of [h.tokens.agent, h.tokens.approver, h.tokens.viewer]) {
      expect((await h.call('PUT', '/v1/agents/coder-1/freeze', token, {})).status).toBe(403);
      expect((await h.call('PUT', '/v1/freeze?workspace=acme', token, {})).status).toBe(403);
    }
    await h.call('PUT', '/v1/agents/coder-1/freeze', h.tokens.admin, {});
    const self = await h.call('DELETE', '/v1/agents/coder-1/freeze', h.tokens.agent);
    expect(self.status).toBe(403);
    expect((await decide(h, COMMIT)).body).toMatchObject({ rule: 'freeze:agent' });
    const bad = await h.call('PUT', '/v1/agents/coder-1/freeze', h.tokens.admin, {
      reason: 'two\nlines',
    });
    expect(bad.status).toBe(400);
    const long = await h.call('PUT', '/v1/agents/coder-1/freeze', h.tokens.admin, {
      reason: 'x'.repeat(501),
    });
    expect(long.status).toBe(400);
  });
});

async function openAgentToken(h: Harness, agent: string): Promise<string> {
  const made = await makeToken(h.t.warden.store.tokens, 'agent', agent, {
    workspace: 'acme',
    agent,
  });
  return made.token;
}
