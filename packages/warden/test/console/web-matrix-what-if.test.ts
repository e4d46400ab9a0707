// The permissions matrix as a person sees it in Chromium says what the agents
// get: on a generated policy (spaces at every autonomy level, modes with
// presets, rules written for the workspace, for spaces and for agents) with
// twenty agents registered in various spaces and modes, every cell of every
// agent column shows the decision the what-if check (`POST /v1/what-if`)
// answers for that agent and that action class, and each agent column's
// heading says the space and mode it is decided in. matrix-what-if.test.ts
// checks the same equality on the API's answer; this one checks what the
// console draws of it. The rules carry no `when` constraints: a request
// without arguments would leave them unknown, and the cell lists such rules
// as exceptions rather than deciding by them.

import { ACTION_CLASSES } from '@warden/engine';
import { describe, expect, it } from 'vitest';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT } from '../support/browser.js';
import { useConsole } from '../support/console-fixture.js';
import { api } from '../support/processes.js';
import type { Placed } from '../support/placed-policy.js';
import { AGENTS, AUTONOMY, MODES, SPACES, placedPolicy } from '../support/placed-policy.js';

const SEED = 20_261_206;

const { policy, agents } = placedPolicy(SEED);

const web = useConsole({
  // JSON is YAML: applied with `warden policy apply` as any policy file.
  policy: JSON.stringify(policy, null, 2),
  tokens: {
    admin: { role: 'admin', name: 'alice' },
    viewer: { role: 'viewer', name: 'vic' },
  },
  seed: async (fixture) => {
    for (const a of agents) {
      const put = await api(
        fixture.url,
        fixture.tokens.admin,
        'PUT',
        `/v1/agents/${a.id}?workspace=acme`,
        { name: null, role: 'tester', space: a.space, mode: a.mode, model: null },
      );
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    }
  },
});

/** What a cell of the matrix shows: its class and scope, the decision it draws and the one it names in its data. */
interface ShownCell {
  readonly cls: string;
  readonly scope: string;
  readonly badge: string;
  readonly effective: string;
}

/** The words the agent column's heading says where the agent acts in, as the server words them. */
function placement(a: Placed): string {
  if (a.space === null && a.mode === null) return 'in no space and no mode';
  if (a.mode === null) return `in space ${a.space} and no mode`;
  if (a.space === null) return `in no space and mode ${a.mode}`;
  return `in space ${a.space} and mode ${a.mode}`;
}

describe.skipIf(BROWSER_SKIP !== null)(
  'the matrix in the browser says what the what-if check answers',
  { timeout: BROWSER_TEST_TIMEOUT * 3 },
  () => {
    it(`every cell of the 20 agent columns shows the what-if decision for that agent and class (generated policy, seed ${SEED})`, async () => {
      // The generated policy covers what it should: every level, and agents in every space and mode and in none.
      const levels = Object.values(policy.spaces as Record<string, { autonomy: string }>).map(
        (s) => s.autonomy,
      );
      expect(new Set(levels)).toEqual(new Set(AUTONOMY));
      expect(new Set(agents.map((a) => a.space))).toEqual(new Set([...SPACES, null]));
      expect(new Set(agents.map((a) => a.mode))).toEqual(new Set([...MODES, null]));

      const { page, errors } = await web.signedIn(
        web.tokens.viewer,
        '/workspaces/acme/settings/workspace/permissions#matrix',
      );
      await page.locator('table.matrix').waitFor({ timeout: 30_000 });

      // Each agent column's heading says where its cells are decided.
      for (const a of agents) {
        const head = page.locator(`table.matrix thead th[data-scope="agent:${a.id}"]`);
        expect(await head.getAttribute('title'), a.id).toBe(`agent ${a.id}, ${placement(a)}`);
        const tag = head.locator('.col-place');
        if (a.space === null && a.mode === null) expect(await tag.count(), a.id).toBe(0);
        else {
          const text = await tag.innerText();
          if (a.space !== null) expect(text, a.id).toContain(`space ${a.space}`);
          if (a.mode !== null) expect(text, a.id).toContain(`mode ${a.mode}`);
        }
      }

      // What every agent cell shows: its badge's words, and the decision it carries.
      const cells = (await page
        .locator('table.matrix button.cell[data-scope^="agent:"]')
        .evaluateAll((buttons) =>
          buttons.map((b) => ({
            cls: b.getAttribute('data-class') ?? '',
            scope: b.getAttribute('data-scope') ?? '',
            badge: b.querySelector('.badge')?.textContent ?? '',
            effective: b.getAttribute('data-effective') ?? '',
          })),
        )) as ShownCell[];
      expect(cells).toHaveLength(AGENTS * ACTION_CLASSES.length);

      const shownAs: Record<string, string> = { allow: 'allow', prompt: 'ask', deny: 'deny' };
      const mismatches: string[] = [];
      for (const cell of cells) {
        const agent = cell.scope.slice('agent:'.length);
        const asked = await api(web.url, web.tokens.viewer, 'POST', '/v1/what-if', {
          request: { workspace: 'acme', agent, actions: [cell.cls] },
          approver: 'connected',
        });
        expect(asked.status, JSON.stringify(asked.body)).toBe(200);
        const decision = String(asked.body.decision);
        const a = agents.find((x) => x.id === agent);
        const where = `${agent} (space ${String(a?.space)}, mode ${String(a?.mode)}), ${cell.cls}`;
        if (cell.badge !== shownAs[decision] || cell.effective !== decision)
          mismatches.push(
            `${where}: the cell shows ${cell.badge} (${cell.effective}), what-if answers ${decision} (rule ${String(asked.body.rule)})`,
          );
      }
      expect(mismatches).toEqual([]);
      // Not every cell says the same: the generated policy decides differently across agents and classes.
      expect(new Set(cells.map((c) => c.effective)).size).toBeGreaterThan(1);
      expect(errors).toEqual([]);
    });
  },
);
