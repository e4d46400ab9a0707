// Role boundaries of the HTTP API (contracts §8, I1, G22–G26): what each
// token may do, each refusal tested next to the token that may, so that a
// 403 means the boundary and not a broken route. An agent token is one agent
// in one workspace (and maybe one space and mode): it decides and reports,
// for itself only. Humans read; approvers answer prompts, overriders lift
// soft denies, admins do all of it; a token bound to a workspace acts there.

import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../src/server/api.js';
import { makeToken, openTestServer } from '../support/server.js';
import { auditLog, eventually } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

type J = Record<string, unknown>;

const ACME = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: {}, locked: { autonomy: 'proposeOnly' }, free: { autonomy: 'actFreely' } },
  modes: { review: { commandNet: ['rm -rf /'] }, ship: {} },
  rules: [
    { id: 'ask-push', action: 'gitPush', decision: 'prompt' },
    { id: 'no-publish', command: 'npm publish', decision: 'deny', enforcement: 'soft' },
  ],
};
const BETA = {
  version: 1,
  workspace: 'beta',
  rules: [{ id: 'ask-push', action: 'gitPush', decision: 'prompt' }],
};

const PUSH = { tool: 'git_push', actions: ['gitPush'], args: { refs: ['feature/login'] } };
const COMMIT = { tool: 'git_commit', actions: ['gitCommit'] };
const PUBLISH = { tool: 'shell', command: 'npm publish' };

const ROLES = ['admin', 'approver', 'overrider', 'viewer', 'agent'] as const;
type RoleName = (typeof ROLES)[number];

interface Answer {
  readonly status: number;
  readonly body: J;
}

interface Fixture {
  readonly t: TestWarden;
  readonly app: Hono<Env>;
  readonly tokens: Record<RoleName, string> & {
    /** acme/coder-2: another agent of the same workspace. */
    other: string;
    /** acme/coder-3, bound to space `locked` and mode `review`. */
    scoped: string;
    betaAdmin: string;
    betaApprover: string;
    betaAgent: string;
  };
  /** A pending prompt of coder-1, a pending soft deny of coder-1, a remembered rule, a token to revoke. */
  readonly prompt: string;
  readonly soft: string;
  readonly remembered: string;
  readonly spareToken: string;
  readonly decision: string;
  call(method: string, path: string, token?: string, body?: unknown): Promise<Answer>;
}

async function open(): Promise<Fixture> {
  const server = await openTestServer(ACME, {
    warden: { approvals: { timeoutMs: 60_000, pollMs: 20 } },
  });
  const { t, app, token, call } = server;
  await t.warden.putPolicy(BETA, { author: 'test' });
  const tokens = {
    ...server.tokens,
    other: await token('agent', 'other', { workspace: 'acme', agent: 'coder-2' }),
    scoped: await token('agent', 'scoped', {
      workspace: 'acme',
      agent: 'coder-3',
      space: 'locked',
      mode: 'review',
    }),
    betaAdmin: await token('admin', 'bea', { workspace: 'beta' }),
    betaApprover: await token('approver', 'ben', { workspace: 'beta' }),
    betaAgent: await token('agent', 'beta-coder', { workspace: 'beta', agent: 'coder-1' }),
  };
  const spare = await makeToken(t.warden.store.tokens, 'viewer', 'spare', { workspace: 'acme' });
  // Prompts are held only while an approver is connected (G22): one is, while they are asked.
  const channel = await t.warden.approvals.connect({ name: 'setup', roles: ['approver'] });
  const prompt = await call('POST', '/v1/decide?wait=0', tokens.agent, PUSH);
  const toRemember = await call('POST', '/v1/decide?wait=0', tokens.agent, {
    ...PUSH,
    args: { refs: ['hotfix/x'] },
  });
  const remembered = await channel.answer(String(toRemember.body.approvalId), {
    kind: 'remember',
    hours: 8,
    scope: 'agent:coder-1',
  });
  if (!remembered.ok || remembered.approval.answer?.rules?.[0] === undefined)
    throw new Error(`no remembered rule: ${JSON.stringify(remembered)}`);
  await channel.close();
  const soft = await call('POST', '/v1/decide', tokens.agent, PUBLISH);
  const decision = await call('POST', '/v1/decide', tokens.agent, COMMIT);
  if (prompt.body.outcome !== 'ask' || soft.body.overridable !== true)
    throw new Error('the fixture did not open its approvals');
  return {
    t,
    app,
    tokens,
    prompt: String(prompt.body.approvalId),
    soft: String(soft.body.approvalId),
    remembered: remembered.approval.answer.rules[0],
    spareToken: spare.record.id,
    decision: String(decision.body.auditId),
    call,
  };
}

