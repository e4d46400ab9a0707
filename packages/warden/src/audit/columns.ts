// The columns an audit entry is indexed by, read from the entry itself. Every
// entry Warden builds names its id, kind, identity, call, decision, tool,
// status and time in its body; the store indexes those, and `verify` checks
// that the index still says what the hashed entry says.

import type { JsonValue } from '../store/types.js';
import { storableText } from '../well-formed.js';

export interface EntryColumns {
  readonly id: string;
  readonly kind: string;
  readonly workspace: string | null;
  readonly agent_id: string | null;
  readonly run_id: string | null;
  readonly call_id: string | null;
  readonly decision_id: string | null;
  readonly tool: string | null;
  readonly status: string | null;
  readonly occurred_at_ms: number;
}

export const ENTRY_COLUMNS = [
  'id',
  'kind',
  'workspace',
  'agent_id',
  'run_id',
  'call_id',
  'decision_id',
  'tool',
  'status',
  'occurred_at_ms',
] as const satisfies readonly (keyof EntryColumns)[];

/**
 * A body's own value for a column, as a row holds it: a string with a lone
 * surrogate cannot be stored as it is (a database writes U+FFFD for it), so
 * the column holds, and is compared as, its well-formed form. The body itself
 * is hashed as canonical JSON, which escapes the surrogate, so its hash is
 * the same when written and when read back.
 */
function field(body: { readonly [key: string]: JsonValue }, key: string): JsonValue {
  const value = body[key] ?? null;
  return typeof value === 'string' ? storableText(value) : value;
}

/**
 * The columns a body names itself: every entry Warden builds carries its
 * id, kind, identity, call, decision, tool, status and time in its body.
 */
export function columnsOfBody(body: { readonly [key: string]: JsonValue }): EntryColumns {
  const kind = (body.kind ?? 'call') as string;
  return {
    id: (typeof body.id === 'string' ? storableText(body.id) : body.id) as string,
    kind,
    workspace: field(body, 'workspace') as string | null,
    agent_id: field(body, 'agentId') as string | null,
    run_id: field(body, 'runId') as string | null,
    call_id: field(body, 'callId') as string | null,
    decision_id: field(
      body,
      body.decisionId != null ? 'decisionId' : kind === 'decision' ? 'id' : 'decisionId',
    ) as string | null,
    tool: field(body, 'tool') as string | null,
    status: field(body, 'status') as string | null,
    occurred_at_ms: Date.parse(body.occurredAt as string),
  };
}

/** The first column whose stored value differs from what the entry says, or null. */
export function columnDrift(
  stored: { readonly [K in keyof EntryColumns]?: unknown },
  body: { readonly [key: string]: JsonValue },
): { column: keyof EntryColumns; stored: unknown; entry: unknown } | null {
  const expected = columnsOfBody(body);
  for (const column of ENTRY_COLUMNS) {
    const value = stored[column];
    const want = expected[column];
    const same = column === 'occurred_at_ms' ? Number(value) === want : (value ?? null) === want;
    if (!same) return { column, stored: value ?? null, entry: want };
  }
  return null;
}
