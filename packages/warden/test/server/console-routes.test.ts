// The console's own routes, in process over a real Warden on SQLite: the
// permissions matrix (G20) is the engine's enumeration of every scope, read
// from the snapshot decisions read (remembered rules and the managed layer
// included); a proposed document or a template is previewed cell by cell
// without writing anything; roles are the API's (viewers read, agents do
// not); a bad workspace is a clear 4xx.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enumerate, compilePolicy, validatePolicy } from '@warden/engine';
import { tempDir } from '../support/backends.js';
import { openTestServer } from '../support/server.js';
import type { RoleTokens, TestServer } from '../support/server.js';

type J = Record<string, unknown>;

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: { autonomy: 'actFreely' }, sandbox: { autonomy: 'proposeOnly' } },
  modes: {
    review: {
      preset: [{ action: 'gitCommit', decision: 'prompt' }],
      commandNet: ['git push --force'],
    },
  },
  rules: [
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    { id: 'coder-pushes', scope: 'agent:coder-1', action: 'gitPush', decision: 'allow' },
    { id: 'pay-installs', scope: 'space:payments', action: 'packageInstall', decision: 'prompt' },
    { id: 'watch-egress', action: 'networkEgress', decision: 'deny', enforcement: 'advisory' },
    { id: 'no-publish', command: 'npm publish', decision: 'deny' },
  ],
};

const MANAGED = `version: 1
rules:
  - { id: pinned-secrets, action: secretAccess, decision: deny }
`;

let server: TestServer;
let tokens: RoleTokens & { readonly bound: string };

const call = (method: string, path: string, token?: string, body?: unknown) =>
  server.call(method, path, token, body);

beforeAll(async () => {
  const dir = tempDir('warden-console-');
  const managed = join(dir, 'managed.yaml');
  writeFileSync(managed, MANAGED);
  server = await openTestServer(POLICY, { warden: { managedPolicyFile: managed } });
  await server.t.warden.store.agents.upsert(
    {
      workspace: 'acme',
      id: 'reviewer-7',
      name: 'Reviewer',
      role: null,
      space: 'research',
      model: null,
    },
    Date.now(),
  );
  tokens = {
    ...server.tokens,
    bound: await server.token('viewer', 'other', { workspace: 'globex' }),
  };
});

afterAll(async () => {
  await server.cleanup();
});

interface Cell {
  scope: string;
  decision: string;
  effective: string;
  rule: string;
  decidedIn: string;
  inherited: boolean;
  managed: boolean;
  rules: string[];
  managedRules: string[];
  exceptions: { rule: string; sentence: string }[];
}
interface Row {
  class: string;
  cells: Cell[];
}

function cell(body: J, cls: string, scope: string): Cell {
  const row = (body.rows as Row[]).find((r) => r.class === cls);
  const found = row?.cells.find((c) => c.scope === scope);
  if (found === undefined) throw new Error(`no cell ${cls} × ${scope}`);
  return found;
}

