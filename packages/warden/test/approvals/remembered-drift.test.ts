// A remembered approval holds only for what it was granted for (G23): when a
// new policy revision changes the rules of its scope, or the gateway sees the
// definition of the tool it was granted for change, the remembered rule is
// revoked at once — recorded in the audit log with why — and the next such
// call asks again. A revision that leaves its scope alone leaves it alone.

import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/gate/gate.js';
import { auditLog, openStaffedWarden } from '../support/warden.js';
import type { StaffedWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: {} },
  rules: [{ id: 'no-prod', action: 'gitPush', decision: 'deny', when: { refs: ['release/prod'] } }],
};
const CODER: CallContext = { workspace: 'acme', agent: 'coder-1', source: 'mcp-gateway' };
const push = (ref: string, tool = 'git__push') => ({
  tool,
  actions: ['gitPush'],
  args: { refs: [ref] },
  arguments: { ref },
});

let t: StaffedWarden;
afterEach(() => t.cleanup());

async function remember(scope: string, tool = 'git__push'): Promise<void> {
  const asked = await t.warden.gate.decide(CODER, push('feature/a', tool), { wait: false });
  expect(asked.outcome).toBe('ask');
  const answered = await t.alice.answer(asked.approvalId ?? '', {
    kind: 'remember',
    hours: 8,
    scope,
  });
  expect(answered.ok).toBe(true);
  expect((await t.warden.gate.decide(CODER, push('feature/b', tool))).outcome).toBe('allow');
}

describe('a remembered approval expires when what it was granted for drifts (G23)', () => {
  it('a revision that changes the rules of its scope revokes it; one that changes another scope does not', async () => {
    t = await openStaffedWarden(POLICY, { approvals: { pollMs: 20, timeoutMs: 60_000 } });
    await remember('agent:coder-1');
    // Another scope changes: the remembered rule stands.
    const other = await t.warden.putPolicy(
      {
        ...POLICY,
        rules: [
          ...POLICY.rules,
          { id: 'pay', scope: 'space:payments', action: 'gitCommit', decision: 'allow' },
        ],
      },
      { author: 'ada' },
    );
    expect(other.ok).toBe(true);
    expect((await t.warden.rules('acme')).map((r) => r.scope)).toEqual(['agent:coder-1']);
    // Its own scope changes: revoked, and recorded with why.
    const own = await t.warden.putPolicy(
      {
        ...POLICY,
        rules: [
          ...POLICY.rules,
          { id: 'coder-commits', scope: 'agent:coder-1', action: 'gitCommit', decision: 'allow' },
        ],
      },
      { author: 'ada' },
    );
    expect(own.ok).toBe(true);
    expect(await t.warden.rules('acme')).toEqual([]);
    const asked = await t.warden.gate.decide(CODER, push('feature/c'), { wait: false });
    expect(asked.outcome).toBe('ask');
    const revoked = (await auditLog(t.warden.store)).filter(
      (e) => e.kind === 'change' && e.change === 'rule-revoked',
    );
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ by: 'warden' });
    expect(JSON.stringify(revoked[0]?.details)).toContain(
      'revision 3 of the policy changed its scope',
    );
  });

  it('a changed definition of the tool it was granted for revokes it', async () => {
    t = await openStaffedWarden(POLICY, { approvals: { pollMs: 20, timeoutMs: 60_000 } });
    await remember('agent:coder-1', 'git__push');
    const schema = { type: 'object', properties: { ref: { type: 'string' } } };
    expect(
      (
        await t.warden.seeTool(
          'acme',
          'git__push',
          { name: 'push', description: 'Pushes.', inputSchema: schema },
          'gateway:coder-1',
        )
      ).ok,
    ).toBe(true);
    expect(await t.warden.rules('acme')).toHaveLength(1);
    const changed = await t.warden.seeTool(
      'acme',
      'git__push',
      {
        name: 'push',
        description: 'Pushes. Also force-pushes whatever it likes.',
        inputSchema: schema,
      },
      'gateway:coder-1',
    );
    expect(changed.ok).toBe(false);
    expect(await t.warden.rules('acme')).toEqual([]);
    const revoked = (await auditLog(t.warden.store)).filter(
      (e) => e.kind === 'change' && e.change === 'rule-revoked',
    );
    expect(JSON.stringify(revoked[0]?.details)).toContain('the definition of `git__push` changed');
  });
});
