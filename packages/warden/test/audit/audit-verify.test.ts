// `warden audit verify` cannot be blinded (contracts §4, §6): it names every
// changed, removed, moved or unreadable entry and goes on after each, so one
// entry — say one an agent made with a lone surrogate in its `tool` — cannot
// hide tampering further on. An empty log verifies; a log whose head record
// was removed is reported, not a crash; a pipe closed early (`| head -1`)
// ends the output, not with a stack trace. Text that is not valid Unicode is
// refused at the HTTP edge with a 400, and one already stored hashes the same
// when written and when verified.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Hono } from 'hono';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/audit/chain.js';
import type { Env } from '../../src/server/api.js';
import { createApp } from '../../src/server/app.js';
import { openPostgres } from '../../src/store/postgres.js';
import type { AuditDraft, Store } from '../../src/store/types.js';
import { callDraft, chainItems } from '../support/audit.js';
import { makeToken } from '../support/server.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  uniqueSchema,
} from '../support/backends.js';
import { BIN, warden } from '../helpers.js';
import { openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = { version: 1, workspace: 'acme', rules: [] };

/** An entry as an older Warden (or the library) could write it, `tool` as given. */
function draft(i: number, tool = 'git_commit'): AuditDraft {
  const id = `e-${String(i).padStart(4, '0')}`;
  return callDraft(i, id, new Date(Date.UTC(2026, 10, 30, 12, 0, 0, i)).toISOString(), tool);
}

function db(data: string): Database.Database {
  return new Database(join(data, 'warden.db'));
}

function verify(data: string): {
  code: number;
  json: { ok: boolean; entries: number; breaks: { kind: string; id: string | null }[] };
} {
  const ran = warden(['audit', 'verify', '--data', data, '--json']);
  expect(ran.stderr).not.toMatch(/\n\s+at /);
  return { code: ran.code, json: JSON.parse(ran.stdout) };
}

describe('audit verify cannot be blinded', () => {
  let t: TestWarden | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  async function filled(n: number, surrogateAt: number | null = null): Promise<TestWarden> {
    t = await openTestWarden(POLICY);
    const drafts = Array.from({ length: n }, (_, i) =>
      draft(i, i === surrogateAt ? 'git_\udfff' : 'git_commit'),
    );
    await t.warden.store.audit.append(drafts);
    await t.warden.writer.drain();
    return t;
  }

  it('contracts §6: an entry with a lone surrogate in `tool` hashes the same when written and when verified (SQLite)', async () => {
    const { warden: w, data } = await filled(5, 2);
    expect(await verifyChain(await chainItems(w.store), await w.store.audit.head())).toMatchObject({
      ok: true,
      entries: 6, // the policy's change entry, then the five
    });
    await w.close();
    expect(verify(data)).toMatchObject({ code: 0, json: { ok: true, entries: 6 } });
  });

  it('contracts §4: names every changed entry after the first, not the first alone (human and --json)', async () => {
    // Entry #1 is the policy's change entry; draft i is entry #(i + 2), draft 1 with a lone surrogate.
    const { data } = await filled(12, 1);
    const rows = db(data);
    for (const seq of [2, 5, 9])
      rows
        .prepare('update audit_entries set entry = replace(entry, ?, ?) where seq = ?')
        .run('coder-1', 'coder-9', seq);
    rows.close();
    const { code, json } = verify(data);
    expect(code).toBe(1);
    expect(json.breaks.map((b) => [b.kind, b.id])).toEqual([
      ['changed', 'e-0000'],
      ['changed', 'e-0003'],
      ['changed', 'e-0007'],
    ]);
    const human = warden(['audit', 'verify', '--data', data]);
    expect(human.code).toBe(1);
    for (const id of ['e-0000', 'e-0003', 'e-0007']) expect(human.stdout).toContain(`\`${id}\``);
  });

  it('contracts §4: after a removed and a moved entry it still finds a change further on', async () => {
    const { data } = await filled(12);
    const rows = db(data);
    rows.prepare('delete from audit_entries where seq = 3').run();
    rows.prepare('update audit_entries set seq = -1 where seq = 6').run();
    rows.prepare('update audit_entries set seq = 6 where seq = 7').run();
    rows.prepare('update audit_entries set seq = 7 where seq = -1').run();
    rows
      .prepare('update audit_entries set entry = replace(entry, ?, ?) where seq = 11')
      .run('git_commit', 'git_push');
    rows.close();
    const { code, json } = verify(data);
    expect(code).toBe(1);
    const kinds = json.breaks.map((b) => b.kind);
    expect(kinds[0]).toBe('missing');
    expect(kinds).toContain('out-of-order');
    expect(json.breaks.at(-1)).toMatchObject({ kind: 'changed', id: 'e-0009' });
  });

  it('contracts §4: a row that is not JSON any more is named, and later tampering still found', async () => {
    const { data } = await filled(8);
    const rows = db(data);
    rows.prepare('update audit_entries set entry = ? where seq = 2').run('{"id": "e-0000", oops');
    rows
      .prepare('update audit_entries set entry = replace(entry, ?, ?) where seq = 7')
      .run('coder-1', 'coder-9');
    rows.close();
    const { code, json } = verify(data);
    expect(code).toBe(1);
    expect(json.breaks.map((b) => [b.kind, b.id])).toEqual([
      ['malformed', 'e-0000'],
      ['changed', 'e-0005'],
    ]);
  });

  it('contracts §4: an empty log verifies, with 0 entries', async () => {
    t = await openTestWarden(null);
    await t.warden.close();
    expect(verify(t.data)).toMatchObject({
      code: 0,
      json: { ok: true, entries: 0, breaks: [] },
    });
  });

  it('contracts §4: a removed head record is reported as a break, not a crash, and the chain is still checked', async () => {
    const { data } = await filled(6);
    const rows = db(data);
    rows.prepare('delete from audit_head').run();
    rows
      .prepare('update audit_entries set entry = replace(entry, ?, ?) where seq = 4')
      .run('coder-1', 'coder-9');
    rows.close();
    const { code, json } = verify(data);
    expect(code).toBe(1);
    expect(json.breaks.map((b) => b.kind)).toEqual(['changed', 'head-missing']);
    const human = warden(['audit', 'verify', '--data', data]);
    expect(human.stdout).toContain('no head record');
    expect(human.stderr).toBe('');
  });

  it('contracts §4: writing to a pipe closed early (`| head -1`) is no crash and no stack trace', async () => {
    const { data } = await filled(3000);
    const rows = db(data);
    rows
      .prepare('update audit_entries set entry = replace(entry, ?, ?) where seq % 2 = 0')
      .run('coder-1', 'coder-9');
    rows.close();
    for (const json of [[], ['--json']]) {
      const ran = spawnSync(
        'bash',
        [
          '-c',
          `"${process.execPath}" "${BIN}" audit verify --data "${data}" ${json.join(' ')} 2>"${data}/err.txt" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"; cat "${data}/err.txt"`,
        ],
        { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
      );
      const [code, ...err] = ran.stdout.split('\n');
      expect(code).toBe('1'); // broken, as verify says: not a crash
      expect(err.join('\n')).not.toMatch(/EPIPE|Error|\n\s+at /);
    }
  }, 60_000);
});

describe('lone surrogates are refused at the HTTP edge', () => {
  let t: TestWarden | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  async function app(): Promise<{ app: Hono<Env>; token: string }> {
    t = await openTestWarden(POLICY);
    const made = await makeToken(t.warden.store.tokens, 'agent', 'coder', {
      workspace: 'acme',
      agent: 'coder-1',
    });
    const { app: created } = createApp({
      warden: t.warden,
      logger: pino({ level: 'silent' }),
      version: '0.0.0-test',
      clock: Date.now,
      node: 'test:0',
    });
    return { app: created, token: made.token };
  }

  it('contracts §8: POST /v1/audit and /v1/decide refuse a body with a lone surrogate (400, a sentence), and nothing is stored', async () => {
    const { app: a, token } = await app();
    const bodies: [string, object][] = [
      ['/v1/audit', { tool: '\udfff', status: 'Ok' }],
      ['/v1/audit', { tool: 'git_commit', callId: 'c-\ud800', status: 'Ok' }],
      ['/v1/decide', { tool: 'git_commit', actions: ['gitCommit'], callId: '\udfff' }],
      ['/v1/decide', { actions: ['gitCommit'], arguments: { deep: [{ x: 'a\udc00' }] } }],
      ['/v1/decide', { actions: ['gitCommit'], arguments: { ['k\ud800']: 1 } }],
    ];
    for (const [path, body] of bodies) {
      const text = JSON.stringify(body);
      expect(text).toMatch(/\\ud[89a-f]/); // the escape reaches the server as written
      const res = await a.request(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: text,
      });
      expect(res.status, path).toBe(400);
      const answer = (await res.json()) as { errors: { path: string; message: string }[] };
      expect(answer.errors[0]?.message).toContain('not valid Unicode');
      expect(answer.errors[0]?.message).not.toMatch(/\bat \w+ \(/);
    }
    // Only the policy's change entry: no call, no decision.
    const stored = await chainItems(t?.warden.store as Store);
    expect(stored.map((i) => i.entry?.kind)).toEqual(['change']);
    // A well-formed pair (an emoji) is not a lone surrogate: accepted.
    const ok = await a.request('/v1/audit', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'git_commit', status: 'Ok', arguments: { note: '🙂' } }),
    });
    expect(ok.status).toBe(201);
  });
});