describe('GET /v1/permissions/matrix (G20)', () => {
  it('G20: lists the 13 classes × workspace, each agent, each space and each mode, computed by the engine', async () => {
    const { status, body } = await call(
      'GET',
      '/v1/permissions/matrix?workspace=acme',
      tokens.viewer,
    );
    expect(status).toBe(200);
    const scopes = (body.columns as { scope: string }[]).map((c) => c.scope);
    expect(scopes).toEqual([
      'workspace',
      'agent:coder-1',
      'agent:reviewer-7',
      'space:payments',
      'space:research',
      'space:sandbox',
      'mode:review',
    ]);
    expect((body.rows as Row[]).length).toBe(13);
    for (const row of body.rows as Row[]) expect(row.cells.length).toBe(scopes.length);
    // The workspace: built-in defaults, the constrained deny as an exception.
    expect(cell(body, 'gitPush', 'workspace')).toMatchObject({
      decision: 'prompt',
      effective: 'prompt',
      rule: 'default:gitPush',
      decidedIn: 'default',
      inherited: true,
    });
    expect(cell(body, 'gitPush', 'workspace').exceptions.map((e) => e.rule)).toEqual([
      'protect-main',
    ]);
    // An agent's own rule decides its column, set there.
    expect(cell(body, 'gitPush', 'agent:coder-1')).toMatchObject({
      decision: 'allow',
      rule: 'coder-pushes',
      decidedIn: 'agent:coder-1',
      inherited: false,
      rules: ['coder-pushes'],
    });
    // actFreely turns the space's prompts into allow after the dial (G32); proposeOnly denies all (G30).
    expect(cell(body, 'packageInstall', 'space:payments')).toMatchObject({
      decision: 'prompt',
      effective: 'allow',
      rule: 'pay-installs',
    });
    expect(cell(body, 'gitCommit', 'space:sandbox')).toMatchObject({
      decision: 'allow',
      effective: 'deny',
    });
    // The mode preset is the chain's last scope before the defaults.
    expect(cell(body, 'gitCommit', 'mode:review')).toMatchObject({
      decision: 'prompt',
      rule: 'mode:review#0',
      decidedIn: 'mode:review',
      inherited: false,
    });
    // G28/G29: the managed layer pins secretAccess everywhere, shown as managed.
    expect(cell(body, 'secretAccess', 'agent:coder-1')).toMatchObject({
      decision: 'deny',
      rule: 'pinned-secrets',
      decidedIn: 'managed:workspace',
      managed: true,
    });
    expect(cell(body, 'secretAccess', 'workspace').managedRules).toEqual(['pinned-secrets']);
    expect(body.managed).toMatchObject({ loaded: true, source: 'flag', readOnly: true });
    expect((body.revision as J).revision).toBe(1);
    expect((body.document as J).workspace).toBe('acme');
    const net = (body.columns as J[]).find((c) => c.scope === 'mode:review');
    expect(net?.commandNet).toEqual(['git push --force']);
  });

  it('G20: each column is exactly the engine’s enumeration for that scope', async () => {
    const { body } = await call('GET', '/v1/permissions/matrix', tokens.admin);
    const validated = validatePolicy(POLICY, 'workspace');
    if (!validated.ok) throw new Error('invalid');
    const managedDoc = validatePolicy(
      { version: 1, rules: [{ id: 'pinned-secrets', action: 'secretAccess', decision: 'deny' }] },
      'managed',
    );
    if (!managedDoc.ok) throw new Error('invalid');
    const en = enumerate({
      policy: compilePolicy(validated.value),
      managed: compilePolicy(managedDoc.value),
      agent: 'coder-1',
      at: Date.now(),
    });
    for (const c of en.classes) {
      expect(cell(body, c.class, 'agent:coder-1')).toMatchObject({
        decision: c.decision,
        effective: c.effective,
        rule: c.rule,
        decidedIn: c.scope,
      });
    }
  });

  it('G19/G29: every rule reads as its sentence with origin and expiry; managed rules read-only, document rules with their place', async () => {
    const { body } = await call('GET', '/v1/permissions/matrix?workspace=acme', tokens.viewer);
    const rules = body.rules as J[];
    expect(rules.find((r) => r.id === 'protect-main')).toMatchObject({
      layer: 'workspace',
      origin: 'user',
      expiresAt: null,
      path: 'rules[0]',
      revocable: false,
      readOnly: false,
    });
    expect(String(rules.find((r) => r.id === 'protect-main')?.sentence)).toContain('`main`');
    expect(rules.find((r) => r.id === 'mode:review#0')).toMatchObject({
      path: 'modes.review.preset[0]',
    });
    expect(rules.find((r) => r.id === 'pinned-secrets')).toMatchObject({
      layer: 'managed',
      origin: 'managed',
      readOnly: true,
      path: null,
    });
  });

  it('roles: a viewer and an approver may read it; an agent token may not', async () => {
    expect((await call('GET', '/v1/permissions/matrix', tokens.approver)).status).toBe(200);
    const refused = await call('GET', '/v1/permissions/matrix', tokens.agent);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body.errors)).toContain('`agent` token may not');
    expect((await call('GET', '/v1/permissions/matrix')).status).toBe(401);
  });

  it('a bad workspace is a clear 4xx: unknown → 404, another bound workspace → 403, bad query → 400', async () => {
    const unknown = await call('GET', '/v1/permissions/matrix?workspace=nope', tokens.admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual([
      { path: '', message: 'no policy is stored for workspace `nope`' },
    ]);
    const other = await call('GET', '/v1/permissions/matrix?workspace=acme', tokens.bound);
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body.errors)).toContain('acts in workspace `globex`');
    const extra = await call('GET', '/v1/permissions/matrix?workspace=acme&x=1', tokens.admin);
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.body.errors)).toContain('query');
  });
});

