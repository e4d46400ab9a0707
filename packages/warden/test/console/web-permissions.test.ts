// The permissions screen in real Chromium, against `warden serve` with a
// managed layer pinned by WARDEN_MANAGED_POLICY: a rule written from a matrix
// cell is a new attributed revision and the cell changes (G19, G20); a
// concurrent write is a conflict the page names; the what-if check answers
// what `warden explain` answers (G38); viewers see no edit controls and the
// API refuses them; managed rules are read-only with their source (G29); a
// remembered rule is revoked from the screen (G23); the autonomy dial says
// what actFreely means (G32); templates preview, then apply; the audit log
// highlights advisory hits and counts what they would have blocked (G25,
// G39); every failed call is an alert, never a blank page.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import {
  BROWSER_SKIP,
  BROWSER_TEST_TIMEOUT,
  launchBrowser,
  pageErrors,
  signInAs,
} from '../support/browser.js';
import type { Served } from '../support/processes.js';
import { api, cliToken, dataWithPolicy, serve } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
spaces:
  payments: { autonomy: actWithApproval }
modes:
  review:
    preset:
      - { action: gitCommit, decision: prompt }
    commandNet: ["git push --force"]
rules:
  - { id: protect-main, action: gitPush, decision: deny, when: { refs: [main] } }
  - { id: coder-features, scope: "agent:coder-1", action: gitPush, decision: allow, when: { refs: ["feature/**"] } }
  - { id: watch-egress, action: networkEgress, decision: deny, enforcement: advisory }
  - { id: no-publish, command: npm publish, decision: deny, enforcement: soft }
`;

const MANAGED = `version: 1
rules:
  - { id: pinned-secrets, action: secretAccess, decision: deny, note: set by the security team }
`;

const PAGE = '/workspaces/acme/settings/workspace/permissions';

type J = Record<string, unknown>;

let server: Served;
let data: string;
let managedFile: string;
let tokens: Record<'admin' | 'viewer' | 'approver' | 'agent', string>;
let browser: Browser | undefined;

beforeAll(async () => {
  ({ data } = dataWithPolicy(POLICY));
  managedFile = join(data, 'managed.yaml');
  writeFileSync(managedFile, MANAGED);
  const token = (role: string, name: string, extra: string[] = []) =>
    cliToken(['--data', data, '--role', role, '--name', name, ...extra]).token;
  tokens = {
    admin: token('admin', 'alice'),
    viewer: token('viewer', 'vic'),
    approver: token('approver', 'april'),
    agent: token('agent', 'coder', ['--workspace', 'acme', '--agent', 'coder-1']),
  };
  server = await serve(['--data', data], { WARDEN_MANAGED_POLICY: managedFile });
  if (BROWSER_SKIP === null) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A fresh page, signed in with `token`, on the permissions screen (tab `tab`), and its errors. */
async function open(token: string, tab = 'matrix'): Promise<{ page: Page; errors: string[] }> {
  const page = await (browser as Browser).newPage({ timezoneId: 'UTC' });
  const errors = pageErrors(page);
  await signInAs(page, server.url, token, PAGE);
  await page.locator('table.matrix').waitFor();
  if (tab !== 'matrix') await page.locator(`#tab-${tab}`).click();
  return { page, errors };
}

const cell = (page: Page, cls: string, scope: string) =>
  page.locator(`button.cell[data-class="${cls}"][data-scope="${scope}"]`);

/** The page's text without the back-quotes the server writes around names. */
const plain = (text: unknown) => String(text).replaceAll('`', '');

/** Errors of scripts, leaving out the browser's own log line for a refused request (a 4xx is expected there). */
const scriptErrors = (errors: string[]) =>
  errors.filter((e) => !e.startsWith('Failed to load resource'));

async function current(): Promise<{ revision: number; document: J }> {
  const got = await api(server.url, tokens.admin, 'GET', '/v1/policy?workspace=acme');
  expect(got.status).toBe(200);
  return got.body as { revision: number; document: J };
}

