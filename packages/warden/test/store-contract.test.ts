// One contract, every backend (STYLE 6): SQLite and Postgres run exactly these
// tests. A skip states its reason; under CI a missing Postgres fails.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyChain } from '../src/audit/chain.js';
import type { AuditDraft, Store, StoreEvent } from '../src/store/types.js';
import { BACKENDS } from './support/backends.js';

const T0 = Date.parse('2026-11-30T10:00:00Z');
const HOUR = 3_600_000;

function draft(n: number, over: Partial<AuditDraft> = {}): AuditDraft {
  const id = `e-${String(n).padStart(6, '0')}`;
  const occurredAt = new Date(T0 + n * 1000).toISOString();
  const base = {
    id,
    kind: 'call' as const,
    workspace: 'acme',
    agentId: n % 2 === 0 ? 'coder-1' : 'coder-2',
    runId: 'r-1',
    callId: `c-${n}`,
    decisionId: `d-${n}`,
    tool: n % 3 === 0 ? 'web_fetch' : 'write_file',
    status: n % 5 === 0 ? ('Error' as const) : ('Ok' as const),
    occurredAt,
    ...over,
  };
  return {
    ...base,
    body: {
      id: base.id,
      kind: base.kind,
      workspace: base.workspace,
      callId: base.callId,
      decisionId: base.decisionId,
      runId: base.runId,
      agentId: base.agentId,
      model: 'claude-sonnet-4',
      source: 'library',
      tool: base.tool,
      arguments: { n },
      status: base.status,
      durationMs: n,
      occurredAt,
    },
  };
}

