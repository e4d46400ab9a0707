// The approvals inbox in real Chromium against a real `warden serve`: an open
// inbox is a live approver channel, so an agent's prompt waits for it and
// appears in it live (G22); it is answered once, for N hours in a picked
// scope — writing the rule the offer showed, listed and revocable (G23) — or
// denied with a reason; another approver's answer is shown as theirs; a
// viewer sees the prompts but no answers, and the API refuses it anyway; an
// overrider overrides a soft deny only with a reason (G26), and an approver,
// who cannot, is not shown it. The agent's arguments are foreign data: shown
// as text, never as markup.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT } from '../support/browser.js';
import type { SignedIn } from '../support/console-fixture.js';
import { useConsole } from '../support/console-fixture.js';
import { api, approverWatching, presence as presenceOn } from '../support/processes.js';
import { askPushPolicy } from '../support/ask-push-policy.js';
import { castTokens } from '../support/console-cast.js';

const POLICY = askPushPolicy(`  - id: soft-install
    scope: workspace
    action: packageInstall
    decision: deny
    enforcement: soft
  - id: keep-releases
    scope: workspace
    action: fileDelete
    decision: deny
    when: { paths: ['releases/**'] }
`);

const MARKUP = '<img src=x onerror=alert(1)>';

const web = useConsole({
  policy: POLICY,
  tokens: {
    ...castTokens('agent', 'approver', 'overrider', 'viewer', 'admin'),
    revoked: { role: 'approver', name: 'bea' },
  },
  setupTimeout: 60_000,
});
const { tokens } = web;

function decide(body: Record<string, unknown>, query = '') {
  return api(web.url, tokens.agent, 'POST', `/v1/decide${query}`, body);
}

/** A signed-in inbox of `token`, with its console errors collected. */
async function inbox(token: string): Promise<SignedIn> {
  const signed = await web.signedIn(token, '/approvals');
  await signed.page.waitForURL('**/approvals');
  await signed.page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  return signed;
}

async function connected(page: Page, name: string): Promise<void> {
  await expect
    .poll(() => page.locator('#inbox-state').innerText(), { timeout: 10_000 })
    .toContain(`Connected as ${name}`);
}

/** The pending card of approval `id`, or of the first one mentioning `text`. */
function pendingCard(page: Page, text: string): Locator {
  return page.locator('#inbox-pending > li.ap-card', { hasText: text });
}

/** Whether a prompt now waits for an approver (G22): a probe that is denied again at once. */
function presence(expected: boolean): Promise<void> {
  return presenceOn(web.url, tokens, expected, {
    ref: 'probe/x',
    timeoutMs: 10_000,
    pollMs: 200,
  });
}

