// Where an agent acts (contracts §8, clarified; I1): the space and the mode
// come from its token (`--space`, `--mode`), else from its registration
// (`PUT /v1/agents/:id`), else it acts in none — never from the request body.
// A body may leave them out (they are filled) or repeat them; one that names
// another is 403, so an agent cannot pick a freer space (`actFreely`, G32) or
// drop its mode's command net (E14). Each refusal is tested next to the
// request that passes, so a 403 means the boundary and not a broken route.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wardenInProcess } from '../helpers.js';
import { BACKENDS, tempDir } from '../support/backends.js';
import { makeToken, openTestServer } from '../support/server.js';
import type { TokenBinding } from '../support/server.js';
import { auditLog } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

type J = Record<string, unknown>;

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: {
    sandbox: { autonomy: 'actFreely' },
    strict: { autonomy: 'proposeOnly' },
    plain: {},
  },
  modes: { review: { commandNet: ['git push --force'] }, ship: {} },
  rules: [{ id: 'ask-push', action: 'gitPush', decision: 'prompt' }],
};

const PUSH = { tool: 'git_push', actions: ['gitPush'], args: { refs: ['feature/x'] } };
const FORCE = { tool: 'shell', command: 'git push --force origin feature/x' };

interface Answer {
  readonly status: number;
  readonly body: J;
}

interface Fixture {
  readonly t: TestWarden;
  readonly tokens: {
    readonly admin: string;
    readonly viewer: string;
    /** acme/coder-1, bound to no space and no mode: the attacker of the issue. */
    readonly free: string;
    /** acme/coder-2, bound to space `strict`. */
    readonly strict: string;
    /** acme/coder-3, bound to mode `review`. */
    readonly review: string;
    /** acme/coder-4, bound to space `sandbox`: what the free token tried to reach. */
    readonly sandbox: string;
  };
  call(method: string, path: string, token: string, body?: unknown): Promise<Answer>;
  register(agent: string, body: J): Promise<Answer>;
}

async function open(): Promise<Fixture> {
  const server = await openTestServer(POLICY, {
    warden: { approvals: { timeoutMs: 60_000, pollMs: 20 } },
  });
  const { t, token, call } = server;
  const agent = (id: string, binding: TokenBinding = {}) =>
    token('agent', id, { workspace: 'acme', agent: id, ...binding });
  const tokens = {
    admin: server.tokens.admin,
    viewer: server.tokens.viewer,
    free: await agent('coder-1'),
    strict: await agent('coder-2', { space: 'strict' }),
    review: await agent('coder-3', { mode: 'review' }),
    sandbox: await agent('coder-4', { space: 'sandbox' }),
  };
  return {
    t,
    tokens,
    call,
    register: (id, body) => call('PUT', `/v1/agents/${id}`, tokens.admin, body),
  };
}

const message = (answer: Answer): string =>
  ((answer.body.errors as { message: string }[] | undefined) ?? [])
    .map((e) => e.message)
    .join('; ');

let f: Fixture;
beforeEach(async () => {
  f = await open();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await f.t.cleanup();
});

const decide = (token: string, body: J) => f.call('POST', '/v1/decide?wait=0', token, body);