interface Operation {
  readonly what: string;
  readonly allowed: readonly RoleName[];
  /** The status the allowed roles get. */
  readonly ok: number;
  request(fx: Fixture): [method: string, path: string, body?: unknown];
}

const HUMANS: readonly RoleName[] = ['admin', 'approver', 'overrider', 'viewer'];

const OPERATIONS: readonly Operation[] = [
  {
    what: 'decide a request',
    allowed: ['agent'],
    ok: 200,
    request: () => ['POST', '/v1/decide', COMMIT],
  },
  {
    what: 'report a finished call',
    allowed: ['agent'],
    ok: 201,
    request: (fx) => ['POST', '/v1/audit', { auditId: fx.decision, status: 'Ok' }],
  },
  {
    what: 'answer a prompt once',
    allowed: ['admin', 'approver'],
    ok: 200,
    request: (fx) => ['POST', `/v1/approvals/${fx.prompt}/answer`, { kind: 'once' }],
  },
  {
    what: 'answer a prompt with "approve for N hours"',
    allowed: ['admin', 'approver'],
    ok: 200,
    request: (fx) => [
      'POST',
      `/v1/approvals/${fx.prompt}/answer`,
      { kind: 'remember', hours: 2, scope: 'agent:coder-1' },
    ],
  },
  {
    what: 'deny a prompt',
    allowed: ['admin', 'approver'],
    ok: 200,
    request: (fx) => ['POST', `/v1/approvals/${fx.prompt}/answer`, { kind: 'deny' }],
  },
  {
    what: 'override a soft deny with a reason (G26)',
    allowed: ['admin', 'overrider'],
    ok: 200,
    request: (fx) => ['POST', `/v1/approvals/${fx.soft}/override`, { reason: 'hotfix 2.1.1' }],
  },
  {
    what: 'override a soft deny through the answer route (G26)',
    allowed: ['admin', 'overrider'],
    ok: 200,
    request: (fx) => [
      'POST',
      `/v1/approvals/${fx.soft}/answer`,
      { kind: 'override', reason: 'hotfix 2.1.1' },
    ],
  },
  {
    what: 'hold the live approver channel (G22)',
    allowed: ['admin', 'approver', 'overrider'],
    ok: 200,
    request: () => ['GET', '/v1/approvals/stream'],
  },
  {
    what: 'list approvals',
    allowed: HUMANS,
    ok: 200,
    request: () => ['GET', '/v1/approvals?workspace=acme'],
  },
  {
    what: 'read an approval',
    allowed: HUMANS,
    ok: 200,
    request: (fx) => ['GET', `/v1/approvals/${fx.prompt}`],
  },
  {
    what: 'read the audit log',
    allowed: HUMANS,
    ok: 200,
    request: () => ['GET', '/v1/audit?workspace=acme'],
  },
  {
    what: 'write the policy (G24)',
    allowed: ['admin'],
    ok: 200,
    request: () => ['PUT', '/v1/policy', { document: { ...ACME, rules: [] } }],
  },
  {
    what: 'write the managed layer (G28)',
    allowed: ['admin'],
    ok: 200,
    request: () => [
      'PUT',
      '/v1/managed',
      { document: { version: 1, rules: [{ action: 'gitCommit', decision: 'deny' }] } },
    ],
  },
  {
    what: "set a space's autonomy (G32)",
    allowed: ['admin'],
    ok: 200,
    request: () => ['PUT', '/v1/spaces/payments?workspace=acme', { autonomy: 'actFreely' }],
  },
  {
    what: 'revoke a remembered rule (G23)',
    allowed: ['admin'],
    ok: 200,
    request: (fx) => ['DELETE', `/v1/rules/${fx.remembered}?workspace=acme`],
  },
  {
    what: 'apply a template',
    allowed: ['admin'],
    ok: 200,
    request: () => ['POST', '/v1/templates/protect-main/apply', { workspace: 'acme' }],
  },
  {
    what: 'preview a template',
    allowed: HUMANS,
    ok: 200,
    request: () => ['POST', '/v1/templates/protect-main/preview', { workspace: 'acme' }],
  },
  {
    what: 'put a task on the board',
    allowed: ['admin'],
    ok: 201,
    request: () => ['POST', '/v1/tasks', { workspace: 'acme', agent: 'coder-1', title: 'x' }],
  },
  {
    what: 'register an agent',
    allowed: ['admin'],
    ok: 200,
    request: () => ['PUT', '/v1/agents/coder-9?workspace=acme', { name: 'nine' }],
  },
  {
    what: 'make a token',
    allowed: ['admin'],
    ok: 201,
    request: () => ['POST', '/v1/tokens', { role: 'viewer', name: 'new-viewer' }],
  },
  {
    what: 'list tokens',
    allowed: ['admin'],
    ok: 200,
    request: () => ['GET', '/v1/tokens'],
  },
  {
    what: 'revoke a token',
    allowed: ['admin'],
    ok: 200,
    request: (fx) => ['DELETE', `/v1/tokens/${fx.spareToken}`],
  },
];