describe.skipIf(BROWSER_SKIP !== null)(
  'the permissions screen, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('G19/G20: a rule written from a matrix cell is a new revision by the signed-in name, and the cell changes', async () => {
      const { page, errors } = await open(tokens.admin);
      const target = cell(page, 'fileDelete', 'space:payments');
      expect(await target.getAttribute('data-effective')).toBe('prompt');
      const before = (await current()).revision;

      await target.click();
      await page.getByRole('button', { name: 'Add a rule for fileDelete here' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a rule' });
      await dialog.getByRole('radio', { name: /Deny —/ }).check();
      await dialog.getByLabel('Why (for the revision history)').fill('no deletes in payments');
      await dialog.getByRole('button', { name: 'Preview' }).click();
      const change = dialog.locator(
        '.changes li[data-class="fileDelete"][data-scope="space:payments"]',
      );
      await change.waitFor();
      expect(await change.innerText()).toContain('deny by filedelete-space-payments');
      // The preview is in view in the dialog, and the dialog's buttons with it: no scrolling.
      const shown = await dialog.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const inView = (sel: string) => {
          const r = el.querySelector(sel)?.getBoundingClientRect();
          return r !== undefined && r.top >= box.top - 1 && r.top < box.bottom;
        };
        return { preview: inView('.preview'), save: inView('.actions .primary') };
      });
      expect(shown).toEqual({ preview: true, save: true });
      expect(await dialog.locator('.preview .sentence').innerText()).toBe(
        'Reads as: In space payments, deleting a file (fileDelete) is denied.',
      );
      await dialog.getByRole('button', { name: 'Save as a new revision' }).click();
      await page
        .locator(
          'button.cell[data-class="fileDelete"][data-scope="space:payments"][data-effective="deny"]',
        )
        .waitFor();
      expect(await target.locator('.cell-by').innerText()).toBe('filedelete-space-payments');
      await expect.poll(() => dialog.count()).toBe(0);

      const revisions = await api(server.url, tokens.viewer, 'GET', '/v1/policy/revisions?limit=1');
      expect((revisions.body.revisions as J[])[0]).toMatchObject({
        revision: before + 1,
        author: 'alice',
        message: 'no deletes in payments',
      });

      // Edit it: constraints and an expiry; the unconstrained cell goes back to the default,
      // with the rule now a conditional exception.
      await page.getByRole('button', { name: 'Edit rule filedelete-space-payments' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit rule filedelete-space-payments' });
      await edit.getByLabel('Paths').fill('**/.env\nsecrets/**');
      await edit.getByLabel('Expires (your local time; empty: never)').fill('2030-01-02T03:04');
      await edit.getByRole('button', { name: 'Save as a new revision' }).click();
      await page
        .locator(
          'button.cell[data-class="fileDelete"][data-scope="space:payments"][data-effective="prompt"]',
        )
        .waitFor();
      expect(await target.innerText()).toContain('+1 when…');
      const written = (await current()).document.rules as J[];
      expect(written.find((r) => r.id === 'filedelete-space-payments')).toEqual({
        id: 'filedelete-space-payments',
        scope: 'space:payments',
        action: 'fileDelete',
        decision: 'deny',
        when: { paths: ['**/.env', 'secrets/**'] },
        expiresAt: '2030-01-02T03:04:00Z',
      });

      // G19: every rule is listed as the sentence the server gives it, with origin and expiry.
      await page.locator('#tab-rules').click();
      const listed = await api(server.url, tokens.viewer, 'GET', '/v1/rules?workspace=acme');
      for (const rule of listed.body.rules as J[]) {
        const item = page.locator(
          `#panel-rules li[data-rule="${String(rule.id)}"][data-layer="${String(rule.layer)}"]`,
        );
        expect(await item.locator('.sentence').innerText()).toBe(plain(rule.sentence));
        expect(await item.locator('.meta').innerText()).toContain(String(rule.origin));
      }
      const mine = page.locator('#panel-rules li[data-rule="filedelete-space-payments"]');
      expect(await mine.innerText()).toContain('until 2030-01-02 03:04:00 UTC');
      expect(errors).toEqual([]);
      await page.close();
    });

    it('G20: a rule written in a mode column lands in that mode’s preset; removing a rule is a new revision too', async () => {
      const { page, errors } = await open(tokens.admin);
      await cell(page, 'packageInstall', 'mode:review').click();
      await page.getByRole('button', { name: 'Add a rule for packageInstall here' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a rule' });
      expect(await dialog.getByLabel('Scope', { exact: true }).inputValue()).toBe('mode:review');
      await dialog.getByRole('radio', { name: /Ask a human —/ }).check();
      await dialog.getByRole('button', { name: 'Save as a new revision' }).click();
      await page
        .locator(
          'button.cell[data-class="packageInstall"][data-scope="mode:review"][data-effective="prompt"]',
        )
        .waitFor();
      const modes = (await current()).document.modes as Record<string, { preset: J[] }>;
      expect(modes.review?.preset).toContainEqual({
        id: 'packageinstall-mode-review',
        action: 'packageInstall',
        decision: 'prompt',
      });

      await page.getByRole('button', { name: 'Edit rule packageinstall-mode-review' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit rule packageinstall-mode-review' });
      const remove = edit.getByRole('button', { name: 'Remove this rule' });
      await remove.click();
      await edit.getByRole('button', { name: /click again to confirm/ }).click();
      await page
        .locator(
          'button.cell[data-class="packageInstall"][data-scope="mode:review"][data-effective="allow"]',
        )
        .waitFor();
      const after = (await current()).document.modes as Record<string, { preset: J[] }>;
      expect(after.review?.preset.map((r) => r.id)).not.toContain('packageinstall-mode-review');
      const revisions = await api(server.url, tokens.viewer, 'GET', '/v1/policy/revisions?limit=1');
      expect((revisions.body.revisions as J[])[0]).toMatchObject({
        author: 'alice',
        message: 'console: remove rule packageinstall-mode-review',
      });
      expect(errors).toEqual([]);
      await page.close();
    });

    it('a write by someone else in between is a conflict the page names; nothing is overwritten, and the edit saves after a reload', async () => {
      const { page, errors } = await open(tokens.admin, 'rules');
      await page.getByRole('button', { name: 'Add a rule', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a rule' });
      await dialog.getByLabel('Action class', { exact: true }).selectOption('prCreate');
      await dialog.getByRole('radio', { name: /Allow —/ }).check();
      await dialog.getByLabel('Rule id').fill('open-prs');

      // Meanwhile, someone else writes a revision.
      const { revision, document } = await current();
      const theirs = structuredClone(document) as { rules: J[] };
      theirs.rules.push({ id: 'other-writer', action: 'enclosureControl', decision: 'prompt' });
      const put = await api(server.url, tokens.admin, 'PUT', '/v1/policy', {
        document: theirs,
        message: 'someone else',
        expectedRevision: revision,
      });
      expect(put.status).toBe(200);

      await dialog.getByRole('button', { name: 'Save as a new revision' }).click();
      const alert = dialog.getByRole('alert');
      await alert.getByText('Not saved — the policy changed since this form read it.').waitFor();
      expect(await alert.innerText()).toContain(
        `This form read revision ${revision}; the policy is at revision ${revision + 1}, not at the expected one`,
      );
      expect((await current()).revision).toBe(revision + 1);

      await alert.getByRole('button', { name: 'Reload the policy' }).click();
      await dialog.getByText(`The policy is now read at revision ${revision + 1}`).waitFor();
      await dialog.getByRole('button', { name: 'Save as a new revision' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      const after = await current();
      expect(after.revision).toBe(revision + 2);
      const ids = (after.document.rules as J[]).map((r) => r.id);
      expect(ids).toContain('other-writer');
      expect(ids).toContain('open-prs');
      await page.locator('#tab-matrix').click();
      await page
        .locator(
          'button.cell[data-class="prCreate"][data-scope="workspace"][data-effective="allow"]',
        )
        .waitFor();
      expect(scriptErrors(errors)).toEqual([]);
      await page.close();
    });

    it('G38: the what-if check answers what `warden explain` answers for the same policy and request', async () => {
      const { page, errors } = await open(tokens.admin, 'what-if');
      const panel = page.locator('#panel-what-if');
      const cases: { fill: (p: typeof panel) => Promise<void>; name: string }[] = [
        {
          name: 'a command line in a space',
          fill: async (p) => {
            await p.getByLabel('Agent', { exact: true }).fill('coder-1');
            await p.getByLabel('Space', { exact: true }).selectOption('payments');
            await p
              .getByLabel('Command line')
              .fill('git push origin main && rm -rf build && npm publish');
          },
        },
        {
          name: 'a class with its refs, in a mode',
          fill: async (p) => {
            await p.getByLabel('Agent', { exact: true }).fill('coder-1');
            await p.getByLabel('Space', { exact: true }).selectOption('');
            await p.getByLabel('Mode', { exact: true }).selectOption('review');
            await p.getByLabel('Command line').fill('');
            await p.getByRole('checkbox', { name: 'gitPush' }).check();
            await p.getByRole('checkbox', { name: 'gitCommit' }).check();
            await p.getByLabel('Git refs (one per line)').fill('feature/login');
          },
        },
        {
          name: 'a managed class',
          fill: async (p) => {
            await p.getByRole('checkbox', { name: 'gitPush' }).uncheck();
            await p.getByRole('checkbox', { name: 'gitCommit' }).uncheck();
            await p.getByRole('checkbox', { name: 'secretAccess' }).check();
            await p.getByLabel('Git refs (one per line)').fill('');
          },
        },
      ];
      const policyFile = join(data, 'what-if-policy.json');
      const requestFile = join(data, 'what-if-request.json');
      for (const c of cases) {
        await c.fill(panel);
        await panel.getByLabel('Approver').selectOption('none');
        await panel.getByRole('button', { name: 'Check' }).click();
        await panel.locator('.whatif-result').waitFor();
        const request = JSON.parse(
          (await panel.locator('details > pre.json').last().textContent()) ?? '',
        ) as J;
        writeFileSync(requestFile, JSON.stringify(request));
        writeFileSync(policyFile, JSON.stringify((await current()).document));
        const ran = warden([
          'explain',
          '--policy',
          policyFile,
          '--managed',
          managedFile,
          '--request',
          requestFile,
          '--approver',
          'none',
          '--json',
        ]);
        expect(ran.code, ran.stderr).toBe(0);
        const cli = JSON.parse(ran.stdout) as {
          decision: string;
          outcome: string;
          rule: string;
          scope: string;
          reason: string;
          facets: { facet: string; decision: string | null; rule?: string; scope?: string }[];
        };
        const result = panel.locator('.whatif-result');
        expect(await result.locator('.result-decision').getAttribute('data-decision'), c.name).toBe(
          cli.decision,
        );
        expect(await result.locator('.result-outcome').getAttribute('data-outcome'), c.name).toBe(
          cli.outcome,
        );
        expect(await result.locator('.result-rule').getAttribute('data-rule'), c.name).toBe(
          cli.rule,
        );
        expect(await result.locator('.result-scope').getAttribute('data-scope'), c.name).toBe(
          cli.scope,
        );
        expect(await result.locator('.reason').innerText(), c.name).toBe(plain(cli.reason));
        const shown = await result
          .locator('table.facets')
          .first()
          .locator('tbody tr')
          .evaluateAll((rows) =>
            rows.map((r) => ({
              facet: r.getAttribute('data-facet'),
              decision: r.getAttribute('data-decision'),
              rule: r.getAttribute('data-rule'),
              scope: r.getAttribute('data-scope'),
            })),
          );
        expect(shown, c.name).toEqual(
          cli.facets.map((f) => ({
            facet: f.facet,
            decision: f.decision ?? 'none',
            rule: f.rule ?? '',
            scope: f.scope ?? '',
          })),
        );
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it('roles: a viewer (and an approver) sees no edit controls, and the API refuses their writes', async () => {
      for (const who of ['viewer', 'approver'] as const) {
        const { page, errors } = await open(tokens[who]);
        expect(await page.locator('.revision').innerText()).toContain(
          `your role (${who}) may read`,
        );
        await cell(page, 'gitPush', 'workspace').click();
        await page.getByText(`Your role (${who}) may read the policy, not change it.`).waitFor();
        expect(await page.getByRole('button', { name: /^Add a rule/ }).count()).toBe(0);
        await page.locator('#tab-rules').click();
        await page.locator('#panel-rules li.rule').first().waitFor();
        const rulesPanel = page.locator('#panel-rules');
        expect(await rulesPanel.getByRole('button').count()).toBe(0);
        await page.locator('#tab-autonomy').click();
        await page.locator('#panel-autonomy section[data-space="payments"]').waitFor();
        expect(await page.locator('#panel-autonomy').getByRole('radio').count()).toBe(0);
        expect(await page.locator('#panel-autonomy').getByRole('button').count()).toBe(0);
        await page.locator('#tab-templates').click();
        await page.locator('#panel-templates section.template').first().waitFor();
        expect(
          await page.locator('#panel-templates').getByRole('button', { name: 'Apply' }).count(),
        ).toBe(0);
        expect(
          await page.locator('#panel-templates').getByRole('button', { name: 'Preview' }).count(),
        ).toBeGreaterThan(0);
        expect(errors).toEqual([]);
        await page.close();
      }
      const { document, revision } = await current();
      const token = tokens.viewer;
      for (const [method, path, body] of [
        ['PUT', '/v1/policy', { document, expectedRevision: revision }],
        ['DELETE', '/v1/rules/protect-main?workspace=acme', undefined],
        ['PUT', '/v1/spaces/payments?workspace=acme', { autonomy: 'actFreely' }],
        ['POST', '/v1/templates/protect-main/apply', { workspace: 'acme' }],
      ] as const) {
        const refused = await api(server.url, token, method, path, body);
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(JSON.stringify(refused.body.errors)).toContain('a `viewer` token may not');
      }
      expect((await current()).revision).toBe(revision);
    });

    it('G29: a managed rule shows read-only with its source, in the rules and in its matrix cell', async () => {
      const { page, errors } = await open(tokens.admin);
      const secrets = cell(page, 'secretAccess', 'workspace');
      expect(await secrets.getAttribute('data-effective')).toBe('deny');
      expect(await secrets.innerText()).toContain('managed');
      await secrets.click();
      const detail = page.locator('.cell-detail');
      await detail.getByText('Managed rules here (read-only)').waitFor();
      const item = detail.locator('li[data-rule="pinned-secrets"][data-layer="managed"]');
      expect(await item.innerText()).toContain(
        `read-only: managed by the file ${managedFile}, pinned by the server’s configuration`,
      );
      expect(await item.getByRole('button').count()).toBe(0);

      await page.locator('#tab-rules').click();
      const rules = page.locator('#panel-rules');
      expect(await rules.locator('.managed-source').innerText()).toBe(
        `the file ${managedFile}, pinned by the server’s configuration (WARDEN_MANAGED_POLICY or managedPolicy): no admin surface can change it`,
      );
      const listed = rules.locator('li[data-rule="pinned-secrets"][data-layer="managed"]');
      expect(await listed.locator('.sentence').innerText()).toBe(
        'In every workspace (managed), reading a secret or credential (secretAccess) is denied — set by the security team.',
      );
      expect(await listed.innerText()).toContain('managed');
      expect(await listed.getByRole('button').count()).toBe(0);
      // The workspace's own rules next to it can be edited.
      expect(await rules.getByRole('button', { name: 'Edit rule protect-main' }).count()).toBe(1);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('G23: a remembered rule is listed with origin and expiry, and revoked from the screen', async () => {
      // A human answers a prompt with "approve for 8 hours" through the live channel.
      const controller = new AbortController();
      const stream = await fetch(`${server.url}/v1/approvals/stream`, {
        headers: { authorization: `Bearer ${tokens.approver}` },
        signal: controller.signal,
      });
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      let seen = '';
      while (!seen.includes('event: ready')) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the approver channel closed');
        seen += new TextDecoder().decode(value);
      }
      const reading = (async () => {
        try {
          for (;;) if ((await reader.read()).done) return;
        } catch {
          // aborted
        }
      })();
      try {
        const asked = await api(server.url, tokens.agent, 'POST', '/v1/decide?wait=0', {
          tool: 'shell',
          command: 'rm -rf build/cache',
        });
        expect(asked.body.outcome).toBe('ask');
        const answered = await api(
          server.url,
          tokens.approver,
          'POST',
          `/v1/approvals/${String(asked.body.approvalId)}/answer`,
          { kind: 'remember', hours: 8, scope: 'agent:coder-1' },
        );
        expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      } finally {
        controller.abort();
        await reading;
      }
      const rules = await api(server.url, tokens.viewer, 'GET', '/v1/rules?workspace=acme');
      const remembered = (rules.body.rules as J[]).find((r) => r.origin === 'remembered');
      expect(remembered).toBeDefined();
      const ruleId = String(remembered?.id);

      const { page, errors } = await open(tokens.admin, 'rules');
      const item = page.locator(`#panel-rules li[data-rule="${ruleId}"]`);
      await item.waitFor();
      expect(await item.locator('.sentence').innerText()).toBe(plain(remembered?.sentence));
      expect(await item.innerText()).toContain('remembered');
      expect(await item.innerText()).toContain('until ');
      // Revoking asks first; keeping it changes nothing.
      await item.getByRole('button', { name: `Revoke remembered rule ${ruleId}` }).click();
      await item.getByRole('button', { name: 'Keep it' }).click();
      await item.getByRole('button', { name: `Revoke remembered rule ${ruleId}` }).click();
      expect(await item.locator('.revoke-question').innerText()).toContain('Revoke it?');
      // The list drawn again (a search, the proof arriving) keeps the question open.
      const search = page.locator('#panel-rules input[type="search"]');
      await search.fill(ruleId);
      await search.fill('');
      await page.locator('#panel-rules .proof-state[data-proof]').waitFor({ state: 'attached' });
      expect(await item.locator('.revoke-question').innerText()).toContain('Revoke it?');
      await item.getByRole('button', { name: `Yes, revoke remembered rule ${ruleId}` }).click();
      await expect.poll(() => item.count()).toBe(0);
      await page.locator('#panel-rules').getByText('No remembered approval is in force.').waitFor();
      const after = await api(server.url, tokens.viewer, 'GET', '/v1/rules?workspace=acme');
      expect((after.body.rules as J[]).some((r) => r.origin === 'remembered')).toBe(false);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('G32: the autonomy dial sets a space, states plainly what actFreely means, and the matrix follows', async () => {
      const { page, errors } = await open(tokens.admin, 'autonomy');
      const panel = page.locator('#panel-autonomy');
      expect(await panel.locator('#act-freely-statement').innerText()).toContain(
        'actFreely pre-approves whatever did not resolve to a deny: a prompt is allowed and nobody is asked. Only an explicit deny',
      );
      const card = panel.locator('section[data-space="payments"]');
      await card.getByRole('radio', { name: 'actFreely' }).check();
      await card.getByRole('button', { name: 'Set the autonomy of payments' }).click();
      await panel
        .locator('section[data-space="payments"] .dial-value')
        .getByText('actFreely', { exact: true })
        .waitFor();
      const statement = panel.locator('section[data-space="payments"] .statement');
      expect(await statement.innerText()).toContain('What actFreely means here:');
      expect(await statement.innerText()).toContain(
        'Only an explicit deny — soft or hard — still stops a call',
      );
      expect(await panel.locator('section[data-space="payments"] .effect').innerText()).toContain(
        'gitPush ask → allow',
      );
      const spaces = await api(server.url, tokens.viewer, 'GET', '/v1/spaces?workspace=acme');
      expect((spaces.body.spaces as J[]).find((s) => s.id === 'payments')).toMatchObject({
        autonomy: 'actFreely',
      });
      const revisions = await api(server.url, tokens.viewer, 'GET', '/v1/policy/revisions?limit=1');
      expect((revisions.body.revisions as J[])[0]).toMatchObject({ author: 'alice' });

      await page.locator('#tab-matrix').click();
      const push = cell(page, 'gitPush', 'space:payments');
      expect(await push.getAttribute('data-effective')).toBe('allow');
      expect(await push.innerText()).toContain('ask before dial');
      expect(await page.locator('thead th[data-scope="space:payments"]').innerText()).toContain(
        'actFreely',
      );
      expect(errors).toEqual([]);
      await page.close();
    });

    it('templates: the preview lists the rules a template adds, as sentences, and the cells it changes; apply writes them', async () => {
      const { page, errors } = await open(tokens.admin, 'templates');
      const card = page.locator('#panel-templates section[data-template="no-package-installs"]');
      // The description leads with one sentence; the fine print folds away.
      expect(await card.locator('.template-lead').innerText()).toBe(
        'Denies installing packages (every action of the packageInstall class).',
      );
      expect(await card.locator('.template-more summary').innerText()).toBe(
        'What it holds, and what it does not',
      );
      await card.getByLabel('Scope').selectOption('agent:coder-1');
      const before = (await current()).revision;
      await card.getByRole('button', { name: 'Preview' }).click();
      const added = card.locator('.template-result li[data-rule^="tpl-no-package-installs"]');
      await added.first().waitFor();
      expect(await added.first().innerText()).toContain('For agent coder-1');
      expect(await added.first().innerText()).toContain('is denied');
      await card
        .locator(
          '.template-result .changes li[data-class="packageInstall"][data-scope="agent:coder-1"]',
        )
        .waitFor();
      expect((await current()).revision).toBe(before);
      await card.getByRole('button', { name: 'Apply' }).click();
      await card
        .locator('.applied')
        .getByText(`Applied as revision ${before + 1}`)
        .waitFor();
      await page.locator('#tab-matrix').click();
      await page
        .locator(
          'button.cell[data-class="packageInstall"][data-scope="agent:coder-1"][data-effective="deny"]',
        )
        .waitFor();
      await page.locator('#tab-rules').click();
      const rule = page.locator('#panel-rules li[data-rule^="tpl-no-package-installs"]').first();
      expect(await rule.locator('.tag-template').innerText()).toBe('template');
      expect(errors).toEqual([]);
      await page.close();
    });

    it('G39/G25: the audit log filters decisions and highlights advisory hits; the advisory view counts what a rule would have blocked', async () => {
      for (const body of [
        { tool: 'fetch', actions: ['networkEgress'], args: { hosts: ['example.com'] } },
        { tool: 'commit', actions: ['gitCommit'] },
      ]) {
        const decided = await api(server.url, tokens.agent, 'POST', '/v1/decide', body);
        expect(decided.body.outcome).toBe('allow');
      }
      const { page, errors } = await open(tokens.admin, 'audit');
      const panel = page.locator('#panel-audit');
      await panel.locator('table.audit tbody tr').first().waitFor();
      const hit = panel.locator('table.audit tr[data-advisory="yes"]').first();
      expect(await hit.getAttribute('class')).toContain('advisory-hit');
      expect(await hit.innerText()).toContain(
        'advisory watch-egress on networkEgress would have decided',
      );
      expect(await panel.locator('table.audit tr[data-advisory="no"]').count()).toBeGreaterThan(0);

      await panel.getByLabel('advisory hits only').check();
      await panel.getByRole('button', { name: 'Filter' }).click();
      // Both hold once the filtered table is drawn (not while it shows "Loading…").
      await expect
        .poll(async () => [
          await panel.locator('table.audit tr[data-advisory="no"]').count(),
          (await panel.locator('table.audit tr[data-advisory="yes"]').count()) > 0,
        ])
        .toEqual([0, true]);

      await panel.getByLabel('Outcome').selectOption('deny');
      await panel.getByLabel('advisory hits only').uncheck();
      await panel.getByRole('button', { name: 'Filter' }).click();
      await expect
        .poll(async () =>
          (await panel.locator('table.audit tbody tr, p.muted').allInnerTexts()).join('\n'),
        )
        .not.toContain('networkEgress · ');

      const row = panel.locator('table.advisories tr[data-rule="watch-egress"]');
      await row.waitFor();
      expect(Number(await row.locator('.count').innerText())).toBeGreaterThan(0);
      expect(await row.innerText()).toContain('deny');
      await row.getByRole('button', { name: 'Make watch-egress hard…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit rule watch-egress' });
      expect(await dialog.getByLabel('Enforcement').inputValue()).toBe('hard');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('where rules are enforced: the honesty matrix of this host, every claim with its note (G37)', async () => {
      const { page, errors } = await open(tokens.viewer, 'enforced');
      const panel = page.locator('#panel-enforced');
      await panel.locator('table.honesty').waitFor();
      const matrix = await api(server.url, tokens.viewer, 'GET', '/v1/honesty');
      const host = matrix.body.host as { statement: string };
      expect(await panel.locator('.statement').innerText()).toBe(
        `On this host: ${plain(host.statement)}.`,
      );
      for (const adapter of matrix.body.adapters as {
        adapter: string;
        cells: Record<string, { note: string }>;
      }[]) {
        const row = panel.locator(`tr[data-adapter="${adapter.adapter}"]`);
        expect(await row.locator('td').count()).toBe(5);
        expect(await row.innerText()).toContain(plain(adapter.cells.interceptsToolCalls?.note));
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it('keyboard and structure: tabs move with the arrow keys, the matrix has row and column headers, a cell opens with Enter', async () => {
      const { page, errors } = await open(tokens.viewer);
      const columns = await api(
        server.url,
        tokens.viewer,
        'GET',
        '/v1/permissions/matrix?workspace=acme',
      );
      expect(await page.locator('table.matrix thead th[scope="col"]').count()).toBe(
        (columns.body.columns as J[]).length + 1,
      );
      expect(await page.locator('table.matrix tbody th[scope="row"]').count()).toBe(13);
      await page.locator('#tab-matrix').focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.locator('#tab-rules').getAttribute('aria-selected')).toBe('true');
      expect(await page.locator('#panel-rules').isVisible()).toBe(true);
      expect(await page.locator('#panel-matrix').isVisible()).toBe(false);
      await page.keyboard.press('ArrowLeft');
      expect(await page.locator('#tab-matrix').getAttribute('aria-selected')).toBe('true');
      await cell(page, 'gitPush', 'agent:coder-1').focus();
      await page.keyboard.press('Enter');
      const heading = page.locator('.cell-detail h2');
      await heading.waitFor();
      expect(await heading.innerText()).toBe('gitPush in Agent coder-1');
      expect(await page.locator('.cell-detail h2:focus').count()).toBe(1);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('every failed call is an alert in the page, never a blank page: an unknown workspace; an agent token is refused at sign-in', async () => {
      const page = await (browser as Browser).newPage();
      const errors = pageErrors(page);
      await signInAs(
        page,
        server.url,
        tokens.admin,
        '/workspaces/nope/settings/workspace/permissions',
      );
      const alert = page.locator('.permissions > p[role="alert"]');
      await alert.getByText('Cannot read the policy of this workspace').waitFor();
      expect(await alert.innerText()).toContain('no policy is stored for workspace `nope`');
      expect(await page.getByRole('tab').count()).toBe(8);
      await page.locator('#tab-what-if').click();
      await page.locator('#panel-what-if').getByLabel('Agent', { exact: true }).fill('x');
      await page.locator('#panel-what-if').getByLabel('Command line').fill('git push');
      await page.locator('#panel-what-if').getByRole('button', { name: 'Check' }).click();
      await page
        .locator('#panel-what-if [role="alert"]')
        .getByText('The what-if check failed')
        .waitFor();
      await page.close();

      const agentPage = await (browser as Browser).newPage();
      const agentErrors = pageErrors(agentPage);
      // An agent's token does not get in: the sign-in page says why, in a sentence.
      await agentPage.goto(`${server.url}/sign-in?next=${encodeURIComponent(PAGE)}`);
      await agentPage.getByLabel('API token').fill(tokens.agent);
      await agentPage.getByRole('button', { name: 'Sign in' }).click();
      await agentPage
        .locator('#sign-in-error')
        .getByText('agents act through the API, and the console is for people', { exact: false })
        .waitFor();
      await agentPage.close();
      expect(scriptErrors([...errors, ...agentErrors])).toEqual([]);
    });
  },
);
