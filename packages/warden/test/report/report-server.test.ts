// The report on the server (I10, I11): the `reports` settings validated with
// the rest of the configuration, a croner schedule that stores each
// supervisor's report once per instant — also with two servers on one
// Postgres — and never takes the server down, and `GET /v1/reports[/:id]` for
// people only: a supervised agent does not read its verdict.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cron } from 'croner';
import type { Hono } from 'hono';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { callEntry } from '../../src/audit/records.js';
import { createAgent } from '../../src/instance/index.js';
import type { ReportsSettings } from '../../src/report/settings.js';
import { ReportsSettingsSchema } from '../../src/report/settings.js';
import { runReports, scheduledInstant, startReportScheduler } from '../../src/report/scheduler.js';
import type { ReportScheduler, SchedulerDeps } from '../../src/report/scheduler.js';
import { DEFAULT_THRESHOLDS } from '../../src/report/thresholds.js';
import type { ReportData } from '../../src/report/types.js';
import type { Env } from '../../src/server/api.js';
import type { createApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { bannerFacts, renderBanner, startServer } from '../../src/server/serve.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { ReportRecord, Store } from '../../src/store/types.js';
import { makeToken, openTestServer } from '../support/server.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  tempDir,
  uniqueSchema,
} from '../support/backends.js';
import { eventually } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const T0 = Date.parse('2026-11-30T07:00:00.000Z');
const HOUR = 3_600_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A data folder with supervisors `sup` and `lead`, and the agent `coder-1` they watch. */
async function instance(): Promise<string> {
  const data = tempDir('warden-report-server-');
  cleanups.push(() => rmSync(data, { recursive: true, force: true }));
  await createAgent(data, { id: 'sup', role: 'supervisor', workspace: 'acme' });
  await createAgent(data, { id: 'lead', role: 'supervisor', workspace: 'acme' });
  await createAgent(data, { id: 'coder-1', role: 'coder', workspace: 'acme' });
  return data;
}

async function seedCalls(store: Store, at: number): Promise<void> {
  await store.audit.append(
    Array.from({ length: 5 }, (_, i) =>
      callEntry(
        { workspace: 'acme', agentId: 'coder-1', runId: null, model: null, source: 'test' },
        {
          id: `e-${at}-${i}`,
          callId: `c-${i}`,
          decisionId: null,
          tool: 'git_push',
          arguments: { i },
          status: 'Error',
          durationMs: 1,
          occurredAt: new Date(at - HOUR + i * 1000).toISOString(),
        },
        (value) => ({ value, paths: [] }),
      ),
    ),
  );
}

function settings(over: Record<string, unknown> = {}): ReportsSettings {
  return ReportsSettingsSchema.parse(over);
}

/** A logger whose lines a test can read. */
function capture(): { logger: Logger; lines: { msg: string; [key: string]: unknown }[] } {
  const lines: { msg: string; [key: string]: unknown }[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) },
  );
  return { logger, lines };
}

/** Each server's ids are its own, as ULIDs are: two schedulers never make the same report id. */
let servers = 0;

function deps(store: Store, data: string, logger: Logger, clock = () => T0): SchedulerDeps {
  const server = ++servers;
  let n = 0;
  return {
    store,
    data,
    logger,
    clock,
    newId: () => `R${server}-${String(++n).padStart(4, '0')}`,
  };
}

// ─── Settings ──────────────────────────────────────────────────────────────