describe('contracts §8: each role may do what it is granted, and nothing else', () => {
  describe('refusals: 403 in the error shape, and nothing changes', () => {
    let fx: Fixture;
    beforeAll(async () => {
      fx = await open();
    });
    afterAll(async () => {
      await fx.t.cleanup();
    });

    const refusals = OPERATIONS.flatMap((op) =>
      ROLES.filter((role) => !op.allowed.includes(role)).map((role) => ({ role, op })),
    );
    it.each(refusals)('a `$role` token may not $op.what', async ({ role, op }) => {
      const before = (await auditLog(fx.t.warden.store)).length;
      const [method, path, body] = op.request(fx);
      const r = await fx.call(method, path, fx.tokens[role], body);
      expect(r.status).toBe(403);
      if (!path.endsWith('/stream'))
        expect(r.body.errors).toEqual([{ path: '', message: expect.any(String) }]);
      expect((await auditLog(fx.t.warden.store)).length).toBe(before);
    });

    it('the refusals left the approvals pending and the policy at its revision', async () => {
      for (const id of [fx.prompt, fx.soft])
        expect((await fx.t.warden.store.approvals.get(id))?.state).toBe('pending');
      expect((await fx.t.warden.store.policies.current('acme'))?.revision).toBe(1);
      expect(await fx.t.warden.store.policies.currentManaged()).toBeNull();
      expect((await fx.t.warden.rules('acme')).map((r) => r.id)).toEqual([fx.remembered]);
    });
  });

  describe('grants: the same calls succeed for the roles that hold them', () => {
    let fx: Fixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(async () => {
      await fx.t.cleanup();
    });

    const grants = OPERATIONS.flatMap((op) => op.allowed.map((role) => ({ role, op })));
    it.each(grants)('a `$role` token may $op.what', async ({ role, op }) => {
      const [method, path, body] = op.request(fx);
      const r = await fx.call(method, path, fx.tokens[role], body);
      expect(r.status, JSON.stringify(r.body)).toBe(op.ok);
    });
  });
});

