// The approval's offer reaches the approver with the standing denies that stay
// in force under the rule "remember" would write (E41): in the approval's JSON
// (a compatible extension of the offer) and on `warden approvals watch`'s screen.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderApproval } from '../../src/cli/commands/approvals.js';
import { style } from '../../src/cli/io.js';
import { showApproval } from '../../src/views/approvals.js';
import type { CallContext } from '../../src/gate/gate.js';
import type { ApproverChannel } from '../../src/approvals/broker.js';
import { openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'no-keys', action: 'fileDelete', decision: 'deny', when: { paths: ['**/*.key'] } },
    {
      id: 'no-pem',
      scope: 'agent:coder-1',
      action: 'fileDelete',
      decision: 'deny',
      enforcement: 'soft',
      when: { paths: ['certs/*.pem'] },
    },
    { id: 'no-src', action: 'fileDelete', decision: 'deny', when: { paths: ['src/**'] } },
    { id: 'no-big', action: 'fileDelete', decision: 'deny', when: { maxCount: 20 } },
    {
      id: 'adv-keys',
      action: 'fileDelete',
      decision: 'deny',
      enforcement: 'advisory',
      when: { paths: ['certs/**'] },
    },
  ],
};
const CTX: CallContext = { workspace: 'acme', agent: 'coder-1', source: 'library' };

describe('the offer names the denies that stay in force (E41)', () => {
  let t: TestWarden;
  let alice: ApproverChannel;
  beforeEach(async () => {
    t = await openTestWarden(POLICY, { approvals: { pollMs: 20, timeoutMs: 60_000 } });
    alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
  });
  afterEach(async () => {
    await alice.close();
    await t.cleanup();
  });

  async function offerFor(command: string) {
    const first = await t.warden.gate.decide(CTX, { tool: 'shell', command }, { wait: false });
    expect(first.outcome).toBe('ask');
    const approval = await t.warden.store.approvals.get(first.approvalId ?? '');
    if (approval === null) throw new Error('no approval');
    return approval;
  }

  it('lists, for every scope it offers, the standing denies whose paths meet the rule — not the ones elsewhere, not advisories, not caps it stays under', async () => {
    const approval = await offerFor('rm certs/readme.txt');
    expect(approval.offer?.scopes.map((s) => s.scope)).toEqual(['agent:coder-1', 'workspace']);
    for (const scope of approval.offer?.scopes ?? []) {
      expect(scope.staysDenied?.map((d) => [d.rule, d.scope, d.enforcement])).toEqual([
        ['no-pem', 'agent:coder-1', 'soft'],
        ['no-keys', 'workspace', 'hard'],
      ]);
    }
    const hard = approval.offer?.scopes[0]?.staysDenied?.[1];
    expect(hard?.text).toBe(
      '`fileDelete` of `certs/x.key` stays denied: rule `no-keys` (hard) in workspace applies when any path matches `**/*.key`',
    );
    expect(hard?.sentence).toContain('is denied when any path matches `**/*.key`');
    // The API shows it as it is stored: a compatible extension of the offer.
    const view = showApproval(approval);
    expect(view.scopes[0]?.staysDenied?.length).toBe(2);
  });

  it('leaves the field out when the rule meets no standing deny (a push: no deny is about pushes)', async () => {
    const approval = await offerFor('git push origin feature/login');
    expect(approval.offer?.rememberable).toBe(true);
    for (const scope of approval.offer?.scopes ?? []) expect(scope.staysDenied).toBeUndefined();
  });

  it('shows them on the watch screen, once, before the approver answers', async () => {
    const approval = await offerFor('rm certs/readme.txt');
    const view = showApproval(approval);
    const screen = renderApproval(view, style(false), Date.now());
    expect(screen).toContain('approving for a while never lifts these standing denies:');
    expect(screen).toContain(
      '`fileDelete` of `certs/x.key` stays denied: rule `no-keys` (hard) in workspace applies when any path matches `**/*.key`',
    );
    expect(screen.match(/rule `no-keys`/g)?.length).toBe(1);
    const plain = renderApproval(
      showApproval(await offerFor('git push origin feature/login')),
      style(false),
      Date.now(),
    );
    expect(plain).not.toContain('standing denies');
  });
});