describe('contracts §8: an agent cannot pick its own space', () => {
  it('the example: a token made without --space that names `sandbox` gets 403, not actFreely', async () => {
    // The boundary is real: a token bound to `sandbox` does get actFreely (G32) for the same push.
    const bound = await decide(f.tokens.sandbox, PUSH);
    expect(bound.body).toMatchObject({ outcome: 'allow', rule: 'autonomy:actFreely' });

    const before = (await auditLog(f.t.warden.store)).length;
    const picked = await decide(f.tokens.free, { ...PUSH, space: 'sandbox' });
    expect(picked.status).toBe(403);
    expect(message(picked)).toBe(
      'agent `coder-1` acts in no space (neither its token nor its registration names one), so the request may not name space `sandbox`: an admin places an agent in a space with its token (`--space`) or its registration (`PUT /v1/agents/:id`)',
    );
    // Nothing was decided for the refused request.
    expect((await auditLog(f.t.warden.store)).length).toBe(before);

    // Without the body's space the push is a prompt, and with no approver it is denied (G22).
    const plain = await decide(f.tokens.free, PUSH);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
  });

  it('after registration in a stricter space: the freer space in the body is 403; left out, the registered space and its autonomy apply', async () => {
    expect((await f.register('coder-1', { space: 'strict' })).status).toBe(200);
    const picked = await decide(f.tokens.free, { ...PUSH, space: 'sandbox' });
    expect(picked.status).toBe(403);
    expect(message(picked)).toContain(
      'agent `coder-1` is registered in space `strict`, so the request may not name space `sandbox`',
    );
    const omitted = await decide(f.tokens.free, PUSH);
    expect(omitted.status).toBe(200);
    expect(omitted.body).toMatchObject({ decision: 'deny', rule: 'autonomy:proposeOnly' });
    const entry = (await auditLog(f.t.warden.store)).find((e) => e.id === omitted.body.auditId);
    expect(entry?.request).toMatchObject({ space: 'strict' });
    // Repeating the registered space is fine, and decides the same.
    const repeated = await decide(f.tokens.free, { ...PUSH, space: 'strict' });
    expect(repeated.status).toBe(200);
    expect(repeated.body).toMatchObject({ decision: 'deny', rule: 'autonomy:proposeOnly' });
  });

  it('a registration change holds from the next request on (no stale placement)', async () => {
    await f.register('coder-1', { space: 'sandbox' });
    expect((await decide(f.tokens.free, PUSH)).body).toMatchObject({
      outcome: 'allow',
      rule: 'autonomy:actFreely',
    });
    await f.register('coder-1', { space: 'strict' });
    expect((await decide(f.tokens.free, PUSH)).body).toMatchObject({
      decision: 'deny',
      rule: 'autonomy:proposeOnly',
    });
    expect((await decide(f.tokens.free, { ...PUSH, space: 'sandbox' })).status).toBe(403);
    // Taken out of every space, it acts in none: the push is a prompt again, and `strict` is no longer its own.
    await f.register('coder-1', { space: null });
    expect((await decide(f.tokens.free, PUSH)).body).toMatchObject({
      decision: 'prompt',
      outcome: 'deny',
    });
    expect((await decide(f.tokens.free, { ...PUSH, space: 'strict' })).status).toBe(403);
  });

  it("a token's space wins over the registration: filled when left out, repeated fine, anything else 403", async () => {
    await f.register('coder-2', { space: 'sandbox' });
    const omitted = await decide(f.tokens.strict, PUSH);
    expect(omitted.body).toMatchObject({ decision: 'deny', rule: 'autonomy:proposeOnly' });
    expect((await decide(f.tokens.strict, { ...PUSH, space: 'strict' })).status).toBe(200);
    const registered = await decide(f.tokens.strict, { ...PUSH, space: 'sandbox' });
    expect(registered.status).toBe(403);
    expect(message(registered)).toContain(
      'this token is bound to space `strict`, so the request may not name space `sandbox`',
    );
  });

  it('GET /v1/me tells an agent where it acts now and why: token, registration or none', async () => {
    const me = async (token: string) =>
      (await f.call('GET', '/v1/me', token)).body.placement as J | undefined;
    expect(await me(f.tokens.free)).toEqual({
      space: null,
      spaceBy: null,
      mode: null,
      modeBy: null,
    });
    await f.register('coder-1', { space: 'strict', mode: 'review' });
    expect(await me(f.tokens.free)).toEqual({
      space: 'strict',
      spaceBy: 'registration',
      mode: 'review',
      modeBy: 'registration',
    });
    await f.register('coder-2', { space: 'sandbox', mode: 'ship' });
    expect(await me(f.tokens.strict)).toEqual({
      space: 'strict',
      spaceBy: 'token',
      mode: 'ship',
      modeBy: 'registration',
    });
    expect(await me(f.tokens.viewer)).toBeUndefined();
  });

  it('the workspace and the agent stay the token’s: a body naming others is 403 with a sentence', async () => {
    const workspace = await decide(f.tokens.free, { ...PUSH, workspace: 'beta' });
    expect(workspace.status).toBe(403);
    expect(message(workspace)).toBe(
      'this token acts in workspace `acme`, so the request may not name workspace `beta`',
    );
    const agent = await decide(f.tokens.free, { ...PUSH, agent: 'coder-2' });
    expect(agent.status).toBe(403);
    expect(message(agent)).toBe(
      'this token is agent `coder-1`, so the request may not name agent `coder-2`',
    );
    expect(
      (await decide(f.tokens.free, { ...PUSH, workspace: 'acme', agent: 'coder-1' })).status,
    ).toBe(200);
  });

  it('fail-closed: when the registration cannot be read, the request is refused (503), never decided in no space', async () => {
    await f.register('coder-1', { space: 'strict' });
    vi.spyOn(f.t.warden.store.agents, 'get').mockRejectedValue(new Error('disk gone'));
    const answer = await decide(f.tokens.free, PUSH);
    expect(answer.status).toBe(503);
    expect(answer.body.outcome).not.toBe('allow');
    expect(JSON.stringify(answer.body)).toContain(
      'cannot read the registration of agent `coder-1`',
    );
    // A token bound to a space and a mode needs no registration: it is decided as bound.
    const both = await makeToken(f.t.warden.store.tokens, 'agent', 'both', {
      workspace: 'acme',
      agent: 'coder-1',
      space: 'strict',
      mode: 'ship',
    });
    const bound = await decide(both.token, PUSH);
    expect(bound.status).toBe(200);
    expect(bound.body).toMatchObject({ decision: 'deny', rule: 'autonomy:proposeOnly' });
  });
});

