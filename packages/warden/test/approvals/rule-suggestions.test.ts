// Fewer prompts, not less safety: prompts an approver answered "approve
// once" again and again become a suggested rule — the scope's rules their
// own offers drafted — with its blast radius over past decisions; accepting
// it writes the rules into the policy as its next revision, and the next such
// call is allowed without asking. A scope whose rules meet a standing deny is
// never suggested (a standing allow in a narrower scope could lift it). Seeded
// through the real gate, broker and approver channel; then the same through
// the API and the CLI.

import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/gate/gate.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import { openTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { openStaffedWarden } from '../support/warden.js';
import type { StaffedWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [{ id: 'no-prod', action: 'gitPush', decision: 'deny', when: { refs: ['release/prod'] } }],
};

const CODER: CallContext = { workspace: 'acme', agent: 'coder-1', source: 'library' };
const push = (ref: string) => ({
  tool: 'git_push',
  actions: ['gitPush'],
  args: { refs: [ref] },
  arguments: { ref },
});

let t: StaffedWarden;
afterEach(async () => {
  // Each Warden once: tests that open none leave nothing to close.
  const opened = t as StaffedWarden | undefined;
  t = undefined as never;
  await opened?.cleanup();
});

async function approvedOnce(ctx: CallContext, ref: string): Promise<string> {
  const asked = await t.warden.gate.decide(ctx, push(ref), { wait: false });
  expect(asked.outcome).toBe('ask');
  const answered = await t.alice.answer(asked.approvalId ?? '', { kind: 'once', reason: 'fine' });
  expect(answered.ok).toBe(true);
  return asked.approvalId as string;
}

describe('suggested rules from prompts approved once (G23)', () => {
  it('three pushes to feature branches approved once suggest `gitPush` on `feature/**`, with the blast radius', async () => {
    t = await openStaffedWarden(POLICY, { approvals: { pollMs: 20, timeoutMs: 60_000 } });
    const ids = [
      await approvedOnce(CODER, 'feature/a'),
      await approvedOnce(CODER, 'feature/b'),
      await approvedOnce(CODER, 'feature/c'),
    ];
    // Nobody watching: a push is denied (a prompt without an approver); the rules would allow it.
    await t.alice.close();
    await t.olga.close();
    const unwatched = await t.warden.gate.decide(CODER, push('feature/d'));
    expect(unwatched.outcome).toBe('deny');
    const since = Date.now() - 60_000;
    const suggestions = await t.warden.suggestions('acme', { sinceMs: since });
    const agentScope = suggestions.find((s) => s.scope === 'agent:coder-1');
    expect(agentScope).toMatchObject({
      rules: [{ action: 'gitPush', decision: 'allow', when: { refs: ['feature/**'] } }],
      approvals: 3,
      agents: ['coder-1'],
      tools: ['git_push'],
      blastRadius: { wouldAllow: 1, wereDenied: 0 },
    });
    expect(agentScope?.approvalIds).toEqual(ids);
    // A rule with a condition decides only the calls it matches: no cell of the matrix changes.
    expect(agentScope?.blastRadius.cells).toEqual([]);
    expect(agentScope?.blastRadius.examples[0]).toMatchObject({
      decisionId: unwatched.auditId,
      was: 'deny',
    });
    // Fewer than `min` approvals: no suggestion.
    expect(await t.warden.suggestions('acme', { sinceMs: since, min: 4 })).toEqual([]);

    const accepted = await t.warden.acceptSuggestion('acme', agentScope?.id ?? '', 'ada', {
      sinceMs: since,
    });
    expect(accepted).toMatchObject({ ok: true, revision: { revision: 2 } });
    const next = await t.warden.gate.decide(CODER, push('feature/e'));
    expect(next).toMatchObject({ outcome: 'allow', rule: `${agentScope?.id}-1` });
    // The standing deny still holds; another agent still asks.
    expect((await t.warden.gate.decide(CODER, push('release/prod'))).outcome).toBe('deny');
    expect(
      (await t.warden.gate.decide({ ...CODER, agent: 'coder-2' }, push('feature/f'))).outcome,
    ).toBe('deny');
    // Accepted, it is no suggestion any more; an unknown id is none.
    expect(
      (await t.warden.suggestions('acme', { sinceMs: since })).some((s) => s.id === agentScope?.id),
    ).toBe(false);
    expect(
      await t.warden.acceptSuggestion('acme', 'sug-000000000000', 'ada', { sinceMs: since }),
    ).toBeNull();
  });

  it('a rule without a condition names the matrix cells it changes in its blast radius', async () => {
    t = await openStaffedWarden(
      { version: 1, workspace: 'acme', rules: [] },
      { approvals: { pollMs: 20, timeoutMs: 60_000 } },
    );
    const pr = { tool: 'pr_create', actions: ['prCreate'], arguments: {} };
    for (let i = 0; i < 3; i++) {
      const asked = await t.warden.gate.decide(CODER, pr, { wait: false });
      expect(asked.outcome).toBe('ask');
      expect((await t.alice.answer(asked.approvalId ?? '', { kind: 'once' })).ok).toBe(true);
    }
    const suggestions = await t.warden.suggestions('acme', { sinceMs: Date.now() - 60_000 });
    const agentScope = suggestions.find((s) => s.scope === 'agent:coder-1');
    expect(agentScope?.rules).toEqual([
      { scope: 'agent:coder-1', action: 'prCreate', decision: 'allow' },
    ]);
    expect(agentScope?.blastRadius.cells).toEqual([
      {
        class: 'prCreate',
        scope: 'agent:coder-1',
        before: {
          decision: 'prompt',
          effective: 'prompt',
          rule: 'default:prCreate',
          decidedIn: 'default',
        },
        after: {
          decision: 'allow',
          effective: 'allow',
          rule: `${agentScope?.id}-1`,
          decidedIn: 'agent:coder-1',
        },
      },
    ]);
  });

  it('E41: never suggests rules that meet a standing deny', async () => {
    t = await openStaffedWarden(
      {
        version: 1,
        workspace: 'acme',
        rules: [
          { id: 'no-hotfix-x', action: 'gitPush', decision: 'deny', when: { refs: ['hotfix/x'] } },
        ],
      },
      { approvals: { pollMs: 20, timeoutMs: 60_000 } },
    );
    for (const ref of ['hotfix/a', 'hotfix/b', 'hotfix/c']) await approvedOnce(CODER, ref);
    const suggestions = await t.warden.suggestions('acme', { sinceMs: Date.now() - 60_000 });
    expect(suggestions).toEqual([]);
  });

  it('approvals answered "remember" or denied are no evidence for a suggestion', async () => {
    t = await openStaffedWarden(POLICY, { approvals: { pollMs: 20, timeoutMs: 60_000 } });
    for (const ref of ['feature/a', 'feature/b', 'feature/c']) {
      const asked = await t.warden.gate.decide(CODER, push(ref), { wait: false });
      await t.alice.answer(asked.approvalId ?? '', { kind: 'deny', reason: 'no' });
    }
    expect(await t.warden.suggestions('acme', { sinceMs: Date.now() - 60_000 })).toEqual([]);
  });
});

describe('suggestions through the API and the CLI', () => {
  let h: TestServer;
  afterEach(async () => {
    await h.cleanup();
  });

  it('a viewer lists them, only an admin accepts one; the CLI reads the same from the data folder', async () => {
    h = await openTestServer(POLICY, { warden: { approvals: { pollMs: 20, timeoutMs: 60_000 } } });
    const alice = await h.t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
    try {
      for (const ref of ['feature/a', 'feature/b', 'feature/c']) {
        const asked = await h.call('POST', '/v1/decide?wait=0', h.tokens.agent, push(ref));
        expect(asked.body).toMatchObject({ outcome: 'ask' });
        expect((await alice.answer(String(asked.body.approvalId), { kind: 'once' })).ok).toBe(true);
      }
    } finally {
      await alice.close();
    }
    const listed = await h.call('GET', '/v1/rules/suggestions?since=1h', h.tokens.viewer);
    expect(listed.status).toBe(200);
    const suggestions = listed.body.suggestions as { id: string; scope: string }[];
    const agentScope = suggestions.find((s) => s.scope === 'agent:coder-1');
    expect(agentScope).toBeDefined();

    const cli = warden([
      'rules',
      'suggest',
      '--data',
      h.t.data,
      '--workspace',
      'acme',
      '--since',
      '1h',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(
      `${agentScope?.id}  agent:coder-1  3 prompts approved once (coder-1; git_push)`,
    );
    expect(cli.stdout).toContain('allow `gitPush` when {"refs":["feature/**"]}');
    expect(cli.stdout).toContain(`accept: warden rules accept ${agentScope?.id}`);

    for (const token of [h.tokens.agent, h.tokens.viewer, h.tokens.approver])
      expect(
        (await h.call('POST', `/v1/rules/suggestions/${agentScope?.id}/accept?since=1h`, token))
          .status,
      ).toBe(403);
    const accepted = await h.call(
      'POST',
      `/v1/rules/suggestions/${agentScope?.id}/accept?since=1h`,
      h.tokens.admin,
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ revision: 2, suggestion: { id: agentScope?.id } });
    const next = await h.call('POST', '/v1/decide', h.tokens.agent, push('feature/z'));
    expect(next.body).toMatchObject({ outcome: 'allow' });
    expect(
      (
        await h.call(
          'POST',
          `/v1/rules/suggestions/${agentScope?.id}/accept?since=1h`,
          h.tokens.admin,
        )
      ).status,
    ).toBe(404);
    expect((await h.call('GET', '/v1/rules/suggestions?since=soon', h.tokens.viewer)).status).toBe(
      400,
    );
  });
});

describe('the CLI on a data folder without the policy', () => {
  it('says which workspace holds no policy, as an error of its flag, never as a crash', () => {
    const data = tempDir();
    const folder = join(data, 'policy.yaml');
    writeFileSync(folder, 'version: 1\nworkspace: acme\nrules: []\n');
    expect(warden(['policy', 'apply', folder, '--data', data]).code).toBe(0);
    for (const args of [
      ['rules', 'suggest'],
      ['agent', 'frozen'],
    ]) {
      const ran = warden([...args, '--data', data, '--workspace', 'nope']);
      expect(ran.code, args.join(' ')).toBe(1);
      expect(ran.stderr).toContain('error: --workspace: no policy is stored for workspace `nope`');
      expect(ran.stderr).not.toContain('internal error');
      const json = warden([...args, '--data', data, '--workspace', 'nope', '--json']);
      expect(JSON.parse(json.stdout)).toEqual({
        errors: [{ path: '--workspace', message: 'no policy is stored for workspace `nope`' }],
      });
    }
  });
});
