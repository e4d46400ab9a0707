// "A 2xx means durable" (contracts §8): an acknowledged `/v1/decide` or
// `/v1/audit` names an audit entry that is in the store, whatever happens to
// the database mid-burst. The database is cut for real — Postgres behind a TCP
// proxy that drops every connection, Postgres backends killed with
// pg_terminate_backend, SQLite refusing writes through a trigger — while a
// burst of decisions runs against a real HTTP server. Every answer is either
// a 2xx whose entry is stored after recovery, or a 503 deny without `auditId`
// whose `failure` says it is not recorded; never a bare 500. The chain goes on
// from the last committed entry and verifies.

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/audit/chain.js';
import type { ChainItem } from '../../src/audit/chain.js';
import { AuditWriter } from '../../src/audit/writer.js';
import { createApp } from '../../src/server/app.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { AuditDraft, Store } from '../../src/store/types.js';
import { Warden } from '../../src/warden.js';
import { callDraft } from '../support/audit.js';
import { makeToken } from '../support/server.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  tempDir,
  uniqueSchema,
} from '../support/backends.js';
import { pgProxy } from '../support/pg-proxy.js';

type J = Record<string, unknown>;

const POLICY = { version: 1, workspace: 'acme', rules: [] };
const COMMIT = { tool: 'git_commit', actions: ['gitCommit'] };

interface Answer {
  readonly status: number;
  readonly body: J;
}

interface Harness {
  readonly warden: Warden;
  readonly url: string;
  readonly token: string;
  post(path: string, body: unknown): Promise<Answer>;
  close(): Promise<void>;
}

/** A real HTTP server on a Warden over `store`, and an agent token. */
async function harness(store: Store): Promise<Harness> {
  const warden = await Warden.open({ store, env: { WARDEN_LOG_LEVEL: 'silent' } });
  const written = await warden.putPolicy(POLICY, { author: 'test' });
  if (!written.ok) throw new Error('test policy is not valid');
  const made = await makeToken(store.tokens, 'agent', 'coder', {
    workspace: 'acme',
    agent: 'coder-1',
  });
  const { app } = createApp({
    warden,
    logger: pino({ level: 'silent' }),
    version: '0.0.0-test',
    clock: Date.now,
    node: 'test:0',
  });
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(started as Server),
    ) as Server;
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (path: string, body: unknown): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: J = {};
    try {
      parsed = JSON.parse(text) as J;
    } catch {
      parsed = { text };
    }
    return { status: res.status, body: parsed };
  };
  return {
    warden,
    url,
    token: made.token,
    post,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await warden.close();
    },
  };
}

/**
 * Fires decisions in waves of `width` for `ms`, calling `fault` once after
 * `faultAt` ms and `recover` after `recoverAt` ms; returns every answer.
 */
async function burst(
  h: Harness,
  options: {
    readonly ms: number;
    readonly width: number;
    readonly faultAt: number;
    readonly recoverAt: number;
    readonly fault: () => void | Promise<void>;
    readonly recover: () => void | Promise<void>;
  },
): Promise<Answer[]> {
  const answers: Answer[] = [];
  const started = Date.now();
  let faulted = false;
  let recovered = false;
  let n = 0;
  while (Date.now() - started < options.ms) {
    const at = Date.now() - started;
    if (!faulted && at >= options.faultAt) {
      faulted = true;
      await options.fault();
    }
    if (!recovered && at >= options.recoverAt) {
      recovered = true;
      await options.recover();
    }
    const wave = Array.from({ length: options.width }, () =>
      h.post('/v1/decide', { ...COMMIT, callId: `c-${n++}` }),
    );
    answers.push(...(await Promise.all(wave)));
  }
  if (!recovered) await options.recover();
  return answers;
}

/** Every answer is a recorded 200 or an unrecorded 503 deny (contracts §8); never a bare 500. */
function expectHonest(answers: readonly Answer[]): { acked: string[]; refused: Answer[] } {
  const acked: string[] = [];
  const refused: Answer[] = [];
  for (const answer of answers) {
    if (answer.status === 200) {
      expect(answer.body.auditId, JSON.stringify(answer.body)).toEqual(expect.any(String));
      acked.push(answer.body.auditId as string);
      continue;
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.body.outcome).toBe('deny');
    expect(answer.body.decision).toBe('deny');
    expect(answer.body).not.toHaveProperty('auditId');
    expect(answer.body.failure).toEqual(expect.stringContaining('not recorded'));
    expect(JSON.stringify(answer.body)).not.toMatch(/\n\s+at /); // no stack
    refused.push(answer);
  }
  return { acked, refused };
}

/**
 * The ids a decision's `auditId` may name — each decision entry's own id (for a
 * recorded decision, its decision id) — and whether the chain verifies against its head.
 */
