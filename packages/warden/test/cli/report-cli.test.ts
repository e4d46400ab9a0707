// `warden report` as an operator runs it (I11, A4): the report of a
// supervisor over a window from the data folder's store, as Markdown or JSON,
// optionally stored for the human; every bad input said clearly, exit 1. Run
// in-process with a fixed clock, and as the built code in a real process.

import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { callEntry } from '../../src/audit/records.js';
import { Exit } from '../../src/cli/io.js';
import type { Io } from '../../src/cli/io.js';
import type { ReportOptions } from '../../src/cli/commands/report.js';
import { runReport } from '../../src/cli/commands/report.js';
import { createAgent } from '../../src/instance/index.js';
import type { ReportData } from '../../src/report/types.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { AuditStatus } from '../../src/store/types.js';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const MIN = 60_000;
const DIST_COMMAND = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'commands', 'report.js');
const DIST_IO = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'io.js');

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

/** A data folder with supervisor `sup`, agent `coder-1` and its failing `web_fetch` calls before `now`. */
async function instance(now: number, options: { supervisors?: string[]; store?: boolean } = {}) {
  const data = tempDir('warden-report-cli-');
  folders.push(data);
  for (const id of options.supervisors ?? ['sup'])
    await createAgent(data, { id, role: 'supervisor', workspace: 'acme' });
  await createAgent(data, { id: 'coder-1', role: 'coder', workspace: 'acme' });
  if (options.store === false) return data;
  const store = await openSqlite({ data, auditThread: false });
  const statuses: AuditStatus[] = [
    ...Array.from({ length: 143 }, () => 'Error' as const),
    ...Array.from({ length: 6 }, () => 'Ok' as const),
  ];
  await store.audit.append(
    statuses.map((status, i) =>
      callEntry(
        { workspace: 'acme', agentId: 'coder-1', runId: null, model: null, source: 'test' },
        {
          id: `e-${String(i).padStart(4, '0')}`,
          callId: `c-${i}`,
          decisionId: null,
          tool: 'web_fetch',
          arguments: { url: `https://example.com/${i}` },
          status,
          durationMs: 3,
          occurredAt: new Date(now - 10 * 60 * MIN + i * 5000).toISOString(),
        },
        (value) => ({ value, paths: [] }),
      ),
    ),
  );
  await store.close();
  return data;
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function report(options: ReportOptions, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
    stdin: () => '',
    env,
    now: () => NOW,
    color: false,
  };
  try {
    return { code: await runReport(io, options, '0.0.0-test'), stdout, stderr };
  } catch (error) {
    if (error instanceof Exit) return { code: error.code, stdout, stderr };
    throw error;
  }
}

const STATEMENT =
  'agent `coder-1` made 143 `web_fetch` calls with status `Error` in 24 h (96 % of its 149 `web_fetch` calls)';

