// Fail-closed under every fault: when the store, the policy, the broker or the
// audit log fails, the gate answers deny with the reason — never allow, never
// a thrown error. Faults are injected into a real store, and Postgres is cut
// off for real behind a TCP proxy.

import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/gate/gate.js';
import { Warden } from '../../src/warden.js';
import type { Store } from '../../src/store/types.js';
import { openPostgres } from '../../src/store/postgres.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  uniqueSchema,
} from '../support/backends.js';
import { openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = { version: 1, workspace: 'acme', rules: [] };
const CTX: CallContext = { workspace: 'acme', agent: 'coder-1', source: 'library' };
const COMMIT = { tool: 'git_commit', actions: ['gitCommit'] };

/** A store whose chosen method fails like a broken disk or a lost connection. */
function breakMethod(
  store: Store,
  part: keyof Store,
  method: string,
  error = new Error('disk I/O error'),
): () => void {
  const target = store[part] as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = target[method] as (...args: unknown[]) => unknown;
  target[method] = () => Promise.reject(error);
  return () => {
    target[method] = original;
  };
}

describe('fail-closed', () => {
  let t: TestWarden | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  it('denies with the reason when the policy store cannot be read', async () => {
    t = await openTestWarden(POLICY, { approvals: { pollMs: 20 } });
    breakMethod(t.warden.store, 'policies', 'current');
    breakMethod(t.warden.store, 'rules', 'list');
    await t.warden.putPolicy({ ...POLICY, rules: [] }, { author: 'x' }).catch(() => undefined);
    const decision = await t.warden.gate.decide(CTX, COMMIT);
    expect(decision).toMatchObject({ outcome: 'deny', rule: 'failClosed', enforcement: 'hard' });
    expect(decision.reason).toContain('the policy store is unavailable: disk I/O error');
  });

  it('denies an allowed call when its decision cannot be recorded: no unrecorded allow', async () => {
    t = await openTestWarden(POLICY);
    expect((await t.warden.gate.decide(CTX, COMMIT)).outcome).toBe('allow');
    const restore = breakMethod(t.warden.store, 'audit', 'append');
    const decision = await t.warden.gate.decide(CTX, COMMIT);
    expect(decision.outcome).toBe('deny');
    expect(decision.failure).toContain('disk I/O error');
    restore();
    expect((await t.warden.gate.decide(CTX, COMMIT)).outcome).toBe('allow');
  });

  it('denies a prompt when presence cannot be read (the approvals broker fails)', async () => {
    t = await openTestWarden(POLICY);
    breakMethod(t.warden.store, 'presence', 'live');
    const decision = await t.warden.gate.decide(CTX, {
      actions: ['gitPush'],
      args: { refs: ['x'] },
    });
    expect(decision.outcome).toBe('deny');
    expect(decision.reason).toContain('cannot tell whether an approver is connected');
  });

  it('denies a prompt when its approval cannot be opened', async () => {
    t = await openTestWarden(POLICY);
    const alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
    breakMethod(t.warden.store, 'approvals', 'create');
    const decision = await t.warden.gate.decide(CTX, {
      actions: ['gitPush'],
      args: { refs: ['x'] },
    });
    expect(decision.outcome).toBe('deny');
    expect(decision.reason).toContain('cannot open an approval');
    await alice.close();
  });

  it('denies a waiting prompt when the store fails while it waits', async () => {
    t = await openTestWarden(POLICY, { approvals: { pollMs: 20 } });
    const alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
    const pending = t.warden.gate.decide(CTX, { actions: ['gitPush'], args: { refs: ['x'] } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    breakMethod(t.warden.store, 'approvals', 'get');
    const decision = await pending;
    expect(decision.outcome).toBe('deny');
    expect(decision.reason).toContain('the approval broker failed');
    await alice.close();
  });

  it('denies when the stored policy is not valid any more', async () => {
    t = await openTestWarden(POLICY);
    await t.warden.store.policies.put('acme', {
      document: { version: 2, workspace: 'acme' },
      author: 'raw',
      at: Date.now(),
    });
    const decision = await t.warden.gate.decide(CTX, COMMIT);
    expect(decision.outcome).toBe('deny');
    expect(decision.reason).toContain('revision 2 of the policy of `acme` is not valid');
  });

  it('denies after the store is closed, and says so', async () => {
    t = await openTestWarden(POLICY);
    await t.warden.store.close();
    const decision = await t.warden.gate.decide({ ...CTX, workspace: 'elsewhere' }, COMMIT);
    expect(decision.outcome).toBe('deny');
    expect(decision.rule).toBe('failClosed');
  });
});

/** A TCP proxy in front of Postgres that can cut every connection, like a database going down. */
async function proxy(target: URL): Promise<{
  url: string;
  cut: () => void;
  freeze: () => void;
  restore: () => void;
  close: () => Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let down = false;
  let frozen = false;
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    // Frozen, the proxy keeps every connection open and forwards nothing: a server that stops answering.
    client.on('data', (chunk: Buffer) => {
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!frozen) client.write(chunk);
    });
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target.toString());
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: () => {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    freeze: () => {
      frozen = true;
    },
    restore: () => {
      down = false;
      frozen = false;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(POSTGRES_SKIP !== null && !UNDER_CI)('fail-closed on Postgres', () => {
  it('denies within its deadline when the database stops answering, instead of hanging', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const tcp = await proxy(new URL(PG_URL));
    const store = await openPostgres({ url: tcp.url, schema });
    const warden = await Warden.open({
      store,
      env: { WARDEN_LOG_LEVEL: 'silent' },
      deadlineMs: 1000,
    });
    try {
      await warden.putPolicy(POLICY, { author: 'test' });
      expect((await warden.gate.decide(CTX, COMMIT)).outcome).toBe('allow');
      tcp.freeze();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const decision = await warden.gate.decide(CTX, COMMIT);
      expect(decision.outcome).toBe('deny');
      expect(decision.reason).toContain('did not answer within 1 s');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      tcp.restore();
      await warden.close();
      await store.close();
      await tcp.close();
      await dropSchema(schema);
    }
    // Timers, not work: up to three 1 s deadlines for the denial, then closing waits for the
    // frozen write to give up (10 s) before the schema is dropped.
  }, 60_000);

  it('denies with the reason when the database goes down mid-service, and recovers when it returns', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const tcp = await proxy(new URL(PG_URL));
    const store = await openPostgres({ url: tcp.url, schema });
    const warden = await Warden.open({ store, env: { WARDEN_LOG_LEVEL: 'silent' } });
    try {
      await warden.putPolicy(POLICY, { author: 'test' });
      expect((await warden.gate.decide(CTX, COMMIT)).outcome).toBe('allow');
      tcp.cut();
      await new Promise((resolve) => setTimeout(resolve, 300)); // past the snapshot's trust window
      const decision = await warden.gate.decide(CTX, COMMIT);
      expect(decision.outcome).toBe('deny');
      expect(decision.rule).toBe('failClosed');
      tcp.restore();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await warden.gate.decide(CTX, COMMIT)).outcome).toBe('allow');
    } finally {
      await warden.close();
      await store.close();
      await tcp.close();
      await dropSchema(schema);
    }
  });
});
