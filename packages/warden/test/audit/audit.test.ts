// The audit log (contracts §6, I1, G39): hash-chained entries that
// `warden audit verify` checks — a changed, removed or reordered entry is
// named — exported as JSONL or OTLP/JSON and imported again, with secrets
// redacted before anything is stored.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bodyOf, chainLink, verifyChain } from '../../src/audit/chain.js';
import { jsonlItems } from '../../src/audit/jsonl.js';
import type { CallContext } from '../../src/gate/gate.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  tempDir,
  uniqueSchema,
} from '../support/backends.js';
import { warden } from '../helpers.js';
import { auditLog, openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    {
      id: 'no-egress-prod',
      action: 'networkEgress',
      decision: 'deny',
      when: { hosts: ['prod.internal'] },
    },
  ],
};
const CTX: CallContext = {
  workspace: 'acme',
  agent: 'coder-1',
  source: 'library',
  model: 'm1',
  runId: 'r-1',
};

async function fill(t: TestWarden): Promise<void> {
  for (let i = 0; i < 4; i++) {
    const d = await t.warden.gate.decide(CTX, {
      tool: 'web_fetch',
      actions: ['networkEgress'],
      args: { hosts: [i % 2 === 0 ? 'example.com' : 'prod.internal'] },
      arguments: { url: `https://example.com/${i}` },
    });
    if (d.outcome === 'allow')
      await t.warden.gate.complete(CTX, {
        callId: d.callId,
        decisionId: d.decisionId,
        tool: 'web_fetch',
        arguments: { url: `https://example.com/${i}` },
        status: 'Ok',
        durationMs: 12,
      });
  }
}

function omit(entry: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !keys.includes(key)));
}

function rows(data: string): Database.Database {
  return new Database(join(data, 'warden.db'));
}