describe('the `reports` settings, validated with the whole configuration', () => {
  function configWith(text: string) {
    const data = tempDir('warden-report-config-');
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const file = join(data, 'warden.yaml');
    writeFileSync(file, text);
    return loadConfig({ config: file }, {});
  }

  it('is off by default: no schedule, a 24 h window, the default thresholds', () => {
    const loaded = loadConfig({}, {});
    expect(loaded.ok && loaded.config.reports).toEqual({
      since: '24h',
      thresholds: DEFAULT_THRESHOLDS,
    });
  });

  it('takes a cron schedule, a time zone, a window, supervisors and thresholds', () => {
    const loaded = configWith(
      'reports:\n  schedule: "0 7 * * *"\n  timezone: Europe/Berlin\n  since: 7d\n  supervisors: [sup]\n  thresholds:\n    errorStreak: { minLength: 3 }\n',
    );
    expect(loaded.ok && loaded.config.reports).toMatchObject({
      schedule: '0 7 * * *',
      timezone: 'Europe/Berlin',
      since: '7d',
      supervisors: ['sup'],
      thresholds: { errorStreak: { minLength: 3 }, errorRate: DEFAULT_THRESHOLDS.errorRate },
    });
  });

  it('lists every problem of the section at once, with a "did you mean" for a misspelt key', () => {
    const loaded = configWith(
      [
        'port: 99999',
        'reports:',
        '  schedule: "61 * * * *"',
        '  timezone: Mars/Olympus',
        '  since: fortnight',
        '  supervisors: ["../etc"]',
        '  scheduel: x',
        '  thresholds:',
        '    errorStreak: { minLength: 0 }',
        '    loop: {}',
      ].join('\n'),
    );
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.problems;
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        'port',
        'reports.schedule',
        'reports.timezone',
        'reports.since',
        'reports.supervisors.0',
        'reports.scheduel',
        'reports.thresholds.errorStreak.minLength',
        'reports.thresholds.loop',
      ].sort(),
    );
    const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    expect(byPath['reports.scheduel']).toBe('unknown setting `scheduel`: did you mean `schedule`?');
    expect(byPath['reports.schedule']).toMatch(/^`61 \* \* \* \*` is not a cron pattern/);
    expect(byPath['reports.timezone']).toBe(
      '`Mars/Olympus` is not a time zone: use an IANA name such as `Europe/Berlin` or `UTC`',
    );
  });
});

// ─── The schedule ──────────────────────────────────────────────────────────

describe('the instant a timer fired for', () => {
  it('is the latest instant of the pattern at or before the moment it fired', () => {
    const daily = new Cron('0 7 * * *', { timezone: 'UTC' });
    expect(scheduledInstant(daily, T0 + 250)).toBe(T0);
    expect(scheduledInstant(daily, T0 + 30_000)).toBe(T0);
    const berlin = new Cron('0 7 * * *', { timezone: 'Europe/Berlin' });
    expect(new Date(scheduledInstant(berlin, T0 - HOUR + 100)).toISOString()).toBe(
      '2026-11-30T06:00:00.000Z',
    );
    const everySecond = new Cron('* * * * * *');
    expect(scheduledInstant(everySecond, T0 + 5600)).toBe(T0 + 5000);
    for (const c of [daily, berlin, everySecond]) c.stop();
  });
});