describe('warden report', () => {
  it('prints the report as Markdown, with the finding and its numbers (A4)', async () => {
    const data = await instance(NOW);
    const ran = await report({ supervisor: 'sup', data });
    expect(ran).toMatchObject({ code: 0, stderr: '' });
    expect(ran.stdout).toMatch(/^# Supervisor report of sup: 24 h to 2026-11-30T12:00:00.000Z/);
    expect(ran.stdout).toContain(STATEMENT);
  });

  it('prints JSON with --json, the same bytes each time', async () => {
    const data = await instance(NOW);
    const first = await report({ supervisor: 'sup', data, json: true });
    const again = await report({ supervisor: 'sup', data, json: true });
    expect(first.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    const parsed = JSON.parse(first.stdout) as ReportData;
    expect(parsed).toMatchObject({
      version: 1,
      supervisor: 'sup',
      window: { since: '2026-11-29T12:00:00.000Z', until: '2026-11-30T12:00:00.000Z' },
      sources: ['audit', 'runs', 'tasks'],
    });
    expect(parsed.findings.map((f) => f.statement)).toContain(STATEMENT);
  });

  it('takes the window from --since', async () => {
    const data = await instance(NOW);
    const ran = await report({ supervisor: 'sup', data, since: '2h', json: true });
    expect((JSON.parse(ran.stdout) as ReportData).findings).toEqual([]);
  });

  it('stores the report for the human with --store, exactly as printed', async () => {
    const data = await instance(NOW);
    const ran = await report({ supervisor: 'sup', data, store: true });
    expect(ran.code).toBe(0);
    const id = /stored as report (rep-[0-9a-z]+)/.exec(ran.stderr)?.[1];
    expect(id).toBeDefined();
    const store = await openSqlite({ data, auditThread: false });
    try {
      const stored = await store.reports.get(id as string);
      expect(stored).toMatchObject({
        supervisor: 'sup',
        kind: 'report',
        workspace: 'acme',
        scheduledFor: null,
        windowUntil: '2026-11-30T12:00:00.000Z',
        body: ran.stdout,
      });
    } finally {
      await store.close();
    }
  });

  it('picks the only supervisor when --supervisor is left out, and asks when there are several', async () => {
    const one = await instance(NOW);
    expect((await report({ data: one })).stdout).toContain(STATEMENT);
    const two = await instance(NOW, { supervisors: ['sup-a', 'sup-b'] });
    expect(await report({ data: two })).toMatchObject({
      code: 1,
      stderr: 'error: --supervisor: give the supervisor with `--supervisor ID`: `sup-a`, `sup-b`\n',
    });
  });

  it('says clearly what is wrong: an unknown supervisor, an agent that is not one, a bad window, no store', async () => {
    const data = await instance(NOW);
    expect(await report({ supervisor: 'nobody', data })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: --supervisor: no agent \`nobody\` in \`${data}\`: its supervisors are \`sup\`\n`,
    });
    expect((await report({ supervisor: 'coder-1', data })).stderr).toBe(
      'error: --supervisor: agent `coder-1` is not a supervisor: its role is `coder`\n',
    );
    expect((await report({ supervisor: 'sup', data, since: 'last week' })).stderr).toBe(
      'error: --since: `last week` is neither a span like `24h` or `7d` nor a time with a zone (ISO 8601)\n',
    );
    const empty = await instance(NOW, { store: false });
    const none = await report({ supervisor: 'sup', data: empty });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`error: --data: no Warden store in \`${empty}\``);
  });

  it('says which setting of the supervisor is bad', async () => {
    const data = await instance(NOW);
    writeFileSync(
      join(data, 'agents', 'sup', 'AgentSettings.json'),
      JSON.stringify({ role: 'supervisor', tools: { agentInspector: { maxFileKb: -1 } } }),
    );
    const ran = await report({ supervisor: 'sup', data });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^error: agent `sup`: tools\.agentInspector\.maxFileKb: /);
  });

  it('prints problems as `{ errors }` with --json', async () => {
    const data = await instance(NOW);
    const ran = await report({ supervisor: 'sup', data, since: 'soon', json: true });
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout)).toEqual({
      errors: [{ path: '--since', message: expect.stringContaining('`soon` is neither') }],
    });
  });

  it('takes the window and thresholds from the server configuration with --config, and lists its problems', async () => {
    const data = await instance(NOW);
    const config = join(data, 'warden.yaml');
    writeFileSync(
      config,
      `data: ${data}\nreports:\n  since: 48h\n  thresholds:\n    errorRate: { minErrors: 500 }\n`,
    );
    const ran = await report({ supervisor: 'sup', config, json: true });
    const parsed = JSON.parse(ran.stdout) as ReportData;
    expect(parsed.window.label).toBe('48 h');
    expect(parsed.findings.map((f) => f.kind)).not.toContain('errorRate');
    writeFileSync(
      config,
      `reports:\n  since: forever\n  thresholds:\n    errorRate: { minErrorz: 5 }\n`,
    );
    const bad = await report({ supervisor: 'sup', config });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: reports.since: `forever` is neither');
    expect(bad.stderr).toContain(
      'error: reports.thresholds.errorRate.minErrorz: unknown setting `minErrorz`: did you mean `minErrors`?',
    );
  });
});

describe('warden report as the built code in a real process', () => {
  /** Runs the compiled command in a fresh Node process, as the binary's `report` will. */
  function built(args: ReportOptions): Ran {
    const script = `
      const { runReport } = await import(${JSON.stringify(pathToFileURL(DIST_COMMAND).href)});
      const { processIo, Exit } = await import(${JSON.stringify(pathToFileURL(DIST_IO).href)});
      try { process.exitCode = await runReport(processIo(), ${JSON.stringify(args)}, 'test'); }
      catch (e) { if (e instanceof Exit) process.exitCode = e.code; else throw e; }`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', DATABASE_URL: '' },
    });
    return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  }

  it('prints Markdown and JSON, and exits 1 with `error: …` on a bad input', async () => {
    const data = await instance(Date.now());
    const markdown = built({ supervisor: 'sup', data });
    expect(markdown.stderr).toBe('');
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(STATEMENT);
    const json = built({ supervisor: 'sup', data, json: true });
    expect((JSON.parse(json.stdout) as ReportData).findings[0]?.kind).toBeDefined();
    const bad = built({ supervisor: 'sup', data, since: 'nope' });
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toMatch(/^error: --since: `nope` is neither/);
  });
});

/** `warden report` exists once it is wired into the CLI's verbs (cli/main.ts). */

describe('the `warden report` verb', () => {
  it('prints the Markdown report, and JSON with --json', async () => {
    const data = await instance(Date.now());
    const ran = warden(['report', '--supervisor', 'sup', '--data', data]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(STATEMENT);
    const json = warden(['report', '--supervisor', 'sup', '--data', data, '--json']);
    expect((JSON.parse(json.stdout) as ReportData).supervisor).toBe('sup');
    const bad = warden(['report', '--supervisor', 'ghost', '--data', data]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: --supervisor: no agent `ghost`');
  });
});