describe('I1, contracts §8: an agent token is one agent in one workspace', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await open();
  });
  afterEach(async () => {
    await fx.t.cleanup();
  });

  it.each([
    ['workspace', 'beta'],
    ['agent', 'coder-2'],
    ['space', 'free'],
    ['mode', 'ship'],
  ])('I1: a decide body naming another %s than the token binds gets 403', async (key, value) => {
    const before = (await auditLog(fx.t.warden.store)).length;
    const r = await fx.call('POST', '/v1/decide', fx.tokens.scoped, { ...COMMIT, [key]: value });
    expect(r.status).toBe(403);
    expect(String((r.body.errors as J[])[0]?.message)).toContain(value);
    // Nothing was decided, so nothing was recorded.
    expect((await auditLog(fx.t.warden.store)).length).toBe(before);
  });

  it('I1: the bound space and mode fill the omitted fields (the dial and the net apply)', async () => {
    const commit = await fx.call('POST', '/v1/decide', fx.tokens.scoped, COMMIT);
    expect(commit.body).toMatchObject({ decision: 'deny', rule: 'autonomy:proposeOnly' });
    const net = await fx.call('POST', '/v1/decide', fx.tokens.scoped, {
      tool: 'shell',
      command: 'rm -rf /',
    });
    expect(net.body).toMatchObject({ decision: 'deny', rule: 'modeNet:review' });
    const entry = (await auditLog(fx.t.warden.store)).find((e) => e.id === commit.body.auditId);
    expect(entry).toMatchObject({ workspace: 'acme', agentId: 'coder-3' });
    expect(entry?.request).toMatchObject({ space: 'locked', mode: 'review' });
    // Naming the bound values themselves is fine.
    const same = await fx.call('POST', '/v1/decide', fx.tokens.scoped, {
      ...COMMIT,
      workspace: 'acme',
      agent: 'coder-3',
      space: 'locked',
      mode: 'review',
    });
    expect(same.status).toBe(200);
    expect(same.body.rule).toBe('autonomy:proposeOnly');
  });

  it('I1: an agent token cannot write audit for another agent', async () => {
    const before = (await auditLog(fx.t.warden.store)).length;
    const foreign = await fx.call('POST', '/v1/audit', fx.tokens.other, {
      auditId: fx.decision,
      status: 'Ok',
    });
    expect(foreign.status).toBe(404);
    const otherWorkspace = await fx.call('POST', '/v1/audit', fx.tokens.betaAgent, {
      auditId: fx.decision,
      status: 'Ok',
    });
    expect(otherWorkspace.status).toBe(404);
    const named = await fx.call('POST', '/v1/audit', fx.tokens.other, {
      tool: 'x',
      status: 'Ok',
      agent: 'coder-1',
    });
    expect(named.status).toBe(400);
    expect((await auditLog(fx.t.warden.store)).length).toBe(before);
    const own = await fx.call('POST', '/v1/audit', fx.tokens.agent, {
      auditId: fx.decision,
      status: 'Ok',
    });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ agentId: 'coder-1', decisionId: fx.decision });
  });

  it("I1: an agent cannot wait for another agent's prompt", async () => {
    const foreign = await fx.call('GET', `/v1/decide/${fx.prompt}`, fx.tokens.other);
    expect(foreign.status).toBe(404);
    const beta = await fx.call('GET', `/v1/decide/${fx.prompt}`, fx.tokens.betaAgent);
    expect(beta.status).toBe(404);
    expect((await fx.t.warden.store.approvals.get(fx.prompt))?.state).toBe('pending');
    // Its own prompt it may wait for: no approver is connected, so the wait ends as a no (G22).
    const own = await fx.call('GET', `/v1/decide/${fx.prompt}`, fx.tokens.agent);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ outcome: 'deny', approvalId: fx.prompt });
  });

  it('I1: a what-if of an agent token is its own', async () => {
    const r = await fx.call('POST', '/v1/what-if', fx.tokens.agent, {
      request: { agent: 'coder-2', actions: ['gitCommit'] },
    });
    expect(r.status).toBe(403);
    const scoped = await fx.call('POST', '/v1/what-if', fx.tokens.scoped, {
      request: { actions: ['gitCommit'] },
    });
    expect(scoped.status).toBe(200);
    expect(scoped.body.rule).toBe('autonomy:proposeOnly');
  });

  it("I2: an agent reads and reports its own runs and tasks, not another agent's", async () => {
    const run = await fx.call('POST', '/v1/runs', fx.tokens.agent, {});
    const runId = String(run.body.id);
    expect((await fx.call('GET', `/v1/runs/${runId}`, fx.tokens.other)).status).toBe(404);
    const step = await fx.call('POST', `/v1/runs/${runId}/steps`, fx.tokens.other, {
      kind: 'model',
      costCents: 400,
    });
    expect(step.status).toBe(404);
    const finish = await fx.call('POST', `/v1/runs/${runId}/finish`, fx.tokens.other, {
      status: 'failed',
    });
    expect(finish.status).toBe(404);
    expect(
      (await fx.call('POST', `/v1/runs/${runId}/steps`, fx.tokens.agent, { kind: 'model' })).status,
    ).toBe(201);
    // Humans read runs; they do not report them.
    expect(
      (await fx.call('POST', `/v1/runs/${runId}/steps`, fx.tokens.admin, { kind: 'model' })).status,
    ).toBe(403);
    expect((await fx.call('GET', `/v1/runs/${runId}`, fx.tokens.viewer)).status).toBe(200);
    const task = await fx.call('POST', '/v1/tasks', fx.tokens.admin, {
      workspace: 'acme',
      agent: 'coder-1',
      title: 'login',
    });
    const taskId = String(task.body.id);
    expect((await fx.call('GET', '/v1/tasks?agent=coder-1', fx.tokens.other)).status).toBe(403);
    expect((await fx.call('GET', '/v1/tasks', fx.tokens.other)).body.tasks).toEqual([]);
    const steal = await fx.call('PATCH', `/v1/tasks/${taskId}`, fx.tokens.other, { state: 'done' });
    expect(steal.status).toBe(404);
    const viewer = await fx.call('PATCH', `/v1/tasks/${taskId}`, fx.tokens.viewer, {
      state: 'done',
    });
    expect(viewer.status).toBe(404);
    expect(
      (await fx.call('PATCH', `/v1/tasks/${taskId}`, fx.tokens.agent, { state: 'done' })).status,
    ).toBe(200);
  });
});