async function stored(store: Store): Promise<{ decisions: Set<string>; ok: boolean }> {
  const decisions = new Set<string>();
  const items: ChainItem[] = [];
  for await (const { seq, entry, columns } of store.audit.scan()) {
    items.push({ entry, position: seq, columns });
    if (entry.kind === 'decision') decisions.add(String(entry.id));
  }
  const report = await verifyChain(items, await store.audit.head());
  return { decisions, ok: report.ok };
}

/** Every acknowledged decision in `acked` is in `store`, and its chain verifies. */
async function expectStored(acked: readonly string[], store: Store): Promise<void> {
  const log = await stored(store);
  expect(acked.filter((id) => !log.decisions.has(id))).toEqual([]);
  expect(log.ok).toBe(true);
}

async function afterRecovery(h: Harness): Promise<void> {
  // The next decision after the database returns is recorded again.
  const until = Date.now() + 15_000;
  for (;;) {
    const answer = await h.post('/v1/decide', COMMIT);
    if (answer.status === 200 && answer.body.outcome === 'allow') return;
    if (Date.now() > until) throw new Error(`no recovery: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(POSTGRES_SKIP !== null && !UNDER_CI)('a 2xx means durable, on Postgres', () => {
  it('contracts §8: with the database cut mid-burst, every 200 auditId is stored after recovery, every other answer is a 503 deny without auditId', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const tcp = await pgProxy(new URL(PG_URL));
    const store = await openPostgres({
      url: tcp.url,
      schema,
      connectTimeoutMs: 500,
      statementTimeoutMs: 2000,
    });
    const h = await harness(store);
    const direct = await openPostgres({ url: PG_URL, schema });
    try {
      const answers = await burst(h, {
        ms: 4000,
        width: 30,
        faultAt: 600,
        recoverAt: 2600,
        fault: () => tcp.cut(),
        recover: () => tcp.restore(),
      });
      await afterRecovery(h);
      // A report during an outage is a 503 too, never a 500 (contracts §8).
      tcp.cut();
      await new Promise((resolve) => setTimeout(resolve, 1100)); // past the token cache
      const report = await h.post('/v1/audit', { tool: 'git_commit', status: 'Ok' });
      expect(report.status).toBe(503);
      expect(report.body).toMatchObject({ errors: [{ message: expect.any(String) }] });
      const during = await h.post('/v1/decide', COMMIT);
      expect(during.status).toBe(503);
      expect(during.body).toMatchObject({ outcome: 'deny', failure: expect.any(String) });
      expect(during.body).not.toHaveProperty('auditId');
      tcp.restore();
      await afterRecovery(h);
      await h.warden.writer.drain();

      const { acked, refused } = expectHonest(answers);
      expect(acked.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      await expectStored(acked, direct);
    } finally {
      tcp.restore();
      await h.close();
      await store.close();
      await direct.close();
      await tcp.close();
      await dropSchema(schema);
    }
  }, 90_000);

  it('contracts §8: with the database blackholed mid-burst (connections open, no byte flowing), every auditId answered names an entry that exists afterwards, and the chain verifies', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const tcp = await pgProxy(new URL(PG_URL));
    const store = await openPostgres({
      url: tcp.url,
      schema,
      connectTimeoutMs: 500,
      statementTimeoutMs: 2000,
    });
    const h = await harness(store);
    const direct = await openPostgres({ url: PG_URL, schema });
    try {
      const answers = await burst(h, {
        ms: 8000,
        width: 30,
        faultAt: 600,
        recoverAt: 5600,
        fault: () => tcp.hold(),
        recover: () => tcp.release(),
      });
      tcp.release();
      await afterRecovery(h);
      await h.warden.writer.drain();
      // Every answer with an auditId: recorded, whatever it says; the others are 503 denies.
      const acked: string[] = [];
      for (const answer of answers) {
        if (typeof answer.body.auditId === 'string') {
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          acked.push(answer.body.auditId);
        } else {
          expect(answer.status, JSON.stringify(answer.body)).toBe(503);
          expect(answer.body.outcome).toBe('deny');
        }
      }
      expect(acked.length).toBeGreaterThan(0);
      await expectStored(acked, direct);
    } finally {
      tcp.release();
      await h.close();
      await store.close();
      await direct.close();
      await tcp.close();
      await dropSchema(schema);
    }
  }, 120_000);

  it('contracts §8: with the database refusing audit writes mid-burst (disk full), every 200 auditId is stored, every other answer is a 503 deny without auditId, and the chain goes on', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const store = await openPostgres({ url: PG_URL, schema });
    const h = await harness(store);
    const side = new pg.Client({ connectionString: PG_URL });
    await side.connect();
    try {
      await side.query(`set search_path = "${schema}"`);
      await side.query(
        "create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$",
      );
      const answers = await burst(h, {
        ms: 3000,
        width: 30,
        faultAt: 500,
        recoverAt: 1800,
        fault: async () => {
          await side.query(
            'create trigger refuse_audit before insert on audit_entries for each row execute function refuse_audit()',
          );
        },
        recover: async () => {
          await side.query('drop trigger refuse_audit on audit_entries');
        },
      });
      await afterRecovery(h);
      await h.warden.writer.drain();
      const { acked, refused } = expectHonest(answers);
      expect(acked.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]?.body.failure).toContain('No space left on device');
      await expectStored(acked, store);
    } finally {
      await side.end();
      await h.close();
      await store.close();
      await dropSchema(schema);
    }
  }, 90_000);

  it('contracts §8: with the server’s backends terminated mid-burst (pg_terminate_backend), every 200 is stored and the chain continues', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const name = `warden-durable-${schema}`;
    const url = new URL(PG_URL);
    url.searchParams.set('application_name', name);
    const store = await openPostgres({ url: url.toString(), schema });
    const h = await harness(store);
    const killer = new pg.Client({ connectionString: PG_URL });
    await killer.connect();
    const kill = async () => {
      await killer.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
        [name],
      );
    };
    try {
      const killing = (async () => {
        for (let i = 0; i < 6; i++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          await kill();
        }
      })();
      const answers: Answer[] = [];
      const started = Date.now();
      let n = 0;
      while (Date.now() - started < 2500) {
        const wave = Array.from({ length: 25 }, () =>
          h.post('/v1/decide', { ...COMMIT, callId: `k-${n++}` }),
        );
        answers.push(...(await Promise.all(wave)));
      }
      await killing;
      await afterRecovery(h);
      await h.warden.writer.drain();
      const { acked } = expectHonest(answers);
      expect(acked.length).toBeGreaterThan(0);
      await expectStored(acked, store);
    } finally {
      await killer.end();
      await h.close();
      await store.close();
      await dropSchema(schema);
    }
  }, 90_000);
});

describe('a 2xx means durable, on SQLite', () => {
  it('contracts §8: with writes refused mid-burst, every 200 auditId is stored, every other answer is a 503 deny without auditId, and the chain goes on', async () => {
    const data = tempDir('warden-durable-');
    const store = await openSqlite({ data });
    const h = await harness(store);
    const side = new Database(join(data, 'warden.db'));
    side.pragma('busy_timeout = 5000');
    try {
      const answers = await burst(h, {
        ms: 2500,
        width: 30,
        faultAt: 500,
        recoverAt: 1500,
        fault: () => {
          side.exec(
            "create trigger refuse_audit before insert on audit_entries begin select raise(abort, 'disk I/O error'); end",
          );
        },
        recover: () => {
          side.exec('drop trigger refuse_audit');
        },
      });
      await afterRecovery(h);
      await h.warden.writer.drain();
      const { acked, refused } = expectHonest(answers);
      expect(acked.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]?.body.failure).toContain('disk I/O error');
      await expectStored(acked, store);
    } finally {
      side.close();
      await h.close();
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A call entry with a fresh id. */
function draft(i: number): AuditDraft {
  return callDraft(i, `e-${i}-${Math.random().toString(36).slice(2)}`, new Date().toISOString());
}

describe('approvals when the audit log fails (SQLite)', () => {
  it('contracts §8: an answer whose record cannot be written is a 503, and the call it released is an unrecorded deny', async () => {
    const data = tempDir('warden-durable-');
    const store = await openSqlite({ data });
    const h = await harness(store);
    const made = await makeToken(store.tokens, 'approver', 'alice', { workspace: 'acme' });
    const alice = await h.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
    const side = new Database(join(data, 'warden.db'));
    try {
      // A push prompts (its built-in default); with an approver connected it is held.
      const held = h.warden.gate.decide(
        { workspace: 'acme', agent: 'coder-1', source: 'library' },
        { tool: 'git_push', actions: ['gitPush'], args: { refs: ['feature/x'] } },
      );
      let pending: { id: string } | undefined;
      for (let i = 0; i < 100 && pending === undefined; i++) {
        [pending] = await store.approvals.list({ workspace: 'acme', state: 'pending', limit: 1 });
        if (pending === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (pending === undefined) throw new Error('no pending approval');
      side.exec(
        "create trigger refuse_audit before insert on audit_entries begin select raise(abort, 'disk I/O error'); end",
      );
      const res = await fetch(`${h.url}/v1/approvals/${pending.id}/answer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'once' }),
      });
      expect(res.status).toBe(503);
      const body = (await res.json()) as { errors: { message: string }[] };
      expect(body.errors[0]?.message).toContain('the audit log could not be written');
      const decision = await held;
      expect(decision.outcome).toBe('deny');
      expect(decision.auditId).toBeUndefined();
      expect(decision.failure).toContain('not recorded');
      side.exec('drop trigger refuse_audit');
    } finally {
      side.close();
      await alice.close();
      await h.close();
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the audit writer under a failing store', () => {
  it('contracts §8: refuses every waiter of a failed batch, and the next batch links after the last committed entry', async () => {
    const data = tempDir('warden-writer-');
    const store = await openSqlite({ data, auditThread: false });
    const writer = new AuditWriter(store.audit);
    const side = new Database(join(data, 'warden.db'));
    try {
      const [first] = await writer.append([draft(0)]);
      side.exec(
        "create trigger refuse_audit before insert on audit_entries begin select raise(abort, 'disk I/O error'); end",
      );
      const failed = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => writer.append([draft(i + 1)])),
      );
      expect(failed.every((r) => r.status === 'rejected')).toBe(true);
      for (const r of failed)
        expect(String((r as PromiseRejectedResult).reason.message)).toContain(
          'the audit log could not be written',
        );
      side.exec('drop trigger refuse_audit');
      const [next] = await writer.append([draft(99)]);
      expect(next?.prevHash).toBe(first?.hash);
      const log = await stored(store);
      expect(log.ok).toBe(true);
      expect((await store.audit.head()).seq).toBe(2);
    } finally {
      side.close();
      await writer.close();
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  });

  for (const backend of ['sqlite, writer thread', 'sqlite, this thread', 'postgres'] as const) {
    it.skipIf(backend === 'postgres' && POSTGRES_SKIP !== null && !UNDER_CI)(
      `contracts §8 (${backend}): an entry the database refuses fails alone; the entries that shared its batch are written`,
      async () => {
        if (backend === 'postgres') requirePostgresUnderCi();
        const data = tempDir('warden-writer-');
        const schema = uniqueSchema();
        const store =
          backend === 'postgres'
            ? await openPostgres({ url: PG_URL, schema })
            : await openSqlite({ data, auditThread: backend === 'sqlite, writer thread' });
        const writer = new AuditWriter(store.audit);
        try {
          const [taken] = await writer.append([draft(0)]);
          const duplicate = draft(1);
          const twin = {
            ...duplicate,
            id: taken?.id as string,
            body: { ...duplicate.body, id: taken?.id as string },
          };
          // Appended in one turn of the event loop: one batch, one transaction at first.
          const results = await Promise.allSettled([
            writer.append([draft(2)]),
            writer.append([twin]),
            writer.append([draft(3), draft(4)]),
          ]);
          expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
          expect(String((results[1] as PromiseRejectedResult).reason.message)).toContain(
            'the audit log could not be written',
          );
          const log = await stored(store);
          expect(log.ok).toBe(true);
          expect((await store.audit.head()).seq).toBe(4);
        } finally {
          await writer.close();
          await store.close();
          if (backend === 'postgres') await dropSchema(schema);
          rmSync(data, { recursive: true, force: true });
        }
      },
    );
  }
});

