// Why this file exists: the kill switch (`warden.killSwitch`) is one
// capability — freezing an agent or a workspace, thawing it, listing the
// freezes in force (the managed policy's and the admins'), and what a frozen
// or denied agent may not do. The rules about a freeze record live here:
// its reason is redacted, the policy is read again at once, the change is
// recorded, and the agent's waiting prompts are denied.

import type { OutrightDenial } from '@warden/engine';
import { managedFreezes, outrightDenials } from '@warden/engine';
import type { ApprovalBroker } from '../approvals/broker.js';
import type { Redactor } from '../audit/redact.js';
import type { PolicySource } from '../gate/snapshot.js';
import { agentKey, freezeOf } from '../gate/snapshot.js';
import type { FreezeRecord, Store } from '../store/types.js';
import type { ChangeLog } from './changes.js';

/** A freeze in force, as listed: an admin's, or one the managed policy writes. */
export interface ListedFreeze extends Omit<FreezeRecord, 'frozenAt'> {
  /** null: the managed policy does not say since when. */
  readonly frozenAt: string | null;
  /** Written in the managed policy: only the installation operator lifts it. */
  readonly managed: boolean;
}

const MANAGED_FROM = {
  flag: 'the file given with `--managed`',
  env: 'the file WARDEN_MANAGED_POLICY names',
  store: 'the stored managed policy',
} as const;

export class KillSwitch {
  constructor(
    private readonly parts: {
      readonly store: Pick<Store, 'freezes'>;
      readonly source: PolicySource;
      readonly clock: () => number;
      readonly changes: ChangeLog;
      readonly approvals: ApprovalBroker;
      /** The audit log's redactor as it is now (literals are added as agents are made). */
      readonly redactor: () => Redactor;
    },
  ) {}

  /**
   * From now on every decision for the agent — or, with `agent` null, for
   * every agent of the workspace — is a hard deny naming the freeze, and
   * each of its prompts still waiting is denied. Recorded in the audit log
   * as a change. An agent frozen already stays frozen as it was.
   */
  async freeze(
    workspace: string,
    agent: string | null,
    by: string,
    reason: string | null,
  ): Promise<{ readonly freeze: FreezeRecord; readonly denied: readonly string[] }> {
    const { store, source, clock, changes, approvals } = this.parts;
    const given = reason?.trim() ?? '';
    // Shown to agents in every deny: redacted like everything else.
    const redacted =
      given === '' ? null : (this.parts.redactor().redact(given, 'reason').value as string);
    const freeze = await store.freezes.freeze({ workspace, agent, by, reason: redacted }, clock());
    source.invalidate(workspace);
    await changes.record(workspace, 'agent-frozen', by, {
      agent,
      reason: freeze.reason,
      frozenAt: freeze.frozenAt,
    });
    // The agent's waiting prompts, its id compared as the freeze compares it (one Unicode form).
    const waiting = (await approvals.list({ workspace, state: 'pending', limit: 10_000 })).filter(
      (approval) => agent === null || agentKey(approval.agent) === agentKey(agent),
    );
    const what = agent === null ? 'every agent of the workspace is' : `agent \`${agent}\` is`;
    const denied: string[] = [];
    for (const approval of waiting) {
      const answered = await approvals.answer(
        approval.id,
        { kind: 'deny', reason: `${what} frozen` },
        { name: by, roles: ['approver', 'overrider'], workspace },
      );
      if (answered.ok) denied.push(approval.id);
    }
    return { freeze, denied };
  }

  /** Ends a freeze; null when the agent (or the workspace) was not frozen. */
  async thaw(workspace: string, agent: string | null, by: string): Promise<FreezeRecord | null> {
    const thawed = await this.parts.store.freezes.thaw(workspace, agent);
    if (thawed === null) return null;
    this.parts.source.invalidate(workspace);
    await this.parts.changes.record(workspace, 'agent-thawed', by, {
      agent,
      frozenBy: thawed.by,
      frozenAt: thawed.frozenAt,
    });
    return thawed;
  }

  /** The freezes in force in a workspace: the managed policy's first, then the admins'. */
  async list(workspace: string): Promise<ListedFreeze[]> {
    const [snapshot, stored] = await Promise.all([
      this.parts.source.snapshot(workspace),
      this.parts.store.freezes.list(workspace),
    ]);
    const managed: ListedFreeze[] = managedFreezes(snapshot.managed?.policy ?? null, workspace).map(
      ({ agent, freeze }) => ({
        workspace,
        agent,
        by: freeze.by,
        reason: freeze.reason,
        frozenAt: freeze.since === null ? null : new Date(freeze.since).toISOString(),
        managed: true,
      }),
    );
    return [...managed, ...stored.map((f) => ({ ...f, managed: false }))];
  }

  /**
   * Why an admin cannot thaw what the managed policy froze (the agent, or
   * with `agent` null the workspace), or null when it froze neither.
   */
  async managedThawRefusal(workspace: string, agent: string | null): Promise<string | null> {
    const snapshot = await this.parts.source.snapshot(workspace);
    const held = managedFreezes(snapshot.managed?.policy ?? null, workspace).find(
      (f) => f.agent === agent,
    );
    if (held === undefined) return null;
    const what = agent === null ? `workspace \`${workspace}\`` : `agent \`${agent}\``;
    return `${what} is frozen by the managed policy (\`${held.path}\` of ${MANAGED_FROM[snapshot.managedSource ?? 'store']}): only the installation operator lifts that freeze, by removing it from the managed policy`;
  }

  /**
   * The classes whose every call is a hard deny for this agent where it acts
   * now, with why: a frozen agent is denied them all. Nothing is recorded:
   * it decides no call.
   */
  async outrightDenials(
    workspace: string,
    agent: string,
    placement: { readonly space?: string; readonly mode?: string } = {},
  ): Promise<OutrightDenial[]> {
    const snapshot = await this.parts.source.snapshot(workspace);
    return outrightDenials({
      policy: snapshot.compiled,
      managed: snapshot.managed,
      agent,
      ...placement,
      at: this.parts.clock(),
      frozen: freezeOf(snapshot, agent),
    });
  }
}