describe("contracts §8: an agent cannot drop its mode's net", () => {
  it('a token bound to `review`: a body that leaves the mode out gets the net; one naming another mode is 403', async () => {
    const omitted = await decide(f.tokens.review, FORCE);
    expect(omitted.status).toBe(200);
    expect(omitted.body).toMatchObject({ decision: 'deny', rule: 'modeNet:review' });
    const repeated = await decide(f.tokens.review, { ...FORCE, mode: 'review' });
    expect(repeated.body).toMatchObject({ decision: 'deny', rule: 'modeNet:review' });
    const dropped = await decide(f.tokens.review, { ...FORCE, mode: 'ship' });
    expect(dropped.status).toBe(403);
    expect(message(dropped)).toContain(
      'this token is bound to mode `review`, so the request may not name mode `ship`',
    );
  });

  it('a registered mode holds like a bound one (PUT /v1/agents/:id takes `mode`)', async () => {
    const registered = await f.register('coder-1', { mode: 'review' });
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({ id: 'coder-1', mode: 'review', space: null });
    const listed = await f.call('GET', '/v1/agents', f.tokens.viewer);
    expect(listed.body.agents).toEqual([
      expect.objectContaining({ id: 'coder-1', mode: 'review', registered: true }),
    ]);
    expect((await decide(f.tokens.free, FORCE)).body).toMatchObject({
      decision: 'deny',
      rule: 'modeNet:review',
    });
    const dropped = await decide(f.tokens.free, { ...FORCE, mode: 'ship' });
    expect(dropped.status).toBe(403);
    expect(message(dropped)).toContain(
      'agent `coder-1` is registered in mode `review`, so the request may not name mode `ship`',
    );
  });

  it('a body that names a mode when neither token nor registration has one is 403', async () => {
    const named = await decide(f.tokens.free, { ...FORCE, mode: 'review' });
    expect(named.status).toBe(403);
    expect(message(named)).toContain(
      'agent `coder-1` acts in no mode (neither its token nor its registration names one), so the request may not name mode `review`',
    );
    // Without it, no net: the command is decided by the rules (a push prompts, denied without an approver).
    expect((await decide(f.tokens.free, FORCE)).body).toMatchObject({ decision: 'prompt' });
  });
});