describe('scheduled reports (I10, I11)', () => {
  it('stores each supervisor’s report over the window ending at the instant, once', async () => {
    const data = await instance();
    const store = await openSqlite({ data, auditThread: false });
    cleanups.push(() => store.close());
    await seedCalls(store, T0);
    const { logger } = capture();
    const first = await runReports(settings(), deps(store, data, logger), T0);
    expect(first).toEqual({
      scheduledFor: '2026-11-30T07:00:00.000Z',
      stored: ['lead', 'sup'],
      existing: [],
      failed: [],
    });
    const again = await runReports(settings(), deps(store, data, logger), T0);
    expect(again).toMatchObject({ stored: [], existing: ['lead', 'sup'] });
    const [report] = await store.reports.list({ supervisor: 'sup' });
    expect(report).toMatchObject({
      kind: 'report',
      workspace: 'acme',
      scheduledFor: '2026-11-30T07:00:00.000Z',
      windowSince: '2026-11-29T07:00:00.000Z',
      windowUntil: '2026-11-30T07:00:00.000Z',
    });
    expect(report?.body).toContain('agent `coder-1` made 5 `git_push` calls in a row');
    expect((report?.data as unknown as ReportData).findings[0]?.kind).toBe('errorStreak');
  });

  it('covers the configured supervisors only, and logs one that cannot report without stopping the others', async () => {
    const data = await instance();
    const store = await openSqlite({ data, auditThread: false });
    cleanups.push(() => store.close());
    const { logger, lines } = capture();
    const summary = await runReports(
      settings({ supervisors: ['ghost', 'sup', 'coder-1'] }),
      deps(store, data, logger),
      T0,
    );
    expect(summary.stored).toEqual(['sup']);
    expect(summary.failed).toEqual([
      { supervisor: 'ghost', message: expect.stringContaining('no agent `ghost`') },
      {
        supervisor: 'coder-1',
        message: 'agent `coder-1` is not a supervisor: its role is `coder`',
      },
    ]);
    expect(lines.filter((l) => l.msg === 'report not made').map((l) => l.supervisor)).toEqual([
      'ghost',
      'coder-1',
    ]);
  });

  it('logs a store that fails, and the run still ends', async () => {
    const data = await instance();
    const store = await openSqlite({ data, auditThread: false });
    cleanups.push(() => store.close());
    const broken = {
      ...store,
      reports: {
        ...store.reports,
        list: () => Promise.reject(new Error('the database went away')),
        get: store.reports.get.bind(store.reports),
        add: store.reports.add.bind(store.reports),
      },
    } as Store;
    const { logger, lines } = capture();
    const summary = await runReports(settings(), deps(broken, data, logger), T0);
    expect(summary.failed).toEqual([
      { supervisor: 'lead', message: 'the database went away' },
      { supervisor: 'sup', message: 'the database went away' },
    ]);
    expect(lines.filter((l) => l.msg === 'report failed')).toHaveLength(2);
  });

  it('is off without a schedule', async () => {
    const data = await instance();
    const store = await openSqlite({ data, auditThread: false });
    cleanups.push(() => store.close());
    expect(startReportScheduler(settings(), deps(store, data, capture().logger))).toBeNull();
  });

  it('runs on a cron schedule (every second here), one report per supervisor and instant, and stops', async () => {
    const data = await instance();
    const store = await openSqlite({ data, auditThread: false });
    cleanups.push(() => store.close());
    const scheduler = startReportScheduler(
      settings({ schedule: '* * * * * *', supervisors: ['sup'] }),
      deps(store, data, capture().logger, Date.now),
    ) as ReportScheduler;
    expect(scheduler.next()).toBeInstanceOf(Date);
    await eventually(async () => (await store.reports.list()).length >= 2, 8000);
    await scheduler.stop();
    const settled = (await store.reports.list()).length;
    await new Promise((r) => setTimeout(r, 1200));
    expect((await store.reports.list()).length).toBe(settled);
    for (const r of await store.reports.list()) {
      expect(r.scheduledFor).toMatch(/:\d\d\.000Z$/);
      expect(r.windowUntil).toBe(r.scheduledFor);
    }
    expect(scheduler.next()).toBeNull();
  });

  it.skipIf(POSTGRES_SKIP !== null && !UNDER_CI)(
    'stores each instant’s report once when two servers on one Postgres run the same schedule',
    async () => {
      requirePostgresUnderCi();
      const data = await instance();
      const schema = uniqueSchema();
      const a = await openPostgres({ url: PG_URL, schema });
      const b = await openPostgres({ url: PG_URL, schema });
      cleanups.push(async () => {
        await a.close();
        await b.close();
        await dropSchema(schema);
      });
      await seedCalls(a, Date.now());
      const schedule = settings({ schedule: '* * * * * *' });
      const one = startReportScheduler(schedule, deps(a, data, capture().logger, Date.now));
      const two = startReportScheduler(schedule, deps(b, data, capture().logger, Date.now));
      await eventually(async () => (await a.reports.list()).length >= 6, 10_000);
      await Promise.all([one?.stop(), two?.stop()]);
      // And the same instant asked of both at once, as two timers firing together do.
      const at = Math.floor(Date.now() / 1000) * 1000 - 60_000;
      const runs = await Promise.all([one?.runFor(at), two?.runFor(at)]);
      // Between them every supervisor's report is stored once; the rest find it there.
      // One comparison, so that a failure shows what each run did.
      expect({
        stored: runs.flatMap((r) => r?.stored ?? []).sort(),
        existing: runs.flatMap((r) => r?.existing ?? []).sort(),
        failed: runs.flatMap((r) => r?.failed ?? []),
      }).toEqual({ stored: ['lead', 'sup'], existing: ['lead', 'sup'], failed: [] });
      const all = await a.reports.list({ limit: 500 });
      const keys = all.map((r) => `${r.supervisor}@${String(r.scheduledFor)}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(all.filter((r) => r.scheduledFor === new Date(at).toISOString())).toHaveLength(2);
      // Both servers computed the same report for an instant: the one stored is the one either would.
      const sample = all[0] as ReportRecord;
      expect(sample.body).toContain('`git_push` calls in a row');
    },
  );

  it('is started and stopped by the server, and its reports are served', async () => {
    const data = await instance();
    const loaded = loadConfig({ data, port: '0' }, {});
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const config = {
      ...loaded.config,
      reports: settings({ schedule: '* * * * * *', supervisors: ['sup'] }),
    };
    const running = await startServer(config, {
      version: '0.0.0-test',
      env: {},
      logger: pino({ level: 'silent' }),
    });
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) await running.stop();
    });
    expect(running.reports).not.toBeNull();
    const facts = await bannerFacts(running, config, '0.0.0-test');
    expect(facts.reports).toEqual({
      schedule: '* * * * * *',
      timezone: null,
      next: expect.stringMatching(/\.000Z$/),
    });
    expect(renderBanner(facts, config)).toMatch(
      /\n {2}reports {5}`\* \* \* \* \* \*`, next .+: GET \/v1\/reports\n/,
    );
    const viewer = await makeToken(running.warden.store.tokens, 'viewer', 'vic');
    const listed = await eventually(async () => {
      const res = await fetch(`${running.url}/v1/reports`, {
        headers: { authorization: `Bearer ${viewer.token}` },
      });
      const body = (await res.json()) as { reports: ReportRecord[] };
      return body.reports.length > 0 ? body.reports : null;
    }, 8000);
    expect(listed[0]).toMatchObject({ supervisor: 'sup', kind: 'report' });
    await running.stop();
    stopped = true;
    expect(running.reports?.next()).toBeNull();
  });
});

// ─── Routes and roles ──────────────────────────────────────────────────────

describe('GET /v1/reports: people read reports, agents do not', () => {
  const ROLES = ['admin', 'approver', 'overrider', 'viewer'] as const;

  async function open(): Promise<{
    t: TestWarden;
    app: Hono<Env>;
    api: ReturnType<typeof createApp>['api'];
    tokens: Record<(typeof ROLES)[number] | 'agent' | 'betaViewer', string>;
    get(path: string, token?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  }> {
    const server = await openTestServer({ version: 1, workspace: 'acme', rules: [] });
    cleanups.push(() => server.cleanup());
    const { t, app, api } = server;
    const tokens = {
      ...server.tokens,
      betaViewer: await server.token('viewer', 'bea', { workspace: 'beta' }),
    };
    const base = (n: number, over: Partial<ReportRecord>): ReportRecord => ({
      id: `rep-${n}`,
      workspace: 'acme',
      supervisor: 'sup',
      kind: 'report',
      title: `report ${n}`,
      body: `# report ${n}\n`,
      data: { findings: [] },
      windowSince: null,
      windowUntil: null,
      scheduledFor: null,
      createdAt: new Date(T0 + n * HOUR).toISOString(),
      ...over,
    });
    for (const r of [
      base(1, {}),
      base(2, { kind: 'message', data: null }),
      base(3, { workspace: 'beta', supervisor: 'lead' }),
      base(4, { workspace: null, supervisor: 'root' }),
    ])
      await t.warden.store.reports.add(r);
    const get = async (path: string, token?: string) => {
      const res = await app.request(path, {
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    return { t, app, api, tokens, get };
  }

  const ids = (body: Record<string, unknown>) => (body.reports as ReportRecord[]).map((r) => r.id);

  it('lets every human role list reports newest first, without their data', async () => {
    const { tokens, get } = await open();
    for (const role of ROLES) {
      const res = await get('/v1/reports', tokens[role]);
      expect(res.status, role).toBe(200);
      expect(ids(res.body), role).toEqual(['rep-4', 'rep-3', 'rep-2', 'rep-1']);
      expect((res.body.reports as Record<string, unknown>[])[0]).not.toHaveProperty('data');
    }
  });

  it('lets every human role read one report with its body and data', async () => {
    const { tokens, get } = await open();
    for (const role of ROLES) {
      const res = await get('/v1/reports/rep-1', tokens[role]);
      expect(res.status, role).toBe(200);
      expect(res.body).toMatchObject({ id: 'rep-1', body: '# report 1\n', data: { findings: [] } });
    }
  });

  it('refuses agent tokens both routes, and a request without a token', async () => {
    const { tokens, get } = await open();
    const list = await get('/v1/reports', tokens.agent);
    expect(list.status).toBe(403);
    expect(JSON.stringify(list.body)).toContain('an `agent` token may not');
    expect((await get('/v1/reports/rep-1', tokens.agent)).status).toBe(403);
    expect((await get('/v1/reports')).status).toBe(401);
  });

  it('filters by supervisor and kind, and refuses a bad filter listing the problem', async () => {
    const { tokens, get } = await open();
    expect(ids((await get('/v1/reports?supervisor=sup', tokens.viewer)).body)).toEqual([
      'rep-2',
      'rep-1',
    ]);
    expect(ids((await get('/v1/reports?kind=message', tokens.viewer)).body)).toEqual(['rep-2']);
    expect(ids((await get('/v1/reports?limit=1', tokens.viewer)).body)).toEqual(['rep-4']);
    const bad = await get('/v1/reports?kind=memo&limit=0', tokens.viewer);
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { path: string }[]).map((e) => e.path).sort()).toEqual([
      'query.kind',
      'query.limit',
    ]);
    expect((await get('/v1/reports/rep-nope', tokens.viewer)).status).toBe(404);
  });

  it('shows a token bound to a workspace only that workspace’s reports', async () => {
    const { tokens, get } = await open();
    expect(ids((await get('/v1/reports', tokens.betaViewer)).body)).toEqual(['rep-3']);
    expect((await get('/v1/reports/rep-1', tokens.betaViewer)).status).toBe(404);
    expect((await get('/v1/reports/rep-4', tokens.betaViewer)).status).toBe(404);
    expect((await get('/v1/reports/rep-3', tokens.betaViewer)).status).toBe(200);
    expect((await get('/v1/reports?workspace=acme', tokens.betaViewer)).status).toBe(403);
  });

  it('documents both routes in the OpenAPI document with the permission they need', async () => {
    const { api } = await open();
    const doc = api.openapi({ title: 'Warden', version: 'test' }) as {
      paths: Record<string, Record<string, { 'x-warden-permission': string }>>;
    };
    expect(doc.paths['/v1/reports']?.get?.['x-warden-permission']).toBe('read');
    expect(doc.paths['/v1/reports/{id}']?.get?.['x-warden-permission']).toBe('read');
  });
});
