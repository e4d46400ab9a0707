// Audit entries as JSON Lines (contracts §6): reading a file for `verify` and
// `import`, and turning an exported entry back into a draft to re-chain.

import type { ChainItem } from './chain.js';
import { bodyOf } from './chain.js';
import { columnsOfBody } from './columns.js';
import type { AuditDraft, AuditKind, AuditStatus, JsonValue } from '../store/types.js';
import { AUDIT_KINDS, AUDIT_STATUSES } from '../store/types.js';

/** Each non-empty line as a chain item, numbered by its line. */
export function jsonlItems(text: string): ChainItem[] {
  const items: ChainItem[] = [];
  const lines = text.split('\n');
  let position = 0;
  lines.forEach((line, index) => {
    if (line.trim() === '' && index === lines.length - 1) return;
    position += 1;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        items.push({ entry: null, position, problem: `line ${index + 1} is not a JSON object` });
      } else {
        items.push({ entry: parsed as { [key: string]: unknown }, position });
      }
    } catch (error) {
      items.push({
        entry: null,
        position,
        problem: `line ${index + 1} is not JSON: ${(error as Error).message}`,
      });
    }
  });
  return items;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Where an imported entry came from: it keeps its original place in its original chain. */
export interface ImportMark {
  readonly file: string;
  readonly position: number;
  readonly hash: string;
  readonly prevHash: string;
  readonly at: string;
}

/**
 * An exported entry as a draft for this log; the problem when it is not an
 * audit entry. With a mark, the entry says it was imported and from where:
 * this log vouches for the copy, the file for the original.
 */
export function draftFromEntry(
  entry: { readonly [key: string]: unknown },
  mark?: ImportMark,
): AuditDraft | { problem: string } {
  const draft = plainDraft(entry);
  if ('problem' in draft || mark === undefined) return draft;
  return { ...draft, body: { ...draft.body, imported: { ...mark } } };
}

const TEXT_FIELDS = ['workspace', 'agentId', 'runId', 'callId', 'decisionId', 'tool'] as const;

function plainDraft(entry: { readonly [key: string]: unknown }): AuditDraft | { problem: string } {
  const id = str(entry.id);
  if (id === null || id === '') return { problem: 'it has no `id`' };
  const occurredAt = str(entry.occurredAt);
  if (occurredAt === null || Number.isNaN(Date.parse(occurredAt)))
    return { problem: `entry \`${id}\` has no valid \`occurredAt\`` };
  const kind = entry.kind === undefined ? 'call' : entry.kind;
  if (!(AUDIT_KINDS as readonly unknown[]).includes(kind))
    return { problem: `entry \`${id}\` has an unknown \`kind\` \`${String(kind)}\`` };
  const status = entry.status ?? null;
  if (status !== null && !(AUDIT_STATUSES as readonly unknown[]).includes(status))
    return { problem: `entry \`${id}\` has an unknown \`status\` \`${String(status)}\`` };
  const wrong = TEXT_FIELDS.find(
    (f) => entry[f] !== undefined && entry[f] !== null && typeof entry[f] !== 'string',
  );
  if (wrong !== undefined)
    return { problem: `entry \`${id}\` has a \`${wrong}\` that is not text` };
  const body = bodyOf(entry) as { [key: string]: JsonValue };
  // The columns are the entry's own, read the one way the store and `verify` read them.
  const columns = columnsOfBody(body);
  return {
    id,
    kind: kind as AuditKind,
    workspace: columns.workspace,
    agentId: columns.agent_id,
    runId: columns.run_id,
    callId: columns.call_id,
    decisionId: columns.decision_id,
    tool: columns.tool,
    status: status as AuditStatus | null,
    occurredAt,
    body,
  };
}
