// Suggested and provable rules in the console, in real Chromium against a
// real `warden serve`. Three pushes to feature branches, each approved once
// by a connected approver, become a suggested rule: a viewer sees it under
// "Suggested rules", the permissions page's own tab for them — its scope, its
// rule in words, the prompts behind it and its blast radius — and no button, only
// that accepting takes an admin token. An admin accepts it there: the page says
// which revision now holds it, and the next such push is allowed without
// asking. The rules tab marks each deny rule with its proof's verdict — a
// holding deny "holds", its duplicate "never decides" — and when the proof
// cannot be read the rules still show, with a line saying so; a rule that
// does not hold lists its disguises, each command as text.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT, pageErrors, signInAs } from '../support/browser.js';
import type { SignedIn } from '../support/console-fixture.js';
import { useConsole } from '../support/console-fixture.js';
import { api, approverWatching, killAll, presence } from '../support/processes.js';
import { castTokens } from '../support/console-cast.js';

const POLICY = `version: 1
workspace: acme
rules:
  - { id: protect-main, scope: workspace, action: gitPush, decision: deny, when: { refs: ['main'] } }
  - { id: protect-main-again, scope: workspace, action: gitPush, decision: deny, when: { refs: ['main'] } }
`;

const PAGE = '/workspaces/acme/settings/workspace/permissions';

const push = (ref: string) => ({
  tool: 'git_push',
  actions: ['gitPush'],
  args: { refs: [ref] },
  arguments: { ref },
});

type Suggestion = {
  id: string;
  scope: string;
  approvals: number;
  blastRadius: { wouldAllow: number; wereDenied: number; looked: number; cells: unknown[] };
};

const web = useConsole({
  policy: POLICY,
  tokens: castTokens('agent', 'approver', 'admin', 'viewer'),
  seed: suggestOnce,
});
const { tokens } = web;
/** The suggestion for agent coder-1, as the server lists it before it is accepted. */
let suggestion: Suggestion;

/** The agent's push to `ref`, decided now without waiting: `allow`, `ask` or `deny`. */
async function decided(ref: string): Promise<Record<string, unknown>> {
  const answer = await api(web.url, tokens.agent, 'POST', '/v1/decide?wait=0', push(ref));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** The suggestion for agent coder-1 as the server lists it now. */
async function listed(): Promise<Suggestion> {
  const answer = await api(web.url, tokens.viewer, 'GET', '/v1/rules/suggestions?workspace=acme');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const found = (answer.body.suggestions as Suggestion[]).find((s) => s.scope === 'agent:coder-1');
  expect(found).toBeDefined();
  return found as Suggestion;
}

/** The seed, before the browser starts: a suggested rule for agent coder-1, not accepted yet. */
async function suggestOnce(): Promise<void> {
  // Three pushes to feature branches, each approved once by a connected approver.
  await approverWatching(web.url, tokens.approver, web.spawned);
  for (const ref of ['feature/a', 'feature/b', 'feature/c']) {
    const asked = await decided(ref);
    expect(asked.outcome).toBe('ask');
    const answered = await api(
      web.url,
      tokens.approver,
      'POST',
      `/v1/approvals/${asked.approvalId as string}/answer`,
      { kind: 'once', reason: 'fine' },
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  }
  // Nobody watching: the next push is not allowed — the suggested rule would allow it.
  await killAll(web.spawned);
  await presence(web.url, { agent: tokens.agent, admin: tokens.admin }, false, {
    timeoutMs: 10_000,
  });
  expect((await decided('feature/d')).outcome).toBe('deny');

  suggestion = await listed();
  expect(suggestion).toMatchObject({ approvals: 3, blastRadius: { wouldAllow: 1 } });
}

/** A page signed in with `token` at the permissions page, once it shows. */
async function signedIn(token: string): Promise<SignedIn> {
  const signed = await web.signedIn(token, PAGE);
  await signed.page.getByRole('heading', { name: /^Permissions/, level: 1 }).waitFor();
  return signed;
}

/** The suggestion for agent coder-1 in the "Suggestions" tab, once it has read them. */
async function suggested(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: 'Suggestions', exact: true }).click();
  const item = page.locator(`li.suggestion[data-suggestion="${suggestion.id}"]`);
  await item.waitFor({ timeout: 10_000 });
  return item;
}