describe('G22–G26: who answers what', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await open();
  });
  afterEach(async () => {
    await fx.t.cleanup();
  });

  it('G26: an approver cannot override a soft deny, by either route; an overrider can', async () => {
    const viaOverride = await fx.call(
      'POST',
      `/v1/approvals/${fx.soft}/override`,
      fx.tokens.approver,
      {
        reason: 'please',
      },
    );
    expect(viaOverride.status).toBe(403);
    const viaAnswer = await fx.call('POST', `/v1/approvals/${fx.soft}/answer`, fx.tokens.approver, {
      kind: 'override',
      reason: 'please',
    });
    expect(viaAnswer.status).toBe(403);
    const once = await fx.call('POST', `/v1/approvals/${fx.soft}/answer`, fx.tokens.admin, {
      kind: 'once',
    });
    expect(once.status).toBe(422);
    expect((await fx.t.warden.store.approvals.get(fx.soft))?.state).toBe('pending');
    const granted = await fx.call(
      'POST',
      `/v1/approvals/${fx.soft}/override`,
      fx.tokens.overrider,
      {
        reason: 'hotfix',
      },
    );
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      state: 'approved',
      answer: { by: 'olga', kind: 'override' },
    });
  });

  it.each([
    ['once', { kind: 'once' }],
    ['remember', { kind: 'remember', hours: 2, scope: 'agent:coder-1' }],
  ])('G23: an overrider cannot answer a prompt with %s; an approver can', async (_kind, answer) => {
    const refused = await fx.call(
      'POST',
      `/v1/approvals/${fx.prompt}/answer`,
      fx.tokens.overrider,
      answer,
    );
    expect(refused.status).toBe(403);
    expect((await fx.t.warden.store.approvals.get(fx.prompt))?.state).toBe('pending');
    const ok = await fx.call(
      'POST',
      `/v1/approvals/${fx.prompt}/answer`,
      fx.tokens.approver,
      answer,
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ state: 'approved', answer: { by: 'alice' } });
  });

  it("G22: an overrider's open channel does not make prompts wait; an approver's does", async () => {
    const res = await fx.app.request('/v1/approvals/stream', {
      headers: { authorization: `Bearer ${fx.tokens.overrider}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    await reader?.read(); // `ready`: the channel is open
    expect(await fx.t.warden.approvals.connected('acme', 'overrider')).toBe(true);
    const r = await fx.call('POST', '/v1/decide', fx.tokens.agent, PUSH);
    expect(r.body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
    await reader?.cancel();
    const approver = await fx.app.request('/v1/approvals/stream', {
      headers: { authorization: `Bearer ${fx.tokens.approver}` },
    });
    const approverReader = approver.body?.getReader();
    await approverReader?.read();
    const held = await fx.call('POST', '/v1/decide?wait=0', fx.tokens.agent, PUSH);
    expect(held.body.outcome).toBe('ask');
    await approverReader?.cancel();
    await eventually(async () => !(await fx.t.warden.approvals.connected('acme')));
  });
});

describe('contracts §8: a token bound to a workspace acts in that workspace only', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await open();
  });
  afterEach(async () => {
    await fx.t.cleanup();
  });

  const CROSSINGS: readonly {
    what: string;
    request: (fx: Fixture) => [string, string, unknown?];
    own: (fx: Fixture) => [string, string, unknown?];
    ok: number;
  }[] = [
    {
      what: 'read the policy',
      request: () => ['GET', '/v1/policy?workspace=acme'],
      own: () => ['GET', '/v1/policy'],
      ok: 200,
    },
    {
      what: 'write the policy',
      request: () => ['PUT', '/v1/policy', { document: { ...ACME, rules: [] } }],
      own: () => ['PUT', '/v1/policy', { document: { ...BETA, rules: [] } }],
      ok: 200,
    },
    {
      what: 'list approvals',
      request: () => ['GET', '/v1/approvals?workspace=acme'],
      own: () => ['GET', '/v1/approvals?workspace=beta'],
      ok: 200,
    },
    {
      what: 'read the audit log',
      request: () => ['GET', '/v1/audit?workspace=acme'],
      own: () => ['GET', '/v1/audit'],
      ok: 200,
    },
    {
      what: 'set autonomy',
      request: () => ['PUT', '/v1/spaces/payments?workspace=acme', { autonomy: 'actFreely' }],
      own: () => ['PUT', '/v1/spaces/payments', { autonomy: 'actFreely' }],
      ok: 200,
    },
    {
      what: 'apply a template',
      request: () => ['POST', '/v1/templates/protect-main/apply', { workspace: 'acme' }],
      own: () => ['POST', '/v1/templates/protect-main/apply', {}],
      ok: 200,
    },
    {
      what: 'revoke a remembered rule',
      request: (f) => ['DELETE', `/v1/rules/${f.remembered}?workspace=acme`],
      own: (f) => ['DELETE', `/v1/rules/${f.remembered}`],
      ok: 404,
    },
    {
      what: 'make a token',
      request: () => ['POST', '/v1/tokens', { role: 'viewer', name: 'v2', workspace: 'acme' }],
      own: () => ['POST', '/v1/tokens', { role: 'viewer', name: 'v2' }],
      ok: 201,
    },
    {
      what: 'write the managed layer, which binds every workspace',
      request: () => ['PUT', '/v1/managed', { document: { version: 1, rules: [] } }],
      own: () => ['GET', '/v1/managed'],
      ok: 200,
    },
  ];

  it.each(CROSSINGS)('a beta admin gets 403 to $what for acme, and may in beta', async (c) => {
    const [method, path, body] = c.request(fx);
    const crossed = await fx.call(method, path, fx.tokens.betaAdmin, body);
    expect(crossed.status).toBe(403);
    expect(crossed.body.errors).toEqual([{ path: '', message: expect.any(String) }]);
    const [ownMethod, ownPath, ownBody] = c.own(fx);
    const own = await fx.call(ownMethod, ownPath, fx.tokens.betaAdmin, ownBody);
    expect(own.status, JSON.stringify(own.body)).toBe(c.ok);
    // The unbound admin may do the crossing.
    expect((await fx.call(method, path, fx.tokens.admin, body)).status).toBeLessThan(300);
  });

  it("a bound token does not see another workspace's approvals and tokens, nor answer them", async () => {
    expect((await fx.call('GET', `/v1/approvals/${fx.prompt}`, fx.tokens.betaAdmin)).status).toBe(
      404,
    );
    const answer = await fx.call(
      'POST',
      `/v1/approvals/${fx.prompt}/answer`,
      fx.tokens.betaApprover,
      {
        kind: 'once',
      },
    );
    expect(answer.status).toBe(404);
    const override = await fx.call(
      'POST',
      `/v1/approvals/${fx.soft}/override`,
      fx.tokens.betaAdmin,
      {
        reason: 'mine now',
      },
    );
    expect(override.status).toBe(404);
    for (const id of [fx.prompt, fx.soft])
      expect((await fx.t.warden.store.approvals.get(id))?.state).toBe('pending');
    const tokens = await fx.call('GET', '/v1/tokens', fx.tokens.betaAdmin);
    expect((tokens.body.tokens as J[]).map((t) => t.name).sort()).toEqual([
      'bea',
      'ben',
      'beta-coder',
    ]);
    expect(
      (await fx.call('DELETE', `/v1/tokens/${fx.spareToken}`, fx.tokens.betaAdmin)).status,
    ).toBe(404);
    // A token it makes is bound to its workspace.
    const made = await fx.call('POST', '/v1/tokens', fx.tokens.betaAdmin, {
      role: 'admin',
      name: 'b2',
    });
    expect(made.body.record).toMatchObject({ role: 'admin', workspace: 'beta' });
  });

  it("G22: a bound approver's channel makes prompts wait in its workspace only", async () => {
    const res = await fx.app.request('/v1/approvals/stream', {
      headers: { authorization: `Bearer ${fx.tokens.betaApprover}` },
    });
    const reader = res.body?.getReader();
    await reader?.read();
    const acme = await fx.call('POST', '/v1/decide?wait=0', fx.tokens.agent, PUSH);
    expect(acme.body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
    const beta = await fx.call('POST', '/v1/decide?wait=0', fx.tokens.betaAgent, PUSH);
    expect(beta.body).toMatchObject({ decision: 'prompt', outcome: 'ask' });
    await reader?.cancel();
  });
});