describe.skipIf(BROWSER_SKIP !== null)(
  'the approvals inbox, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('G22: an open inbox makes its user a connected approver; closing it ends that', async () => {
      await presence(false);
      const { page, errors } = await inbox(tokens.approver);
      await connected(page, 'bob');
      await presence(true);
      // The probes of `presence` came and went live; none is left waiting.
      await expect.poll(() => page.locator('#inbox-pending > li').count()).toBe(0);
      expect(await page.locator('#inbox-empty').isVisible()).toBe(true);
      await page.close();
      await presence(false);
      expect(errors).toEqual([]);
    });

    it('G22/G23: a prompt appears live, is approved for 8 hours in the chosen scope, the waiting call is allowed, and the remembered rule is listed and revocable', async () => {
      const { page, errors } = await inbox(tokens.approver);
      await connected(page, 'bob');
      const waiting = decide({
        tool: 'git_push',
        command: 'git push origin feature/login',
        args: { refs: ['feature/login'] },
        arguments: { remote: 'origin', branch: 'feature/login', note: MARKUP },
      });
      const card = pendingCard(page, 'git_push');
      await card.waitFor({ timeout: 10_000 });
      // Everything a human needs: agent, tool, action, the facet and rule that asked, the arguments.
      const text = await card.innerText();
      expect(text).toContain('coder-1');
      expect(text).toContain('git push origin feature/login');
      expect(text).toContain('gitPush');
      expect(text).toContain('ask-push');
      expect(text).toContain('feature/login');
      // The arguments are the agent's: shown as text, never turned into elements.
      expect(await card.locator('pre.ap-args').innerText()).toContain(MARKUP);
      expect(await page.locator('img').count()).toBe(0);
      // The scope picker shows the generalised rule each scope would write (from the offer).
      const agentScope = card.getByLabel('agent coder-1 (agent:coder-1)');
      const workspaceScope = card.getByLabel('the whole workspace (workspace)');
      expect(await agentScope.isChecked()).toBe(true);
      expect(await card.locator('.ap-scope-rule').first().innerText()).toContain(
        'allow gitPush when refs: feature/**',
      );
      await workspaceScope.check();
      const preview = card.locator('.ap-preview');
      await expect.poll(() => preview.innerText()).toContain('for the whole workspace');
      expect(await preview.innerText()).toContain('allow gitPush when refs: feature/**');
      expect(await card.getByLabel('Hours').inputValue()).toBe('8');
      await card.getByRole('button', { name: 'Approve for 8 h' }).click();

      const answered = await waiting;
      expect(answered.body).toMatchObject({ decision: 'prompt', outcome: 'allow' });
      expect(answered.body.reason).toContain('approved for 8 h in workspace by bob');
      const settled = page.locator('#inbox-settled > li', { hasText: 'git_push' });
      await settled.waitFor();
      expect(await settled.locator('.ap-outcome').innerText()).toBe(
        'You approved for 8 h in the whole workspace.',
      );
      expect(await pendingCard(page, 'git_push').count()).toBe(0);

      // A real rule (G23): in the scope picked, generalised one level, with its expiry.
      const rules = await api(web.url, tokens.admin, 'GET', '/v1/rules?workspace=acme');
      const remembered = (rules.body.rules as Record<string, unknown>[]).filter(
        (r) => r.origin === 'remembered',
      );
      expect(remembered).toHaveLength(1);
      const rule = remembered[0] as { id: string; scope: string; when: unknown; expiresAt: string };
      expect(rule.scope).toBe('workspace');
      expect(rule.when).toEqual({ refs: ['feature/**'] });
      const hours = (Date.parse(rule.expiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(7.9);
      expect(hours).toBeLessThanOrEqual(8);
      // It decides the next push without asking …
      const next = await decide({
        command: 'git push origin feature/signup',
        args: { refs: ['feature/signup'] },
      });
      expect(next.body).toMatchObject({ decision: 'allow', outcome: 'allow' });
      // … until it is revoked.
      const revoked = await api(
        web.url,
        tokens.admin,
        'DELETE',
        `/v1/rules/${encodeURIComponent(rule.id)}?workspace=acme`,
      );
      expect(revoked.status).toBe(200);
      const after = await api(web.url, tokens.admin, 'GET', '/v1/rules?workspace=acme');
      expect(
        (after.body.rules as { origin: string }[]).filter((r) => r.origin === 'remembered'),
      ).toHaveLength(0);
      expect(errors).toEqual([]);
    });

    it('G22: a second prompt is denied with a reason, and the agent gets that reason', async () => {
      const { page, errors } = await inbox(tokens.approver);
      await connected(page, 'bob');
      const waiting = decide({
        tool: 'git_push',
        command: 'git push origin feature/friday',
        args: { refs: ['feature/friday'] },
      });
      const card = pendingCard(page, 'feature/friday');
      await card.waitFor({ timeout: 10_000 });
      await card.getByLabel('Reason for denying (optional)').fill('not on a Friday');
      await card.getByRole('button', { name: 'Deny', exact: true }).click();
      const answered = await waiting;
      expect(answered.body).toMatchObject({ outcome: 'deny' });
      expect(answered.body.reason).toContain('denied by bob: not on a Friday');
      const settled = page.locator('#inbox-settled > li', { hasText: 'feature/friday' });
      await settled.waitFor();
      expect(await settled.locator('.ap-outcome').innerText()).toBe(
        'You denied it (not on a Friday).',
      );
      expect(errors).toEqual([]);
    });

    it('says who answered when another approver answered first', async () => {
      const { page, errors } = await inbox(tokens.approver);
      await connected(page, 'bob');
      const asked = await decide(
        { tool: 'git_push', command: 'git push origin feature/race' },
        '?wait=0',
      );
      expect(asked.body.outcome).toBe('ask');
      const id = asked.body.approvalId as string;
      const card = page.locator(`#inbox-pending > li[data-id="${id}"]`);
      await card.waitFor({ timeout: 10_000 });
      const byAlice = await api(web.url, tokens.admin, 'POST', `/v1/approvals/${id}/answer`, {
        kind: 'once',
      });
      expect(byAlice.status).toBe(200);
      const settled = page.locator(`#inbox-settled > li[data-id="${id}"]`);
      await settled.waitFor();
      expect(await settled.locator('.ap-outcome').innerText()).toBe(
        'Answered by alice: approved once.',
      );
      // The card no longer offers answers that could not work.
      expect(await settled.getByRole('button').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('a viewer sees the waiting prompts without any answer, and the API refuses its answer', async () => {
      // Someone else is the connected approver, so the prompt waits.
      await approverWatching(web.url, tokens.approver, web.spawned);
      const asked = await decide(
        {
          tool: 'git_push',
          command: 'git push origin feature/viewed',
          arguments: { note: MARKUP },
        },
        '?wait=0',
      );
      expect(asked.body.outcome).toBe('ask');
      const id = asked.body.approvalId as string;
      const { page, errors } = await inbox(tokens.viewer);
      expect(await page.locator('#inbox-state').innerText()).toContain('Viewing only');
      const card = page.locator(`#inbox-pending > li[data-id="${id}"]`);
      await card.waitFor({ timeout: 10_000 });
      expect(await card.innerText()).toContain('feature/viewed');
      expect(await card.getByRole('button').count()).toBe(0);
      expect(await card.locator('input, textarea').count()).toBe(0);
      expect(await card.innerText()).toContain('Your role (viewer) may not answer prompts');
      expect(await page.locator('img').count()).toBe(0);
      const refused = await api(web.url, tokens.viewer, 'POST', `/v1/approvals/${id}/answer`, {
        kind: 'once',
      });
      expect(refused.status).toBe(403);
      // Answered elsewhere, the viewer's page shows who did.
      await api(web.url, tokens.admin, 'POST', `/v1/approvals/${id}/answer`, {
        kind: 'deny',
        reason: 'cleanup',
      });
      const settled = page.locator(`#inbox-settled > li[data-id="${id}"]`);
      await settled.waitFor({ timeout: 10_000 });
      expect(await settled.locator('.ap-outcome').innerText()).toBe(
        'Answered by alice: denied (cleanup).',
      );
      expect(errors).toEqual([]);
    });

    it('G26: an overrider overrides a soft deny only with a reason; an approver’s inbox does not list it; the retried call is allowed', async () => {
      const olga = await inbox(tokens.overrider);
      await connected(olga.page, 'olga');
      const bob = await inbox(tokens.approver);
      await connected(bob.page, 'bob');
      const denied = await decide({ command: 'npm install left-pad' });
      expect(denied.body).toMatchObject({
        decision: 'deny',
        enforcement: 'soft',
        overridable: true,
      });
      const id = denied.body.approvalId as string;

      const card = olga.page.locator(`#inbox-pending > li[data-id="${id}"]`);
      await card.waitFor({ timeout: 10_000 });
      // An approver cannot act on a soft deny: its inbox neither lists nor counts it.
      expect(await bob.page.locator(`#inbox-pending > li[data-id="${id}"]`).count()).toBe(0);
      expect(await bob.page.title()).toBe('Approvals · Warden');
      const text = await card.innerText();
      expect(text).toContain('soft deny');
      expect(text).toContain('soft-install');
      expect(text).toContain('npm install left-pad');
      expect(await card.getByRole('button', { name: 'Approve once' }).count()).toBe(0);
      await card.getByRole('button', { name: 'Override' }).click();
      const alert = card.getByRole('alert');
      await expect.poll(() => alert.innerText()).toContain('An override needs a reason');
      await card.getByLabel('Reason for overriding (required)').fill('release hotfix needs it');
      await card.getByRole('button', { name: 'Override' }).click();
      const settled = olga.page.locator(`#inbox-settled > li[data-id="${id}"]`);
      await settled.waitFor();
      expect(await settled.locator('.ap-outcome').innerText()).toBe(
        'You overrode the soft deny (release hotfix needs it).',
      );
      // Nor its end: it was never the approver's.
      expect(await bob.page.locator(`#inbox-settled > li[data-id="${id}"]`).count()).toBe(0);
      const retried = await decide({ command: 'npm install left-pad' });
      expect(retried.body).toMatchObject({ outcome: 'allow' });
      expect(olga.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    });

    it('a refused answer is shown in the card, with the server’s words', async () => {
      const { page, errors } = await inbox(tokens.approver);
      await connected(page, 'bob');
      const asked = await decide(
        { tool: 'git_push', command: 'git push origin feature/hours' },
        '?wait=0',
      );
      const id = asked.body.approvalId as string;
      const card = page.locator(`#inbox-pending > li[data-id="${id}"]`);
      await card.waitFor({ timeout: 10_000 });
      await card.getByLabel('Hours').fill('1000');
      await card.getByRole('button', { name: 'Approve for 1000 h' }).click();
      const alert = card.getByRole('alert');
      await expect.poll(() => alert.innerText()).toContain('at most 168');
      // Still answerable after the refusal.
      await card.getByRole('button', { name: 'Approve once' }).click();
      const settled = page.locator(`#inbox-settled > li[data-id="${id}"]`);
      await settled.waitFor();
      expect(await settled.locator('.ap-outcome').innerText()).toBe('You approved once.');
      // The refused call's 422 is the browser's only console line.
      expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
    });

    it('G22: an inbox whose token is revoked says so, and stops being an approver', async () => {
      await presence(false);
      const { page, errors } = await inbox(tokens.revoked);
      await connected(page, 'bea');
      await presence(true);
      expect(warden(['token', 'revoke', 'bea', '--data', web.data]).code).toBe(0);
      const alert = page.locator('#inbox-problem');
      await expect
        .poll(() => alert.innerText(), { timeout: 10_000 })
        .toContain('Your token was revoked');
      expect(await alert.getAttribute('role')).toBe('alert');
      expect(await page.locator('#inbox-state').innerText()).toContain('Not connected');
      await presence(false);
      expect(errors).toEqual([]);
    });

    it('G23: a prompt whose arguments were unknown offers only "approve once", and says why', async () => {
      const { page, errors } = await inbox(tokens.approver);
      await connected(page, 'bob');
      // The rule names paths the request does not give: it escalates to a prompt (G18).
      const asked = await decide({ tool: 'delete_file', actions: ['fileDelete'] }, '?wait=0');
      expect(asked.body.outcome).toBe('ask');
      const id = asked.body.approvalId as string;
      const card = page.locator(`#inbox-pending > li[data-id="${id}"]`);
      await card.waitFor({ timeout: 10_000 });
      expect(await card.getByRole('button', { name: 'Approve once' }).count()).toBe(1);
      expect(await card.getByRole('button', { name: /Approve for/ }).count()).toBe(0);
      expect(await card.locator('.ap-note').innerText()).toMatch(
        /^Only “approve once” is offered: /,
      );
      await card.getByRole('button', { name: 'Approve once' }).click();
      await page.locator(`#inbox-settled > li[data-id="${id}"]`).waitFor();
      expect(errors).toEqual([]);
    });
  },
);
