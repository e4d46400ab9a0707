// The agents pages in real Chromium against a real `warden serve`: the list
// with each agent's role, the tools it used and its last activity; an
// agent's page with its audit timeline (paged, filtered by status), its run
// receipts with tokens and cost and a chart over time (I2), its tasks (open,
// done, overdue) and the newest stored supervisor report's finding about it
// (I11). Text an agent wrote is shown as text, never as markup; a failed
// call is shown where it failed, and the rest of the page still works.

import { describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT } from '../support/browser.js';
import { useConsole } from '../support/console-fixture.js';
import { api } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - { id: ask-push, scope: workspace, action: gitPush, decision: prompt }
`;

const MARKUP = '<img src=x onerror=alert(1)>';
const OK_CALLS = 30;
const ERROR_CALLS = 2;
const RUNS = [
  { tokensIn: 1200, tokensOut: 300, costCents: 7 },
  { tokensIn: 4000, tokensOut: 1000, costCents: 31 },
  { tokensIn: 800, tokensOut: 200, costCents: 4 },
];

const web = useConsole({
  policy: POLICY,
  agents: [
    ['sup', '--role', 'supervisor', '--workspace', 'acme'],
    ['coder-1', '--role', 'coder', '--workspace', 'acme', '--tool', 'web_fetch'],
  ],
  tokens: {
    agent: { agent: 'coder-1', name: 'coder' },
    admin: { role: 'admin', name: 'alice' },
    viewer: { role: 'viewer', name: 'vic' },
  },
  seed: seedAgents,
});
const { tokens, signedIn } = web;

async function ok(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const answer = await api(web.url, token, method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

/** The seed, before the browser starts: what the pages show of agent coder-1. */
async function seedAgents(): Promise<void> {
  await ok(tokens.admin, 'PUT', '/v1/agents/coder-1?workspace=acme', {
    name: 'Coder One',
    role: 'coder',
    model: 'model-1',
  });
  // The audit log: calls the agent reports, two failing with agent-written text in them.
  for (let i = 0; i < OK_CALLS; i += 1)
    await ok(tokens.agent, 'POST', '/v1/audit', {
      tool: 'read_file',
      status: 'Ok',
      arguments: { path: `src/file-${i}.ts` },
      durationMs: 3,
    });
  for (let i = 0; i < ERROR_CALLS; i += 1)
    await ok(tokens.agent, 'POST', '/v1/audit', {
      tool: 'web_fetch',
      status: 'Error',
      arguments: { url: 'https://example.com/', note: MARKUP },
      error: `fetch failed: ${MARKUP}`,
    });
  // A push nobody could answer: a decision and a denied call.
  const pushed = await ok(tokens.agent, 'POST', '/v1/decide', {
    tool: 'git_push',
    command: 'git push origin feature/x',
  });
  expect(pushed.outcome).toBe('deny');
  // Tasks: one overdue (its title agent-facing text with markup), one open, one done.
  const overdue = await ok(tokens.admin, 'POST', '/v1/tasks', {
    workspace: 'acme',
    agent: 'coder-1',
    title: `Fix ${MARKUP} bug`,
    dueAt: '2026-01-01T00:00:00Z',
  });
  await ok(tokens.admin, 'POST', '/v1/tasks', {
    workspace: 'acme',
    agent: 'coder-1',
    title: 'Write the changelog',
    dueAt: '2099-01-01T00:00:00Z',
  });
  const done = await ok(tokens.admin, 'POST', '/v1/tasks', {
    workspace: 'acme',
    agent: 'coder-1',
    title: 'Update the README',
  });
  await ok(tokens.agent, 'PATCH', `/v1/tasks/${done.id as string}`, { state: 'done' });
  // Runs with their receipts (I2), the first linked to the overdue task.
  for (const [i, run] of RUNS.entries()) {
    const started = await ok(
      tokens.agent,
      'POST',
      '/v1/runs',
      i === 0 ? { taskId: overdue.id } : {},
    );
    await ok(tokens.agent, 'POST', `/v1/runs/${started.id as string}/steps`, {
      kind: 'llm',
      ...run,
    });
    await ok(tokens.agent, 'POST', `/v1/runs/${started.id as string}/finish`, { status: 'done' });
  }
  // The supervisor's report, stored for the human.
  const report = warden(['report', '--supervisor', 'sup', '--data', web.data, '--store']);
  expect(report.code, report.stderr).toBe(0);
}

describe.skipIf(BROWSER_SKIP !== null)(
  'the agents pages, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('lists the agents with role, assigned tools and last activity, and leads to each', async () => {
      const { page, errors } = await signedIn(tokens.viewer, '/agents');
      const row = page.locator('tr[data-agent="coder-1"]');
      await row.waitFor({ timeout: 10_000 });
      const text = await row.innerText();
      expect(text).toContain('coder');
      expect(text).toContain('Coder One');
      expect(text).toContain('model-1');
      // The tools its AgentSettings.json assigns (inspector.md §4), not every tool it happened to call.
      expect(text).toContain('web_fetch');
      expect(text).not.toContain('git_push');
      expect(await page.locator('tr[data-agent="sup"]').innerText()).toContain('agentInspector');
      expect(await row.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await page.getByRole('columnheader', { name: 'Last activity' }).count()).toBe(1);
      await row.getByRole('link', { name: 'coder-1' }).click();
      await page.waitForURL('**/agents/coder-1?workspace=acme');
      await page.getByRole('heading', { name: 'Audit timeline' }).waitFor();
      expect(errors).toEqual([]);
    });

    it('shows the audit timeline paged and filtered by status; agent-written markup stays text', async () => {
      const { page, errors } = await signedIn(tokens.admin, '/agents/coder-1');
      const count = page.locator('#audit-count');
      await expect
        .poll(() => count.innerText(), { timeout: 10_000 })
        .toContain('Showing 25 entries');
      const total = OK_CALLS + ERROR_CALLS + 2; // and the decision and the denied call of the push
      await page.getByRole('button', { name: 'Show older' }).click();
      await expect.poll(() => count.innerText()).toContain(`Showing ${total} entries`);
      expect(await page.locator('.ag-timeline tbody tr').count()).toBe(total);
      // Each entry once, whatever the paging read twice.
      const ids = await page
        .locator('.ag-timeline tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-entry')));
      expect(new Set(ids).size).toBe(total);
      expect(await page.getByRole('button', { name: 'Show older' }).isHidden()).toBe(true);

      await page.getByLabel('Status (tool calls)').selectOption('Error');
      await expect.poll(() => count.innerText()).toContain(`Showing ${ERROR_CALLS} entries`);
      const rows = page.locator('.ag-timeline tbody tr');
      expect(await rows.count()).toBe(ERROR_CALLS);
      const first = await rows.first().innerText();
      expect(first).toContain('web_fetch');
      expect(first).toContain('Error');
      expect(first).toContain(`fetch failed: ${MARKUP}`);
      expect(first).toContain(MARKUP);
      await page.getByLabel('Status (tool calls)').selectOption('Denied');
      await expect.poll(() => count.innerText()).toContain('Showing 1 entry');
      expect(await page.locator('img').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('I2: shows the run receipts with tokens and cost, and a chart of them over time', async () => {
      const { page, errors } = await signedIn(tokens.admin, '/agents/coder-1');
      const receipts = page.locator('section', {
        has: page.getByRole('heading', { name: 'Run receipts' }),
      });
      await receipts.locator('table.ag-receipts').waitFor({ timeout: 10_000 });
      expect(await receipts.locator('table.ag-receipts tbody tr').count()).toBe(RUNS.length);
      const totals = await receipts.locator('.ag-totals').innerText();
      const tokensIn = RUNS.reduce((t, r) => t + r.tokensIn, 0);
      const cost = RUNS.reduce((t, r) => t + r.costCents, 0);
      expect(totals).toContain(tokensIn.toLocaleString('en-US'));
      expect(totals).toContain(String(cost));
      // The chart: inline SVG made with DOM methods, one bar per run, described for screen readers.
      const chart = receipts.locator('svg.ag-chart');
      expect(await chart.getAttribute('role')).toBe('img');
      expect(await chart.locator('rect.ag-chart-bar').count()).toBe(RUNS.length);
      expect(await chart.locator('circle.ag-chart-dot').count()).toBe(RUNS.length);
      expect(await chart.locator('polyline.ag-chart-line').count()).toBe(1);
      expect(await chart.locator('desc').textContent()).toContain(`3 runs from`);
      expect(await chart.locator('desc').textContent()).toContain(`${cost} cents in all`);
      // The tallest bar is the run with the most tokens (the second).
      const heights = await chart
        .locator('rect.ag-chart-bar')
        .evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('height'))));
      expect(Math.max(...heights)).toBe(heights[1]);
      // No inline style anywhere: the strict CSP would refuse it.
      expect(await page.locator('[style]').count()).toBe(0);
      // The run linked to a task names it.
      expect(await receipts.locator('table.ag-receipts').innerText()).toContain('t-');
      expect(errors).toEqual([]);
    });

    it('shows the tasks open, done and overdue', async () => {
      const { page, errors } = await signedIn(tokens.admin, '/agents/coder-1');
      const tasks = page.locator('section', { has: page.getByRole('heading', { name: 'Tasks' }) });
      await tasks.locator('table.ag-tasks').waitFor({ timeout: 10_000 });
      expect(await tasks.locator('table.ag-tasks tbody tr').count()).toBe(3);
      await tasks.getByRole('button', { name: 'Overdue (1)' }).click();
      expect(
        await tasks.getByRole('button', { name: 'Overdue (1)' }).getAttribute('aria-pressed'),
      ).toBe('true');
      const rows = tasks.locator('table.ag-tasks tbody tr');
      expect(await rows.count()).toBe(1);
      expect(await rows.first().innerText()).toContain(`Fix ${MARKUP} bug`);
      expect(await rows.first().innerText()).toContain('overdue');
      await tasks.getByRole('button', { name: 'Done (1)' }).click();
      expect(await rows.first().innerText()).toContain('Update the README');
      await tasks.getByRole('button', { name: 'Open (2)' }).click();
      expect(await rows.count()).toBe(2);
      expect(await page.locator('img').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('I11: shows the stored supervisor report’s finding about the agent, quoting agent text as text', async () => {
      const { page, errors } = await signedIn(tokens.viewer, '/agents/coder-1');
      const report = page.locator('section', {
        has: page.getByRole('heading', { name: 'Latest supervisor report' }),
      });
      const finding = report.locator('li.ag-finding[data-kind="overdueTasks"]');
      await finding.waitFor({ timeout: 10_000 });
      const text = await finding.innerText();
      expect(text).toContain('overdue tasks');
      expect(text).toContain('agent `coder-1` has 1 overdue task');
      expect(text).toContain('agent-written data, not an instruction');
      expect(await finding.locator('q').innerText()).toBe(`Fix ${MARKUP} bug`);
      expect(await report.innerText()).toContain('Supervisor report of sup');
      expect(await report.getByRole('heading', { name: /Findings about coder-1/ }).count()).toBe(1);
      expect(await page.locator('img').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('shows a failed call where it failed, and the rest of the page still works', async () => {
      const { page, errors } = await signedIn(tokens.admin, '/');
      await page.route('**/v1/runs?*', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ errors: [{ path: '', message: 'the store is not answering' }] }),
        }),
      );
      await page.goto(`${web.url}/agents/coder-1`);
      const receipts = page.locator('section', {
        has: page.getByRole('heading', { name: 'Run receipts' }),
      });
      const alert = receipts.getByRole('alert');
      await alert.waitFor({ timeout: 10_000 });
      expect(await alert.innerText()).toBe(
        'Cannot read the run receipts: the store is not answering',
      );
      await expect
        .poll(() => page.locator('#audit-count').innerText(), { timeout: 10_000 })
        .toContain('Showing 25 entries');
      await page.locator('table.ag-tasks').waitFor();
      // The browser's own line about the 503 is the only console error.
      expect(errors.filter((e) => !e.includes('status of 503'))).toEqual([]);
    });
  },
);
