// Why this file exists: the gateway pins each downstream tool by its
// definition (`warden.toolPins`). Seeing a tool, accepting its changed
// definition and listing the pins are one capability, so the rules about a
// pin record live here: a definition nested too deep is refused, a new one is
// recorded as a change the first time it is seen, and remembered approvals
// for the tool as it was are revoked.

import type { PinCheck, ToolDefinition } from '../gateway/pins.js';
import {
  MAX_DEFINITION_DEPTH,
  changedReason,
  definitionHash,
  nestedDeeperThan,
} from '../gateway/pins.js';
import type { JsonValue, Store, ToolPinRecord } from '../store/types.js';
import type { ChangeLog } from './changes.js';
import type { PolicyAdmin } from './policy.js';

export class ToolPins {
  constructor(
    private readonly parts: {
      readonly store: Pick<Store, 'toolPins' | 'approvals'>;
      readonly clock: () => number;
      readonly changes: ChangeLog;
      readonly policy: PolicyAdmin;
    },
  ) {}

  /** The pinned tools of a workspace, with the changed definitions waiting for an admin. */
  list(workspace: string): Promise<ToolPinRecord[]> {
    return this.parts.store.toolPins.list(workspace);
  }

  /**
   * A downstream tool as the gateway lists it: pinned by its definition the
   * first time, let through while its definition is the pinned one, and
   * refused once it differs until an admin accepts the new definition. A new
   * definition is recorded in the audit log the first time it is seen.
   */
  async see(
    workspace: string,
    tool: string,
    definition: ToolDefinition,
    by: string,
  ): Promise<PinCheck> {
    const { store, clock, changes, policy } = this.parts;
    if (nestedDeeperThan(definition, MAX_DEFINITION_DEPTH))
      return {
        ok: false,
        reason: `the definition of \`${tool}\` nests deeper than ${MAX_DEFINITION_DEPTH} levels: refused, not pinned`,
      };
    const hash = definitionHash(definition);
    const { pin, newlyPending } = await store.toolPins.see(
      workspace,
      tool,
      { hash, definition: definition as unknown as JsonValue, by },
      clock(),
    );
    if (newlyPending) {
      await changes.record(workspace, 'tool-changed', by, {
        tool,
        pinnedHash: pin.hash,
        newHash: hash,
      });
      // What was approved for the tool as it was does not hold for the tool as it is now.
      await policy.expireDrifted(
        workspace,
        async (rule) =>
          rule.approvalId !== null && (await store.approvals.get(rule.approvalId))?.tool === tool,
        `the definition of \`${tool}\` changed`,
      );
    }
    if (pin.hash === hash) return { ok: true };
    return { ok: false, reason: changedReason(tool, pin.pinnedAt, hash) };
  }

  /**
   * Accepts a tool's changed definition; null when none waits. Given the hash of the one the
   * admin reviewed, a definition that changed again since is not accepted: `changed` names the
   * one waiting now.
   */
  async accept(
    workspace: string,
    tool: string,
    by: string,
    reviewed?: string,
  ): Promise<ToolPinRecord | null | { readonly changed: string }> {
    const accepted = await this.parts.store.toolPins.accept(
      workspace,
      tool,
      by,
      this.parts.clock(),
      reviewed,
    );
    if (accepted !== null && !('changed' in accepted))
      await this.parts.changes.record(workspace, 'tool-pin-accepted', by, {
        tool,
        hash: accepted.hash,
      });
    return accepted;
  }
}
