// Every agent has its column (G20): agents of the data folder (`warden agent
// create`) and registered agents appear in the permissions matrix and in the
// editor's scope list without a rule naming them first; an agent whose
// settings name another workspace does not.

import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/instance/index.js';
import { openTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let h: TestServer;
afterEach(async () => {
  await h.cleanup();
});

describe('the matrix gives every known agent a column', () => {
  it('agents on disk and registered ones, with no rule of their own; another workspace’s are left out', async () => {
    h = await openTestServer({
      version: 1,
      workspace: 'acme',
      spaces: { payments: {} },
      rules: [{ id: 'no-push', action: 'gitPush', decision: 'deny' }],
    });
    await createAgent(h.t.data, { id: 'coder-2', role: 'coder', workspace: 'acme' });
    await createAgent(h.t.data, { id: 'helper-1', role: 'coder' });
    await createAgent(h.t.data, { id: 'elsewhere', role: 'coder', workspace: 'other' });
    await h.t.warden.store.agents.upsert(
      {
        workspace: 'acme',
        id: 'payer-1',
        name: 'Payer',
        role: 'coder',
        space: 'payments',
        model: null,
      },
      Date.now(),
    );

    const { status, body } = await h.call(
      'GET',
      '/v1/permissions/matrix?workspace=acme',
      h.tokens.viewer,
    );
    expect(status).toBe(200);
    const scopes = (body.columns as { scope: string }[]).map((c) => c.scope);
    expect(scopes).toEqual([
      'workspace',
      'agent:coder-2',
      'agent:helper-1',
      'agent:payer-1',
      'space:payments',
    ]);
    const agents = body.agents as {
      id: string;
      name: string | null;
      space: string | null;
      mode: string | null;
    }[];
    expect(agents).toEqual([
      { id: 'coder-2', name: null, space: null, mode: null },
      { id: 'helper-1', name: null, space: null, mode: null },
      { id: 'payer-1', name: 'Payer', space: 'payments', mode: null },
    ]);
    // Each column is decided as the engine decides that agent: the workspace's deny.
    const push = (body.rows as { class: string; cells: { scope: string; decision: string }[] }[])
      .find((r) => r.class === 'gitPush')
      ?.cells.find((c) => c.scope === 'agent:coder-2');
    expect(push?.decision).toBe('deny');
  });
});