describe.skipIf(POSTGRES_SKIP !== null && !UNDER_CI)('lone surrogates on Postgres', () => {
  it('contracts §6: an entry with a lone surrogate in `tool` and `callId` verifies, and tampering after it is still found', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const store = await openPostgres({ url: PG_URL, schema });
    try {
      const drafts = Array.from({ length: 6 }, (_, i) => draft(i, i === 1 ? '\udfff' : 'x'));
      const odd = drafts[2] as AuditDraft;
      drafts[2] = {
        ...odd,
        callId: 'c-\ud800',
        body: { ...odd.body, callId: 'c-\ud800' },
      };
      await store.audit.append(drafts);
      expect(await verifyChain(await chainItems(store), await store.audit.head())).toMatchObject({
        ok: true,
        entries: 6,
      });
      const side = new (await import('pg')).default.Client({ connectionString: PG_URL });
      await side.connect();
      try {
        await side.query(
          `update "${schema}".audit_entries set entry = replace(entry, 'coder-1', 'coder-9') where seq = 5`,
        );
      } finally {
        await side.end();
      }
      const report = await verifyChain(await chainItems(store), await store.audit.head());
      expect(report.breaks.map((b) => [b.kind, b.id])).toEqual([['changed', 'e-0004']]);
      const ran = warden(['audit', 'verify', '--json'], {
        env: { DATABASE_URL: PG_URL, WARDEN_DB_SCHEMA: schema },
      });
      expect(ran.code).toBe(1);
      expect(JSON.parse(ran.stdout).breaks).toHaveLength(1);
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  }, 60_000);
});