/** What every role sees of the suggestion. */
async function showsTheSuggestion(item: Locator): Promise<void> {
  expect(await item.getAttribute('data-scope')).toBe('agent:coder-1');
  expect(await item.locator('h3').innerText()).toBe('Agent coder-1');
  expect(await item.locator('.suggested-rules').innerText()).toBe(
    'allow gitPush when refs: feature/**',
  );
  const evidence = await item.locator('.evidence').innerText();
  expect(evidence).toContain('3 prompts approved once');
  expect(evidence).toContain('agents: coder-1');
  expect(evidence).toContain('tools: git_push');
  expect(await item.locator('.evidence time').count()).toBe(2);
  const { wouldAllow, wereDenied, looked } = suggestion.blastRadius;
  const blast = await item.locator('.blast-radius').innerText();
  expect(blast).toContain(
    `would allow ${wouldAllow} of ${looked} past decision${looked === 1 ? '' : 's'} not allowed then`,
  );
  expect(await item.locator('.blast-denied').count()).toBe(wereDenied > 0 ? 1 : 0);
  const cells = suggestion.blastRadius.cells.length;
  expect(await item.locator('.blast-cells').innerText()).toContain(
    cells === 0
      ? 'No cell of the permissions matrix changes'
      : `Matrix cells it changes (${cells})`,
  );
  if (wereDenied > 0) {
    expect(await item.locator('.blast-denied').innerText()).toContain(`${wereDenied} of them`);
    expect(
      await item
        .locator('.blast-denied')
        .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).color),
    ).toBe('rgb(207, 34, 46)');
  }
}

/** The rules tab's item of rule `id`. */
function ruleItem(page: Page, id: string): Locator {
  return page.locator(`#panel-rules li.rule[data-rule="${id}"]`);
}

