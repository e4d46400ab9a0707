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