describe('the audit chain', () => {
  let t: TestWarden;
  beforeEach(async () => {
    t = await openTestWarden(POLICY);
    await fill(t);
    await t.warden.writer.drain();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('hashes prevHash, a newline and the canonical JSON without the chain fields (contracts §6)', async () => {
    const [first, second] = await auditLog(t.warden.store);
    if (first === undefined || second === undefined) throw new Error('expected two entries');
    expect(first.prevHash).toBe('0'.repeat(64));
    expect(chainLink(second.prevHash, bodyOf(second)).hash).toBe(second.hash);
    expect(second.prevHash).toBe(first.hash);
  });

  it('verifies an untouched log (exit 0)', () => {
    const ran = warden(['audit', 'verify', '--data', t.data, '--json']);
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ ok: true, broken: null });
  });

  it('names an entry whose content was changed in the database', () => {
    const db = rows(t.data);
    const row = db
      .prepare(
        'select seq, id, entry from audit_entries where kind = ? order by seq limit 1 offset 1',
      )
      .get('call') as { seq: number; id: string; entry: string };
    db.prepare('update audit_entries set entry = ? where seq = ?').run(
      row.entry.replace('example.com', 'evil.example'),
      row.seq,
    );
    db.close();
    const ran = warden(['audit', 'verify', '--data', t.data]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain(`entry \`${row.id}\` (#${row.seq}) was changed`);
  });

  it('names the gap where an entry was removed', () => {
    const db = rows(t.data);
    db.prepare('delete from audit_entries where seq = 3').run();
    db.close();
    const ran = warden(['audit', 'verify', '--data', t.data, '--json']);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout).broken).toMatchObject({ kind: 'missing', position: 3 });
  });

  it('names the entry that no longer follows its predecessor after two were swapped', () => {
    const db = rows(t.data);
    const a = db.prepare('select id from audit_entries where seq = 2').get() as { id: string };
    db.prepare('update audit_entries set seq = -1 where seq = 2').run();
    db.prepare('update audit_entries set seq = 2 where seq = 3').run();
    db.prepare('update audit_entries set seq = 3 where seq = -1').run();
    db.close();
    const ran = warden(['audit', 'verify', '--data', t.data, '--json']);
    expect(ran.code).toBe(1);
    const broken = JSON.parse(ran.stdout).broken;
    expect(broken).toMatchObject({ kind: 'out-of-order', position: 2 });
    expect(broken.id).not.toBe(a.id);
  });

  it('notices entries removed from the end of the log', () => {
    const db = rows(t.data);
    db.prepare('delete from audit_entries where seq = (select max(seq) from audit_entries)').run();
    db.close();
    const ran = warden(['audit', 'verify', '--data', t.data, '--json']);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout).broken.kind).toBe('truncated');
  });

  it('exports JSONL that verifies, and a changed, removed or reordered line is named', () => {
    const ran = warden(['audit', 'export', '--format', 'jsonl', '--data', t.data]);
    expect(ran.code).toBe(0);
    const dir = tempDir('warden-export-');
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, ran.stdout);
    expect(warden(['audit', 'verify', '--file', file]).code).toBe(0);
    const lines = ran.stdout.trimEnd().split('\n');
    const changed = [...lines];
    changed[1] = (changed[1] as string).replace('"coder-1"', '"coder-9"');
    writeFileSync(file, changed.join('\n'));
    const second = JSON.parse(lines[1] as string).id;
    expect(warden(['audit', 'verify', '--file', file]).stdout).toContain(
      `entry \`${second}\` (#2) was changed`,
    );
    writeFileSync(file, [lines[0], ...lines.slice(2)].join('\n'));
    expect(warden(['audit', 'verify', '--file', file]).stdout).toContain('(#2) does not follow');
    writeFileSync(file, [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n'));
    expect(warden(['audit', 'verify', '--file', file]).code).toBe(1);
  });

  it('imports an export, each entry marked with where it came from and its original hashes; importing again skips', () => {
    const exported = warden(['audit', 'export', '--data', t.data]).stdout;
    const dir = tempDir('warden-import-');
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, exported);
    const target = join(dir, 'data');
    const first = warden(['audit', 'import', file, '--data', target, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      imported: exported.trimEnd().split('\n').length,
      skipped: 0,
    });
    const original = exported
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const copied = warden(['audit', 'export', '--data', target])
      .stdout.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(copied.map((e) => e.id)).toEqual(original.map((e) => e.id));
    copied.forEach((entry, i) => {
      const source = original[i] as Record<string, unknown>;
      expect(entry.imported).toMatchObject({
        file: 'audit.jsonl',
        position: i + 1,
        hash: source.hash,
        prevHash: source.prevHash,
      });
      expect(omit(entry, 'imported', 'hash', 'prevHash')).toEqual(omit(source, 'hash', 'prevHash'));
    });
    expect(warden(['audit', 'verify', '--data', target]).code).toBe(0);
    expect(
      JSON.parse(warden(['audit', 'import', file, '--data', target, '--json']).stdout).imported,
    ).toBe(0);
  });

  it('refuses to import an entry whose id is taken by other content, importing nothing', () => {
    const lines = warden(['audit', 'export', '--data', t.data]).stdout.trimEnd().split('\n');
    const dir = tempDir('warden-import-');
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const target = join(dir, 'data');
    expect(warden(['audit', 'import', file, '--data', target]).code).toBe(0);
    // A forged file: the same first entry id, other content, a chain computed anew.
    const forged = JSON.parse(lines[0] as string) as Record<string, unknown>;
    const changed = { ...omit(forged, 'hash', 'prevHash'), by: 'mallory' };
    const link = chainLink('0'.repeat(64), changed as never);
    writeFileSync(
      join(dir, 'forged.jsonl'),
      `${JSON.stringify({ ...changed, prevHash: '0'.repeat(64), hash: link.hash })}\n`,
    );
    const ran = warden(['audit', 'import', join(dir, 'forged.jsonl'), '--data', target, '--json']);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout).errors[0].message).toContain(
      'already in the log with other content',
    );
  });

  it('notices lines cut from the end of an export when given the head export printed', () => {
    const ran = warden(['audit', 'export', '--data', t.data]);
    const head = /head ([0-9a-f]{64})/.exec(ran.stderr)?.[1] ?? '';
    expect(head).toMatch(/^[0-9a-f]{64}$/);
    const dir = tempDir('warden-head-');
    const file = join(dir, 'audit.jsonl');
    const lines = ran.stdout.trimEnd().split('\n');
    writeFileSync(file, lines.join('\n'));
    expect(warden(['audit', 'verify', '--file', file, '--head', head]).code).toBe(0);
    writeFileSync(file, lines.slice(0, -1).join('\n'));
    expect(warden(['audit', 'verify', '--file', file]).code).toBe(0); // alone, a cut end goes unseen
    const cut = warden(['audit', 'verify', '--file', file, '--head', head, '--json']);
    expect(cut.code).toBe(1);
    expect(JSON.parse(cut.stdout).broken.kind).toBe('truncated');
    // The live log still holds an earlier head as it grows.
    expect(warden(['audit', 'verify', '--data', t.data, '--head', head]).code).toBe(0);
  });

  it('names an entry whose indexed columns were changed, though its content was not', () => {
    const db = rows(t.data);
    const row = db
      .prepare(
        "select seq, id from audit_entries where kind = 'call' and status = 'Ok' order by seq limit 1",
      )
      .get() as { seq: number; id: string };
    db.prepare(
      "update audit_entries set status = 'Error', agent_id = 'someone-else' where seq = ?",
    ).run(row.seq);
    db.close();
    const ran = warden(['audit', 'verify', '--data', t.data]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain(`entry \`${row.id}\` (#${row.seq}) was changed in the index`);
  });

  it('refuses to import a file whose chain is broken, importing nothing', () => {
    const lines = warden(['audit', 'export', '--data', t.data]).stdout.trimEnd().split('\n');
    const dir = tempDir('warden-import-');
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, [lines[0], ...lines.slice(2)].join('\n'));
    const ran = warden(['audit', 'import', file, '--data', join(dir, 'data'), '--json']);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout).errors[0].message).toContain('not imported');
  });

  it('exports OTLP/JSON traces with the GenAI attribute names', () => {
    const ran = warden(['audit', 'export', '--format', 'otlp', '--data', t.data]);
    const doc = JSON.parse(ran.stdout);
    const spans = doc.resourceSpans[0].scopeSpans[0].spans as {
      name: string;
      traceId: string;
      spanId: string;
      attributes: { key: string; value: Record<string, unknown> }[];
      status: { code: number };
    }[];
    const call = spans.find((s) => s.name === 'execute_tool web_fetch');
    const attrs = Object.fromEntries(
      (call?.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]),
    );
    expect(attrs).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'web_fetch',
      'gen_ai.agent.id': 'coder-1',
      'gen_ai.request.model': 'm1',
      'warden.status': 'Ok',
    });
    expect(call?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(call?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(call?.status.code).toBe(1);
    expect(spans.some((s) => s.name.startsWith('warden.decide'))).toBe(true);
    expect(doc.resourceSpans[0].resource.attributes[0]).toEqual({
      key: 'service.name',
      value: { stringValue: 'warden' },
    });
  });

  it('refuses an unknown export format and a data folder without a log', () => {
    expect(warden(['audit', 'export', '--format', 'csv', '--data', t.data]).code).toBe(1);
    const none = warden(['audit', 'verify', '--data', tempDir('warden-empty-'), '--json']);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout).errors[0].message).toContain('no Warden store in');
  });
});

