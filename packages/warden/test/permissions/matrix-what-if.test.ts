// Each agent's column of the permissions matrix (G20) is decided where the
// agent's calls are: in the space and the mode it is registered in, so every
// cell says what the what-if check (G38) answers that agent for a request of
// the cell's class. Checked over generated policies with spaces (every
// autonomy level), modes with presets, rules in every scope and twenty
// agents placed in spaces and modes.

import { ACTION_CLASSES } from '@warden/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { placedPolicy } from '../support/placed-policy.js';
import { openTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

function spaceAutonomy(policy: Record<string, unknown>, space: string): string {
  const spaces = policy.spaces as Record<string, { autonomy: string }>;
  return (spaces[space] as { autonomy: string }).autonomy;
}

let h: TestServer | null = null;
afterEach(async () => {
  await h?.cleanup();
  h = null;
});

interface Cell {
  readonly scope: string;
  readonly decision: string;
  readonly effective: string;
  readonly rule: string;
}

describe('G20, G38: every agent cell of the matrix is what the what-if check answers that agent', () => {
  for (const seed of [1, 2, 3]) {
    it(`a generated policy with spaces, modes and 20 placed agents (seed ${seed})`, async () => {
      const { policy, agents } = placedPolicy(seed);
      h = await openTestServer(policy);
      const server = h;
      for (const a of agents) {
        const put = await server.call(
          'PUT',
          `/v1/agents/${a.id}?workspace=acme`,
          server.tokens.admin,
          {
            space: a.space,
            mode: a.mode,
          },
        );
        expect(put.status, put.text).toBe(200);
      }
      const matrix = await server.call(
        'GET',
        '/v1/permissions/matrix?workspace=acme',
        server.tokens.viewer,
      );
      expect(matrix.status, matrix.text).toBe(200);
      const columns = matrix.body.columns as {
        scope: string;
        label: string;
        space?: string | null;
        mode?: string | null;
      }[];
      const rows = matrix.body.rows as { class: string; cells: Cell[] }[];
      let compared = 0;
      for (const a of agents) {
        const column = columns.find((c) => c.scope === `agent:${a.id}`);
        expect(column, a.id).toMatchObject({ space: a.space, mode: a.mode });
        if (a.space !== null) expect(column?.label).toContain(`space \`${a.space}\``);
        for (const row of rows) {
          const cell = row.cells.find((c) => c.scope === `agent:${a.id}`) as Cell;
          const asked = await server.call('POST', '/v1/what-if', server.tokens.viewer, {
            request: { workspace: 'acme', agent: a.id, actions: [row.class] },
            approver: 'connected',
          });
          expect(asked.status, asked.text).toBe(200);
          const where = `${a.id} (space ${String(a.space)}, mode ${String(a.mode)}), ${row.class}`;
          // The decision is the cell's; the rule is the cell's, or the space's dial where the
          // dial decides (it may also be what denies a class the rule denies as well).
          const autonomy = a.space === null ? null : spaceAutonomy(policy, a.space);
          expect(asked.body.decision, where).toBe(cell.effective);
          const dial = `autonomy:${String(autonomy)}`;
          if (cell.effective !== cell.decision) expect(asked.body.rule, where).toBe(dial);
          else expect([cell.rule, dial], where).toContain(asked.body.rule);
          compared++;
        }
      }
      expect(compared).toBe(agents.length * ACTION_CLASSES.length);
    }, 60_000);
  }
});
