// Audit entries as JSON Lines (contracts §6): reading a file for `verify` and
// `import`, and turning an exported entry back into a draft to re-chain.

import type { ChainItem } from './chain.js';
import { bodyOf } from './chain.js';
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

/** An exported entry as a draft for this log; the problem when it is not an audit entry. */
export function draftFromEntry(entry: {
  readonly [key: string]: unknown;
}): AuditDraft | { problem: string } {
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
  return {
    id,
    kind: kind as AuditKind,
    workspace: str(entry.workspace),
    agentId: str(entry.agentId),
    runId: str(entry.runId),
    callId: str(entry.callId),
    decisionId: str(entry.decisionId),
    tool: str(entry.tool),
    status: status as AuditStatus | null,
    occurredAt,
    body: bodyOf(entry) as { [key: string]: JsonValue },
  };
}