describe('delegation when the audit log fails (SQLite)', () => {
  it('contracts §8: a delegation whose record cannot be written is a 503 that says so, and no delegate run is left running', async () => {
    const data = tempDir('warden-durable-');
    const store = await openSqlite({ data });
    const h = await harness(store);
    const side = new Database(join(data, 'warden.db'));
    try {
      const started = await h.post('/v1/runs', { budgetCents: 100 });
      expect(started.status).toBe(201);
      const runId = started.body.id as string;
      side.exec(
        "create trigger refuse_audit before insert on audit_entries begin select raise(abort, 'disk I/O error'); end",
      );
      const refused = await h.post('/v1/delegate', { runId, target: 'helper-1', budgetCents: 40 });
      expect(refused.status).toBe(503);
      expect(refused.body.ok).toBe(false);
      expect(String(refused.body.failure)).toContain('could not be recorded');
      side.exec('drop trigger refuse_audit');
      // The budget went back and the delegate's run did not stay open.
      const run = await store.runs.get(runId);
      expect(run?.delegatedCents).toBe(0);
      const open = side
        .prepare("select count(*) as n from runs where parent_run_id = ? and status = 'running'")
        .get(runId) as { n: number };
      expect(open.n).toBe(0);
      const accepted = await h.post('/v1/delegate', { runId, target: 'helper-1', budgetCents: 40 });
      expect(accepted.status).toBe(200);
      expect(accepted.body.ok).toBe(true);
    } finally {
      side.close();
      await h.close();
      await store.close();
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
