// Turns "approve for N hours" into stored rules (G23): the drafts the offer
// showed the approver, for the scope picked, with an id, an explicit expiry,
// origin `remembered` and a note saying who approved it and when.

import type { ApprovalRecord, JsonValue, NewStoredRule } from '../store/types.js';

const HOUR_MS = 3_600_000;

export function materialiseRules(
  approval: ApprovalRecord,
  input: { readonly hours?: number; readonly scope?: string },
  by: string,
  at: number,
  newId: () => string,
): NewStoredRule[] {
  const scope = approval.offer?.scopes.find((s) => s.scope === input.scope);
  if (scope === undefined || input.hours === undefined) return [];
  const createdAt = new Date(at).toISOString();
  const expiresAt = new Date(at + input.hours * HOUR_MS).toISOString();
  return scope.rules.map((draft) => {
    const id = `rem-${newId().toLowerCase()}`;
    const rule: { [key: string]: JsonValue } = {
      id,
      ...(JSON.parse(JSON.stringify(draft)) as { [key: string]: JsonValue }),
      origin: 'remembered',
      expiresAt,
      note: `approved by ${by} for ${input.hours} h (approval ${approval.id})`,
    };
    return {
      id,
      workspace: approval.workspace,
      rule,
      scope: scope.scope,
      origin: 'remembered',
      createdAt,
      createdBy: by,
      expiresAt,
      approvalId: approval.id,
    };
  });
}