describe('contracts §8: every route an agent token acts on places it the same way', () => {
  it('POST /v1/what-if as an agent answers for its own space and mode, and refuses another', async () => {
    await f.register('coder-1', { space: 'strict' });
    const asked = (request: J) => f.call('POST', '/v1/what-if', f.tokens.free, { request });
    const omitted = await asked(PUSH);
    expect(omitted.status).toBe(200);
    expect(omitted.body).toMatchObject({ decision: 'deny', rule: 'autonomy:proposeOnly' });
    const picked = await asked({ ...PUSH, space: 'sandbox' });
    expect(picked.status).toBe(403);
    expect((await asked({ ...PUSH, mode: 'review' })).status).toBe(403);
  });

  it('POST /v1/what-if as a human: any space may be asked about; one left out is the registered one', async () => {
    await f.register('coder-1', { space: 'strict' });
    const asked = (request: J) =>
      f.call('POST', '/v1/what-if', f.tokens.viewer, {
        request: { workspace: 'acme', agent: 'coder-1', ...request },
        approver: 'none',
      });
    expect((await asked(PUSH)).body).toMatchObject({ rule: 'autonomy:proposeOnly' });
    expect((await asked({ ...PUSH, space: 'sandbox' })).body).toMatchObject({
      outcome: 'allow',
      rule: 'autonomy:actFreely',
    });
  });

  it('POST /v1/runs starts a run at the autonomy of the registered space', async () => {
    const before = await f.call('POST', '/v1/runs', f.tokens.free, {});
    expect(before.body).toMatchObject({ autonomy: 'actWithApproval' });
    await f.register('coder-1', { space: 'strict' });
    const after = await f.call('POST', '/v1/runs', f.tokens.free, {});
    expect(after.status).toBe(201);
    expect(after.body).toMatchObject({ agent: 'coder-1', autonomy: 'proposeOnly' });
  });

  it('POST /v1/delegate: the delegator acts at what its registered space allows now (G35)', async () => {
    await f.register('coder-9', { space: 'plain' });
    const run = await f.call('POST', '/v1/runs', f.tokens.free, { budgetCents: 100 });
    const ask = {
      runId: run.body.id,
      target: 'coder-9',
      budgetCents: 10,
      autonomy: 'actWithApproval',
    };
    const fine = await f.call('POST', '/v1/delegate', f.tokens.free, ask);
    expect(fine.body).toMatchObject({ ok: true });
    // Moved into a stricter space, it can no longer hand on what it no longer has.
    await f.register('coder-1', { space: 'strict' });
    const refused = await f.call('POST', '/v1/delegate', f.tokens.free, ask);
    expect(refused.body).toMatchObject({ ok: false, guard: 'autonomy' });
  });

  it('a prompt an agent raises is asked for the space it acts in, not one it named', async () => {
    await f.register('coder-1', { space: 'plain' });
    const channel = await f.t.warden.approvals.connect({ name: 'al', roles: ['approver'] });
    try {
      const asked = await decide(f.tokens.free, PUSH);
      expect(asked.body).toMatchObject({ outcome: 'ask' });
      const approval = await f.call(
        'GET',
        `/v1/approvals/${String(asked.body.approvalId)}`,
        f.tokens.viewer,
      );
      expect(approval.body.request).toMatchObject({ space: 'plain' });
      expect((await decide(f.tokens.free, { ...PUSH, space: 'sandbox' })).status).toBe(403);
    } finally {
      await channel.close();
    }
  });

  it('POST /v1/audit takes no space or mode: a report naming one is refused and nothing is recorded', async () => {
    const decided = await decide(f.tokens.free, { tool: 'git_commit', actions: ['gitCommit'] });
    expect(decided.body.outcome).toBe('allow');
    const before = (await auditLog(f.t.warden.store)).length;
    const report = await f.call('POST', '/v1/audit', f.tokens.free, {
      auditId: decided.body.auditId,
      status: 'Ok',
      space: 'sandbox',
    });
    expect(report.status).toBe(400);
    expect((await auditLog(f.t.warden.store)).length).toBe(before);
    const plain = await f.call('POST', '/v1/audit', f.tokens.free, {
      auditId: decided.body.auditId,
      status: 'Ok',
    });
    expect(plain.status).toBe(201);
  });
});

describe('the registered mode is stored (contracts §8)', () => {
  for (const backend of BACKENDS) {
    it.skipIf(backend.skip !== null)(
      `${backend.name}: upsert keeps the mode, and a left-out mode is none`,
      async () => {
        const { store, cleanup } = await backend.open();
        try {
          const at = Date.parse('2026-11-30T12:00:00Z');
          const base = { workspace: 'acme', id: 'a', name: null, role: null, model: null };
          const made = await store.agents.upsert({ ...base, space: 'strict', mode: 'review' }, at);
          expect(made).toMatchObject({ space: 'strict', mode: 'review' });
          expect(await store.agents.get('acme', 'a')).toMatchObject({ mode: 'review' });
          const replaced = await store.agents.upsert({ ...base, space: 'strict' }, at + 1);
          expect(replaced.mode).toBeNull();
        } finally {
          await cleanup();
        }
      },
    );
  }
});

describe('warden token create says where an agent token acts (contracts §4, §8)', () => {
  it('a token without --space or --mode is told it acts in its registration; a bound one is not', async () => {
    const data = tempDir('warden-token-');
    const base = ['token', 'create', '--role', 'agent', '--workspace', 'acme', '--data', data];
    const free = await wardenInProcess([...base, '--name', 'free', '--agent', 'coder-1']);
    expect(free.code).toBe(0);
    expect(free.stderr).toContain(
      'it binds no space and mode: the agent acts in the space and mode it is registered in (`PUT /v1/agents/coder-1`), else in none, and a request may not name another',
    );
    const half = await wardenInProcess([
      ...base,
      ...['--name', 'half', '--agent', 'coder-2', '--space', 'strict'],
    ]);
    expect(half.stderr).toContain(
      'it binds no mode: the agent acts in the mode it is registered in',
    );
    const bound = await wardenInProcess([
      ...base,
      ...['--name', 'bound', '--agent', 'coder-3', '--space', 'strict', '--mode', 'review'],
    ]);
    expect(bound.code).toBe(0);
    expect(bound.stderr).not.toContain('registered in');
  });
});
