// Why this file exists: policy administration — the workspace and managed
// policy revisions, the remembered rules, and the reads the server answers
// about them — is one capability of the `Warden` facade (`warden.policy`).
// Every rule about a policy record lives here: a revision is validated and
// its examples checked before it is stored, each write is recorded as a
// change, and remembered rules whose scope drifted are revoked with why.

import type { Issue, Policy } from '@warden/engine';
import { checkExamples, compilePolicy, validatePolicy } from '@warden/engine';
import type { PolicySource } from '../gate/snapshot.js';
import { driftedScopes } from '../permissions/policy-diff.js';
import type { JsonValue, PolicyRevision, Store, StoredRule } from '../store/types.js';
import type { ChangeLog } from './changes.js';

export type PolicyWriteResult =
  | { readonly ok: true; readonly revision: PolicyRevision }
  | { readonly ok: false; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly conflict: { readonly current: number | null } };

/** A workspace with a policy, and its current revision. */
export interface WorkspaceRevision {
  readonly workspace: string;
  readonly revision: number | null;
}

export class PolicyAdmin {
  constructor(
    private readonly parts: {
      readonly store: Pick<Store, 'policies' | 'rules'>;
      readonly source: PolicySource;
      readonly clock: () => number;
      readonly changes: ChangeLog;
    },
  ) {}

  // ─── Reads ───────────────────────────────────────────────────────────────

  /** The workspaces with a stored policy. */
  workspaces(): Promise<string[]> {
    return this.parts.store.policies.workspaces();
  }

  /** The given workspaces (default: every one with a policy) with their current revision. */
  async revisions(workspaces?: readonly string[]): Promise<WorkspaceRevision[]> {
    const names = workspaces ?? (await this.workspaces());
    return Promise.all(
      names.map(async (workspace) => ({
        workspace,
        revision: (await this.current(workspace))?.revision ?? null,
      })),
    );
  }

  /** The current revision of a workspace's policy; null when none is stored. */
  current(workspace: string): Promise<PolicyRevision | null> {
    return this.parts.store.policies.current(workspace);
  }

  /** One revision of a workspace's policy; null when there is no such revision. */
  revision(workspace: string, revision: number): Promise<PolicyRevision | null> {
    return this.parts.store.policies.revision(workspace, revision);
  }

  /** The revisions of a workspace's policy, newest first. */
  history(workspace: string, limit?: number): Promise<PolicyRevision[]> {
    return this.parts.store.policies.history(workspace, limit);
  }

  /** The stored managed layer's current revision; null when none is stored. */
  currentManaged(): Promise<PolicyRevision | null> {
    return this.parts.store.policies.currentManaged();
  }

  /** The policy as decisions read it now: the document with its live remembered rules. */
  async effective(workspace: string): Promise<Policy> {
    return (await this.parts.source.snapshot(workspace)).compiled.policy;
  }

  /** Remembered rules with origin and expiry (G23). */
  rules(
    workspace: string,
    options: { readonly includeRevoked?: boolean } = {},
  ): Promise<StoredRule[]> {
    return this.parts.store.rules.list(
      workspace,
      options.includeRevoked === true ? { includeRevoked: true } : { at: this.parts.clock() },
    );
  }

  // ─── Writes ──────────────────────────────────────────────────────────────

  /** Validates and stores a new revision of a workspace's policy; nothing half-loads. */
  async put(
    document: unknown,
    by: { readonly author: string; readonly message?: string; readonly expected?: number | null },
  ): Promise<PolicyWriteResult> {
    const { store, clock, changes } = this.parts;
    const validated = validatePolicy(document, 'workspace');
    if (!validated.ok) return { ok: false, issues: validated.issues };
    const wrong = checkExamples(compilePolicy(validated.value), { at: clock() });
    if (wrong.length > 0) return { ok: false, issues: wrong };
    const workspace = validated.value.workspace as string;
    const previous = await store.policies.current(workspace);
    const written = await store.policies.put(workspace, {
      document: document as JsonValue,
      author: by.author,
      ...(by.message === undefined ? {} : { message: by.message }),
      ...(by.expected === undefined ? {} : { expected: by.expected }),
      at: clock(),
    });
    if (!written.ok) return written;
    await changes.record(workspace, 'policy-revision', by.author, {
      revision: written.revision.revision,
      hash: written.revision.hash,
      message: written.revision.message,
    });
    if (previous !== null) {
      const drifted = driftedScopes(previous.document, document as JsonValue);
      if (drifted.size > 0)
        await this.expireDrifted(
          workspace,
          (rule) => drifted.has(rule.scope),
          `revision ${written.revision.revision} of the policy changed its scope`,
        );
    }
    return written;
  }

  /** Stores a new revision of the managed layer (ignored while WARDEN_MANAGED_POLICY names a file, G29). */
  async putManaged(
    document: unknown,
    by: { readonly author: string; readonly message?: string },
  ): Promise<PolicyWriteResult> {
    const { store, clock, changes } = this.parts;
    const validated = validatePolicy(document, 'managed');
    if (!validated.ok) return { ok: false, issues: validated.issues };
    const wrong = checkExamples(compilePolicy(validated.value), { at: clock() });
    if (wrong.length > 0) return { ok: false, issues: wrong };
    const written = await store.policies.putManaged({
      document: document as JsonValue,
      author: by.author,
      ...(by.message === undefined ? {} : { message: by.message }),
      at: clock(),
    });
    if (!written.ok) return written;
    await changes.record(null, 'managed-revision', by.author, {
      revision: written.revision.revision,
      hash: written.revision.hash,
    });
    return written;
  }

  /** Revokes a remembered rule before it expires (G23). */
  async revokeRule(workspace: string, id: string, by: string): Promise<StoredRule | null> {
    const revoked = await this.parts.store.rules.revoke(workspace, id, by, this.parts.clock());
    if (revoked !== null)
      await this.parts.changes.record(workspace, 'rule-revoked', by, { rule: id });
    return revoked;
  }

  /**
   * A remembered approval holds only for what it was granted for: the live
   * remembered rules `drifted` picks are revoked, each recorded with why.
   */
  async expireDrifted(
    workspace: string,
    drifted: (rule: StoredRule) => boolean | Promise<boolean>,
    because: string,
  ): Promise<void> {
    const { store, clock, changes } = this.parts;
    const live = await store.rules.list(workspace, { at: clock() });
    for (const rule of live) {
      if (rule.origin !== 'remembered' || !(await drifted(rule))) continue;
      const revoked = await store.rules.revoke(workspace, rule.id, 'warden', clock());
      if (revoked !== null)
        await changes.record(workspace, 'rule-revoked', 'warden', { rule: rule.id, because });
    }
  }
}
