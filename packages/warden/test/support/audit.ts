// Audit entries for tests that write to a store's audit log directly and read
// its chain back.

import type { ChainItem } from '../../src/audit/chain.js';
import type { AuditDraft, Store } from '../../src/store/types.js';

/** A call entry as an older Warden (or the library) could write it: call `c-<i>` of coder-1 in acme, `Ok`. */
export function callDraft(
  i: number,
  id: string,
  occurredAt: string,
  tool = 'git_commit',
): AuditDraft {
  return {
    id,
    kind: 'call',
    workspace: 'acme',
    agentId: 'coder-1',
    runId: null,
    callId: `c-${i}`,
    decisionId: null,
    tool,
    status: 'Ok',
    occurredAt,
    body: {
      id,
      kind: 'call',
      workspace: 'acme',
      agentId: 'coder-1',
      callId: `c-${i}`,
      tool,
      status: 'Ok',
      occurredAt,
    },
  };
}

/** The store's audit log as `verifyChain` reads it, oldest first. */
export async function chainItems(store: Store): Promise<ChainItem[]> {
  const out: ChainItem[] = [];
  for await (const { seq, entry, columns } of store.audit.scan())
    out.push({ entry, position: seq, columns });
  return out;
}

/** What `endings` reads of an audit entry. */
export interface EndingEntry {
  readonly kind: string;
  readonly id?: string;
  readonly decisionId?: string | null;
  readonly outcome?: string;
  readonly status?: string;
  readonly tool?: string | null;
  readonly arguments?: unknown;
}

/**
 * How each decided call ended, by the decision's outcome and the statuses
 * recorded against it (a decision's first entry carries its id as `id`), and
 * the calls recorded with no decision: the audit a supervisor reads to see
 * that every call is accounted for.
 */
export function endings(entries: readonly EndingEntry[]): {
  readonly decided: [outcome: string | undefined, statuses: (string | undefined)[]][];
  readonly undecided: EndingEntry[];
} {
  const calls = entries.filter((e) => e.kind === 'call' && e.status !== 'Staged');
  const decided: [string | undefined, (string | undefined)[]][] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    if (e.kind !== 'decision') continue;
    const id = e.decisionId ?? e.id;
    if (id === undefined || id === null || seen.has(id)) continue;
    seen.add(id);
    decided.push([e.outcome, calls.filter((c) => c.decisionId === id).map((c) => c.status)]);
  }
  return { decided, undecided: calls.filter((c) => c.decisionId === null) };
}