describe('POST /v1/permissions/preview', () => {
  it('G19/G20: names the cells a proposed rule changes and the rule as its sentence, writing nothing', async () => {
    const proposed = structuredClone(POLICY) as typeof POLICY & { rules: J[] };
    proposed.rules.push({
      id: 'payments-no-push',
      scope: 'space:payments',
      action: 'gitPush',
      decision: 'deny',
    });
    const { status, body } = await call('POST', '/v1/permissions/preview', tokens.viewer, {
      document: proposed,
    });
    expect(status).toBe(200);
    expect(body.revision).toBe(1);
    expect(body.changes).toEqual([
      {
        class: 'gitPush',
        scope: 'space:payments',
        before: {
          decision: 'prompt',
          effective: 'allow',
          rule: 'default:gitPush',
          decidedIn: 'default',
        },
        after: {
          decision: 'deny',
          effective: 'deny',
          rule: 'payments-no-push',
          decidedIn: 'space:payments',
        },
      },
    ]);
    const added = (body.rules as { added: J[] }).added;
    expect(added.map((r) => r.id)).toEqual(['payments-no-push']);
    expect(String(added[0]?.sentence)).toContain('In space `payments`');
    const still = await call('GET', '/v1/policy', tokens.viewer);
    expect(still.body.revision).toBe(1);
  });

  it('an invalid document is a 422 listing every problem under `document`', async () => {
    const { status, body } = await call('POST', '/v1/permissions/preview', tokens.viewer, {
      document: { ...POLICY, rules: [{ action: 'gitPushh', decision: 'deny' }] },
    });
    expect(status).toBe(422);
    expect(JSON.stringify(body.errors)).toContain('document.rules[0].action');
    expect(JSON.stringify(body.errors)).toContain('did you mean');
    const other = await call('POST', '/v1/permissions/preview', tokens.admin, {
      workspace: 'acme',
      document: { ...POLICY, workspace: 'globex' },
    });
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([
      {
        path: 'document.workspace',
        message: 'the document is the policy of `globex`, not of `acme`',
      },
    ]);
    expect(
      (await call('POST', '/v1/permissions/preview', tokens.agent, { document: POLICY })).status,
    ).toBe(403);
  });
});

describe('POST /v1/permissions/templates/:name/preview', () => {
  it('lists the rules a template adds, each as its sentence, and the cells it changes', async () => {
    const { status, body } = await call(
      'POST',
      '/v1/permissions/templates/no-package-installs/preview',
      tokens.viewer,
      { workspace: 'acme', scope: 'agent:coder-1' },
    );
    expect(status).toBe(200);
    expect(body.template).toBe('no-package-installs');
    const added = (body.rules as { added: J[] }).added;
    expect(added.length).toBeGreaterThan(0);
    for (const r of added) {
      expect(r.origin).toBe('template');
      expect(typeof r.sentence).toBe('string');
    }
    const changes = body.changes as { class: string; scope: string }[];
    expect(changes.some((c) => c.class === 'packageInstall' && c.scope === 'agent:coder-1')).toBe(
      true,
    );
    expect((await call('GET', '/v1/policy', tokens.viewer)).body.revision).toBe(1);
  });

  it('an unknown template is a 404; arguments that do not fit are a 422', async () => {
    expect(
      (await call('POST', '/v1/permissions/templates/nope/preview', tokens.viewer, {})).status,
    ).toBe(404);
    const bad = await call(
      'POST',
      '/v1/permissions/templates/egress-allowlist/preview',
      tokens.viewer,
      {},
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toContain('hosts');
  });
});