describe.skipIf(BROWSER_SKIP !== null)(
  'suggested and provable rules in the console, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('the rules tab marks each deny rule with its proof: a holding deny "holds with the sandbox", its duplicate "never decides"', async () => {
      const { page, errors } = await signedIn(tokens.viewer);
      await page.getByRole('tab', { name: 'Rules', exact: true }).click();
      const holds = ruleItem(page, 'protect-main').locator('.proof');
      await holds.waitFor({ timeout: 10_000 });
      expect(await holds.innerText()).toBe('holds with the sandbox');
      expect(await holds.getAttribute('data-verdict')).toBe('sandbox');
      expect(await holds.getAttribute('title')).toContain('sandbox stops');
      expect(await holds.evaluate((el) => el.className)).toContain('proof-ok');
      const dead = ruleItem(page, 'protect-main-again').locator('.proof');
      expect(await dead.innerText()).toBe('never decides');
      expect(await dead.evaluate((el) => el.className)).toContain('proof-off');
      // The one disguise only the sandbox stops folds out beneath, as text.
      const findings = ruleItem(page, 'protect-main').locator('.proof-findings');
      expect(await findings.count()).toBe(1);
      expect(await findings.innerText()).toContain('1 disguise does not hold');
      expect(await page.locator('#panel-rules .proof-state').getAttribute('data-proof')).toBe(
        'read',
      );
      expect(errors).toEqual([]);
    });

    it('when the proof cannot be read the rules still show, and a line says so', async () => {
      const page = await web.newPage();
      await page.route(
        (url) => url.pathname === '/v1/policy/proof',
        (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ errors: [{ message: 'the proof broke' }] }),
          }),
      );
      await signInAs(page, web.url, tokens.viewer, `${PAGE}#rules`);
      const line = page.locator('#panel-rules .proof-state[data-proof="failed"]');
      await line.waitFor({ timeout: 10_000 });
      expect(await line.innerText()).toBe(
        'The proof of the rules could not be read: the proof broke',
      );
      await ruleItem(page, 'protect-main').waitFor();
      expect(await page.locator('#panel-rules .proof').count()).toBe(0);
    });

    it('a rule that does not hold lists its disguises beneath its badge, each command as text', async () => {
      const page = await web.newPage();
      const errors = pageErrors(page);
      const command = 'git push origin <b>HEAD</b>:main';
      await page.route(
        (url) => url.pathname === '/v1/policy/proof',
        async (route) => {
          const real = await route.fetch();
          const proof = (await real.json()) as { rules: Record<string, unknown>[] };
          for (const rule of proof.rules)
            if (rule.rule === 'protect-main')
              Object.assign(rule, {
                verdict: 'bypassable',
                findings: [
                  {
                    command,
                    kind: 'refspec',
                    how: 'a refspec naming the branch',
                    decision: 'allow',
                    rule: 'push-ok',
                    scope: 'workspace',
                    classes: ['gitPush'],
                    unreadable: false,
                    verdict: 'bypass',
                  },
                ],
              });
          await route.fulfill({ response: real, json: proof });
        },
      );
      await signInAs(page, web.url, tokens.viewer, `${PAGE}#rules`);
      const item = ruleItem(page, 'protect-main');
      const badge = item.locator('.proof');
      await badge.waitFor({ timeout: 10_000 });
      expect(await badge.innerText()).toBe('bypassable');
      expect(await badge.evaluate((el) => el.className)).toContain('proof-bad');
      const findings = item.locator('.proof-findings');
      expect(await findings.locator('summary').innerText()).toBe('1 disguise does not hold');
      await findings.locator('summary').click();
      expect(await findings.locator('li code').innerText()).toBe(command);
      expect(await findings.locator('li').innerText()).toContain(
        'a refspec naming the branch; allowed by push-ok; read as gitPush',
      );
      expect(await page.locator('main b').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('a viewer sees the suggestion with its blast radius, and no button: accepting takes an admin token', async () => {
      const { page, errors } = await signedIn(tokens.viewer);
      const item = await suggested(page);
      await showsTheSuggestion(item);
      expect(await item.getByRole('button').count()).toBe(0);
      expect(await item.innerText()).toContain('that takes an admin token (your role: viewer)');
      // The API refuses the viewer anyway.
      const refused = await api(
        web.url,
        tokens.viewer,
        'POST',
        `/v1/rules/suggestions/${suggestion.id}/accept?workspace=acme`,
      );
      expect(refused.status).toBe(403);
      expect(errors).toEqual([]);
    });

    it('an admin accepts the suggestion: the page names the revision, and the push is allowed without asking', async () => {
      expect((await decided('feature/e')).outcome).not.toBe('allow');
      // One more push the rule would allow: the blast radius the page shows counts it.
      suggestion = await listed();
      expect(suggestion.blastRadius.wouldAllow).toBe(2);
      const { page, errors } = await signedIn(tokens.admin);
      const item = await suggested(page);
      await showsTheSuggestion(item);
      await item.getByRole('button', { name: 'Accept into the policy' }).click();
      const done = item.locator('.accepted');
      await expect.poll(() => done.innerText(), { timeout: 10_000 }).toContain('now in revision');
      const revision = Number(/now in revision (\d+)/.exec(await done.innerText())?.[1]);
      expect(revision).toBeGreaterThan(1);
      expect(await item.getByRole('button').count()).toBe(0);
      expect(await item.locator('[role="alert"]').innerText()).toBe('');
      // The page's revision line follows.
      await expect
        .poll(() => page.locator('.revision').innerText(), { timeout: 10_000 })
        .toContain(`Policy revision ${revision}, by alice`);

      // In force: the next push to a feature branch is allowed, main is still denied.
      const allowed = await decided('feature/e');
      expect(allowed.outcome).toBe('allow');
      expect(String(allowed.rule)).toContain(suggestion.id);
      expect((await decided('main')).outcome).toBe('deny');
      // Accepted, it stands no more: a second acceptance is refused in the server's words.
      const again = await api(
        web.url,
        tokens.admin,
        'POST',
        `/v1/rules/suggestions/${suggestion.id}/accept?workspace=acme`,
      );
      expect(again.status).toBe(404);
      expect(errors).toEqual([]);
    });

    it('an acceptance the server refuses is shown in its words', async () => {
      const { page, errors } = await signedIn(tokens.admin);
      await page.route(
        (url) => url.pathname === '/v1/rules/suggestions',
        (route) =>
          route.fulfill({
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({
              suggestions: [
                {
                  ...suggestion,
                  id: 'sug-000000000000',
                  blastRadius: { ...suggestion.blastRadius, wereDenied: 2 },
                },
              ],
            }),
          }),
      );
      await page.getByRole('tab', { name: 'Suggestions', exact: true }).click();
      const item = page.locator('li.suggestion[data-suggestion="sug-000000000000"]');
      await item.waitFor({ timeout: 10_000 });
      // Past decisions that were denied, and would be allowed, are said in red.
      const denied = item.locator('.blast-denied');
      expect(await denied.innerText()).toBe('2 of them were denied');
      expect(
        await denied.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).color),
      ).toBe('rgb(207, 34, 46)');
      await item.getByRole('button', { name: 'Accept into the policy' }).click();
      const alert = item.locator('[role="alert"]');
      await expect
        .poll(() => alert.innerText(), { timeout: 10_000 })
        .toContain('Cannot accept this suggestion: no suggestion `sug-000000000000` stands');
      expect(await item.getByRole('button', { name: 'Accept into the policy' }).isEnabled()).toBe(
        true,
      );
      // The failed request is the browser's console error; nothing else failed.
      expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    });
  },
);