const POLICY = { version: 1, workspace: 'acme', rules: [] };

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== null)(`store contract on ${backend.name}`, () => {
    let store: Store;
    let reopen: () => Promise<Store>;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, reopen, cleanup } = await backend.open());
    });
    afterEach(async () => {
      await cleanup();
    });

    it('migrates on start, and opening again finds the schema current', async () => {
      const again = await reopen();
      expect(await again.audit.head()).toEqual({ seq: 0, hash: '0'.repeat(64) });
      await again.close();
    });

    describe('policies', () => {
      it('keeps every write as a numbered revision with its author and hash', async () => {
        const first = await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
        const second = await store.policies.put('acme', {
          document: { ...POLICY, spaces: { payments: { autonomy: 'actFreely' } } },
          author: 'lead',
          message: 'payments may act freely',
          at: T0 + 1,
        });
        expect(first.ok && second.ok).toBe(true);
        const current = await store.policies.current('acme');
        expect(current?.revision).toBe(2);
        expect(current?.author).toBe('lead');
        expect(current?.message).toBe('payments may act freely');
        expect(current?.hash).toMatch(/^[0-9a-f]{64}$/);
        expect((await store.policies.revision('acme', 1))?.document).toEqual(POLICY);
        expect((await store.policies.history('acme')).map((r) => r.revision)).toEqual([2, 1]);
        expect(await store.policies.workspaces()).toEqual(['acme']);
      });

      it('refuses a write that expects a revision that is no longer current', async () => {
        await store.policies.put('acme', { document: POLICY, author: 'a', at: T0 });
        const stale = await store.policies.put('acme', {
          document: POLICY,
          author: 'b',
          expected: null,
          at: T0,
        });
        expect(stale).toEqual({ ok: false, conflict: { current: 1 } });
        const fresh = await store.policies.put('acme', {
          document: POLICY,
          author: 'b',
          expected: 1,
          at: T0,
        });
        expect(fresh.ok).toBe(true);
      });

      it('keeps the managed layer apart from every workspace, and counts changes per key', async () => {
        expect(await store.stateVersion('acme')).toBe(0);
        await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
        await store.policies.putManaged({
          document: { version: 1, rules: [] },
          author: 'it',
          at: T0,
        });
        expect(await store.stateVersion('acme')).toBe(1);
        expect(await store.stateVersion(null)).toBe(1);
        expect((await store.policies.currentManaged())?.revision).toBe(1);
        expect(await store.policies.workspaces()).toEqual(['acme']);
      });
    });

    describe('stored rules', () => {
      const rule = (id: string, expiresAt: string | null) => ({
        id,
        workspace: 'acme',
        rule: {
          id,
          scope: 'agent:coder-1',
          action: 'gitPush',
          decision: 'allow',
          origin: 'remembered',
        },
        scope: 'agent:coder-1',
        origin: 'remembered' as const,
        createdAt: new Date(T0).toISOString(),
        createdBy: 'alice',
        expiresAt,
        approvalId: 'a-1',
      });

      it('lists live rules with origin and expiry, and forgets expired ones at a given time (G12, G23)', async () => {
        await store.rules.add([
          rule('rem-1', new Date(T0 + 8 * HOUR).toISOString()),
          rule('rem-2', new Date(T0 + HOUR).toISOString()),
        ]);
        const all = await store.rules.list('acme');
        expect(all.map((r) => [r.id, r.origin, r.createdBy])).toEqual([
          ['rem-1', 'remembered', 'alice'],
          ['rem-2', 'remembered', 'alice'],
        ]);
        expect((await store.rules.list('acme', { at: T0 + 2 * HOUR })).map((r) => r.id)).toEqual([
          'rem-1',
        ]);
        expect(await store.stateVersion('acme')).toBe(1);
      });

      it('revokes a rule once; a second revocation finds nothing (G23)', async () => {
        await store.rules.add([rule('rem-1', null)]);
        const revoked = await store.rules.revoke('acme', 'rem-1', 'bob', T0 + 5);
        expect(revoked?.revokedBy).toBe('bob');
        expect(await store.rules.revoke('acme', 'rem-1', 'bob', T0 + 6)).toBeNull();
        expect(await store.rules.list('acme')).toEqual([]);
        expect((await store.rules.list('acme', { includeRevoked: true })).length).toBe(1);
        expect(await store.stateVersion('acme')).toBe(2);
      });
    });

    it('upserts agents and lists them per workspace', async () => {
      await store.agents.upsert(
        {
          workspace: 'acme',
          id: 'coder-1',
          name: 'Coder',
          role: 'coder',
          space: 'payments',
          model: 'm1',
        },
        T0,
      );
      const updated = await store.agents.upsert(
        {
          workspace: 'acme',
          id: 'coder-1',
          name: 'Coder',
          role: 'coder',
          space: 'web',
          model: 'm2',
        },
        T0 + 10,
      );
      expect(updated.space).toBe('web');
      expect(updated.createdAt).toBe(new Date(T0).toISOString());
      expect(updated.updatedAt).toBe(new Date(T0 + 10).toISOString());
      expect((await store.agents.list('acme')).map((a) => a.id)).toEqual(['coder-1']);
      expect(await store.agents.list('other')).toEqual([]);
    });

    describe('approvals', () => {
      const approval = (id: string, kind: 'prompt' | 'override' = 'prompt') => ({
        id,
        workspace: 'acme',
        agent: 'coder-1',
        kind,
        tool: 'git_push',
        callId: `c-${id}`,
        decisionId: `d-${id}`,
        request: { workspace: 'acme', agent: 'coder-1', actions: ['gitPush' as const] },
        decision: {
          decision: 'prompt' as const,
          outcome: 'ask' as const,
          rule: 'default:gitPush',
          scope: 'default',
          enforcement: null,
          overridable: false,
          prompts: ['gitPush'],
          facets: [],
          managed: null,
          managedSource: null,
          advisories: [],
          reason: 'asks',
        },
        offer: null,
        fingerprint: 'fp-1',
        arguments: { ref: 'x' },
        stamp: { runId: 'r-1', model: 'm1', source: 'library' },
        createdAt: new Date(T0).toISOString(),
        expiresAtMs: T0 + 60_000,
      });

      it('settles a pending approval exactly once, whoever comes second loses (G22)', async () => {
        await store.approvals.create(approval('a-1'));
        expect(
          (await store.approvals.list({ workspace: 'acme', state: 'pending' })).map((a) => a.id),
        ).toEqual(['a-1']);
        const won = await store.approvals.settle('a-1', {
          state: 'approved',
          answer: { kind: 'once', by: 'alice', reason: null },
          closedReason: null,
          at: T0 + 5,
        });
        expect(won?.state).toBe('approved');
        expect(won?.answer?.by).toBe('alice');
        const lost = await store.approvals.settle('a-1', {
          state: 'expired',
          answer: null,
          closedReason: 'no answer in time',
          at: T0 + 6,
        });
        expect(lost).toBeNull();
        expect((await store.approvals.get('a-1'))?.state).toBe('approved');
      });

      it('settles an answer only before the approval expires, and its rules only with it (G22, G23)', async () => {
        await store.approvals.create(approval('a-2'));
        const rule = {
          id: 'rem-1',
          workspace: 'acme',
          rule: { id: 'rem-1', action: 'gitPush', decision: 'allow', origin: 'remembered' },
          scope: 'workspace',
          origin: 'remembered' as const,
          createdAt: new Date(T0).toISOString(),
          createdBy: 'alice',
          expiresAt: null,
          approvalId: 'a-2',
        };
        const answer = { kind: 'remember' as const, by: 'alice', reason: null };
        const late = await store.approvals.settle('a-2', {
          state: 'approved',
          answer,
          closedReason: null,
          at: T0 + 60_000,
          beforeExpiry: true,
          rules: [rule],
        });
        expect(late).toBeNull();
        expect(await store.rules.list('acme')).toEqual([]);
        const version = await store.stateVersion('acme');
        const settled = await store.approvals.settle('a-2', {
          state: 'approved',
          answer,
          closedReason: null,
          at: T0 + 1000,
          beforeExpiry: true,
          rules: [rule],
        });
        expect(settled?.state).toBe('approved');
        expect((await store.rules.list('acme')).map((r) => r.id)).toEqual(['rem-1']);
        expect(await store.stateVersion('acme')).toBe(version + 1);
        expect((await store.approvals.get('a-2'))?.arguments).toEqual({ ref: 'x' });
      });

      it('lets a granted override through once, and only for its own request (G26)', async () => {
        await store.approvals.create(approval('o-1', 'override'));
        await store.approvals.settle('o-1', {
          state: 'approved',
          answer: { kind: 'override', by: 'olga', reason: 'hotfix' },
          closedReason: null,
          at: T0 + 10,
        });
        expect(await store.approvals.consumeOverride('acme', 'other', T0, T0 + 20)).toBeNull();
        expect(await store.approvals.consumeOverride('acme', 'fp-1', T0 + 11, T0 + 20)).toBeNull();
        const used = await store.approvals.consumeOverride('acme', 'fp-1', T0, T0 + 20);
        expect(used?.id).toBe('o-1');
        expect(used?.usedAt).not.toBeNull();
        expect(await store.approvals.consumeOverride('acme', 'fp-1', T0, T0 + 21)).toBeNull();
      });
    });

    it('sees approvers whose channel beat recently, per role and workspace (G22)', async () => {
      await store.presence.beat({
        id: 'p-1',
        workspace: 'acme',
        name: 'alice',
        roles: ['approver'],
        node: 'n1',
        lastSeenMs: T0,
      });
      await store.presence.beat({
        id: 'p-2',
        workspace: null,
        name: 'olga',
        roles: ['approver', 'overrider'],
        node: 'n2',
        lastSeenMs: T0 - 10_000,
      });
      expect((await store.presence.live('acme', 'approver', T0 - 5000)).map((p) => p.name)).toEqual(
        ['alice'],
      );
      expect(
        (await store.presence.live('other', 'approver', T0 - 5000)).map((p) => p.name),
      ).toEqual([]);
      await store.presence.beat({
        id: 'p-2',
        workspace: null,
        name: 'olga',
        roles: ['approver', 'overrider'],
        node: 'n2',
        lastSeenMs: T0,
      });
      expect(
        (await store.presence.live('other', 'overrider', T0 - 5000)).map((p) => p.name),
      ).toEqual(['olga']);
      await store.presence.remove('p-1');
      expect((await store.presence.live('acme', 'approver', T0 - 5000)).map((p) => p.name)).toEqual(
        ['olga'],
      );
    });

    describe('audit', () => {
      it('chains appended entries from the zero hash, and the chain verifies', async () => {
        const written = await store.audit.append([draft(1), draft(2), draft(3)]);
        expect(written[0]?.prevHash).toBe('0'.repeat(64));
        expect(written[1]?.prevHash).toBe(written[0]?.hash);
        const head = await store.audit.head();
        expect(head).toEqual({ seq: 3, hash: written[2]?.hash });
        const items = [];
        for await (const { seq, entry } of store.audit.scan()) items.push({ entry, position: seq });
        expect(await verifyChain(items, head)).toMatchObject({ ok: true, entries: 3 });
        expect(await store.audit.get('e-000002')).toEqual(written[1]);
      });

      it('answers queries by agent, status, tool and window, newest first, with a limit', async () => {
        await store.audit.append(Array.from({ length: 30 }, (_, i) => draft(i + 1)));
        const errors = await store.audit.query({ agent: 'coder-2', statuses: ['Error'] });
        expect(errors.map((e) => e.id)).toEqual(['e-000025', 'e-000015', 'e-000005']);
        const window = await store.audit.query({
          sinceMs: T0 + 10_000,
          untilMs: T0 + 13_000,
          order: 'oldest',
        });
        expect(window.map((e) => e.id)).toEqual(['e-000010', 'e-000011', 'e-000012']);
        expect((await store.audit.query({ tool: 'web_fetch', limit: 2 })).map((e) => e.id)).toEqual(
          ['e-000030', 'e-000027'],
        );
      });

      it('counts by tool and status over the whole window, whatever the limit (I-§4, A4)', async () => {
        await store.audit.append(Array.from({ length: 30 }, (_, i) => draft(i + 1)));
        const groups = await store.audit.group({ agent: 'coder-1' }, ['tool', 'status']);
        const total = groups.reduce((sum, g) => sum + g.count, 0);
        expect(total).toBe(15);
        expect(groups).toContainEqual({ tool: 'web_fetch', status: 'Error', count: 1 });
        expect(await store.audit.group({ statuses: ['Error'] }, [])).toEqual([{ count: 6 }]);
      });

      it('keeps one valid chain when two store instances append at the same time', async () => {
        const other = await reopen();
        try {
          const batches = Array.from({ length: 20 }, (_, b) =>
            Array.from({ length: 5 }, (_, i) => draft(b * 5 + i + 1)),
          );
          await Promise.all(
            batches.map((batch, b) => (b % 2 === 0 ? store : other).audit.append(batch)),
          );
          const items = [];
          for await (const { seq, entry } of store.audit.scan(1, 7))
            items.push({ entry, position: seq });
          expect(items.length).toBe(100);
          expect(await verifyChain(items, await store.audit.head())).toMatchObject({ ok: true });
        } finally {
          await other.close();
        }
      });
    });

    describe('runs', () => {
      const run = (id: string, budgetCents: number | null) => ({
        id,
        workspace: 'acme',
        agent: 'coder-1',
        model: 'm1',
        taskId: 't-1',
        parentRunId: null,
        chain: ['coder-1'],
        depth: 0,
        autonomy: 'actWithApproval' as const,
        budgetCents,
        startedAt: new Date(T0).toISOString(),
      });

      it('adds steps to a run and keeps its totals of tokens and cost (I2)', async () => {
        await store.runs.start(run('r-1', 1000));
        await store.runs.addStep({
          runId: 'r-1',
          kind: 'model',
          tool: null,
          tokensIn: 100,
          tokensOut: 20,
          costCents: 3,
          at: new Date(T0).toISOString(),
          note: null,
        });
        const second = await store.runs.addStep({
          runId: 'r-1',
          kind: 'tool',
          tool: 'web_fetch',
          tokensIn: 0,
          tokensOut: 0,
          costCents: 1,
          at: new Date(T0 + 1).toISOString(),
          note: 'fetched',
        });
        expect(second.seq).toBe(2);
        const got = await store.runs.get('r-1');
        expect(got).toMatchObject({
          steps: 2,
          tokensIn: 100,
          tokensOut: 20,
          costCents: 4,
          taskId: 't-1',
          status: 'running',
        });
        expect((await store.runs.steps('r-1')).map((s) => s.tool)).toEqual([null, 'web_fetch']);
        expect((await store.runs.finish('r-1', 'done', T0 + 99))?.status).toBe('done');
        expect((await store.runs.list({ agent: 'coder-1' })).map((r) => r.id)).toEqual(['r-1']);
      });

      it('debits delegations from the frame and never beyond it, even when they race (G36)', async () => {
        await store.runs.start(run('r-1', 100));
        await store.runs.addStep({
          runId: 'r-1',
          kind: 'model',
          tool: null,
          tokensIn: 0,
          tokensOut: 0,
          costCents: 40,
          at: new Date(T0).toISOString(),
          note: null,
        });
        const results = await Promise.all(
          Array.from({ length: 5 }, () => store.runs.debit('r-1', 20)),
        );
        expect(results.filter(Boolean).length).toBe(3);
        expect((await store.runs.get('r-1'))?.delegatedCents).toBe(60);
        await store.runs.start(run('r-free', null));
        expect(await store.runs.debit('r-free', 5000)).toBe(true);
      });
    });

    it('G2: claims a grant once, whoever comes second loses, also from a second store instance', async () => {
      const at = new Date(T0);
      const again = await reopen();
      try {
        const claims = await Promise.all([
          ...Array.from({ length: 4 }, () => store.grants.claim('d-1', at)),
          ...Array.from({ length: 4 }, () => again.grants.claim('d-1', at)),
        ]);
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect(await again.grants.claim('d-1', at)).toBe(false);
        expect(await store.grants.claim('d-2', at)).toBe(true);
      } finally {
        await again.close();
      }
    });

    it('derives overdue from the due date and the time of reading', async () => {
      await store.tasks.create({
        id: 't-1',
        workspace: 'acme',
        agent: 'coder-1',
        title: 'fix login',
        dueAt: new Date(T0 + HOUR).toISOString(),
        createdAt: new Date(T0).toISOString(),
        note: null,
      });
      await store.tasks.create({
        id: 't-2',
        workspace: 'acme',
        agent: 'coder-1',
        title: 'docs',
        dueAt: null,
        createdAt: new Date(T0).toISOString(),
        note: null,
      });
      expect(
        (await store.tasks.list({ agent: 'coder-1', state: 'overdue', at: T0 })).map((t) => t.id),
      ).toEqual([]);
      const later = T0 + 2 * HOUR;
      expect(
        (await store.tasks.list({ agent: 'coder-1', state: 'overdue', at: later })).map(
          (t) => t.id,
        ),
      ).toEqual(['t-1']);
      expect((await store.tasks.get('t-1', later))?.overdue).toBe(true);
      await store.tasks.update('t-1', { state: 'done' }, later);
      expect((await store.tasks.get('t-1', later))?.overdue).toBe(false);
      expect(
        (await store.tasks.list({ agent: 'coder-1', state: 'done', at: later })).map(
          (t) => t.doneAt,
        ),
      ).toEqual([new Date(later).toISOString()]);
      expect(
        (await store.tasks.list({ agent: 'coder-1', state: 'open', at: later })).map((t) => t.id),
      ).toEqual(['t-2']);
    });

    it('tells subscribers of a policy change', async () => {
      const seen: StoreEvent[] = [];
      const other = await reopen();
      try {
        const heard = new Promise<void>((resolve) => {
          other.events.subscribe((event) => {
            seen.push(event);
            if (event.topic === 'policy') resolve();
          });
        });
        await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
        await heard;
        expect(seen).toContainEqual({ topic: 'policy', workspace: 'acme' });
      } finally {
        await other.close();
      }
    });
  });
}