describe('redaction before storage', () => {
  let t: TestWarden;
  afterEach(async () => {
    await t.cleanup();
  });

  it('stores no secret from arguments or command lines: keys, token patterns and literals from agents’ settings', async () => {
    const data = tempDir('warden-redact-');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(data, 'agents', 'mailer'), { recursive: true });
    writeFileSync(
      join(data, 'agents', 'mailer', 'AgentSettings.json'),
      JSON.stringify({
        tools: { mail: { host: 'smtp.example', password: 'hunter2-horse-battery' } },
      }),
    );
    t = await openTestWarden(POLICY, { data });
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const d = await t.warden.gate.decide(CTX, {
      tool: 'shell',
      command: `curl -H "Authorization: Bearer ${token}" https://example.com`,
      arguments: {
        command: `echo hunter2-horse-battery | mail`,
        apiKey: 'sk-live-abcdefghijklmnopqrstuvwx',
        headers: { Cookie: 'session=abc123' },
      },
    });
    await t.warden.gate.complete(CTX, {
      callId: d.callId,
      decisionId: d.decisionId,
      tool: 'shell',
      arguments: { password: 'p4ssw0rd!', note: `token ${token}` },
      status: 'Ok',
      durationMs: 1,
    });
    await t.warden.writer.drain();
    const text =
      readFileSync(join(data, 'warden.db')).toString('latin1') +
      JSON.stringify(await auditLog(t.warden.store));
    for (const secret of [
      token,
      'hunter2-horse-battery',
      'sk-live-abcdefghijklmnopqrstuvwx',
      'session=abc123',
      'p4ssw0rd!',
    ]) {
      expect(text).not.toContain(secret);
    }
    const entry = (await auditLog(t.warden.store)).find(
      (e) => e.kind === 'call' && e.status === 'Ok',
    );
    expect(entry?.redacted).toEqual(expect.arrayContaining(['arguments.password']));
    expect(
      await verifyChain(
        jsonlItems((await auditLog(t.warden.store)).map((e) => JSON.stringify(e)).join('\n')),
      ),
    ).toMatchObject({ ok: true });
  });
});

describe.skipIf(POSTGRES_SKIP !== null && !UNDER_CI)('the audit commands on Postgres', () => {
  it('verify and export read the log named by DATABASE_URL (and WARDEN_DB_SCHEMA)', async () => {
    requirePostgresUnderCi();
    const schema = uniqueSchema();
    const t = await openTestWarden(POLICY, { databaseUrl: PG_URL, schema });
    try {
      await fill(t);
      await t.warden.writer.drain();
      const env = { DATABASE_URL: PG_URL, WARDEN_DB_SCHEMA: schema };
      const verified = warden(['audit', 'verify', '--json'], { env });
      expect(verified.code).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({
        ok: true,
        entries: (await auditLog(t.warden.store)).length,
      });
      const exported = warden(['audit', 'export'], { env }).stdout.trimEnd().split('\n');
      expect(exported.length).toBe((await auditLog(t.warden.store)).length);
    } finally {
      await t.cleanup();
      await dropSchema(schema);
    }
  });
});
