// Why this file exists: rule suggestions (`warden.suggestions`) turn prompts
// approved once, again and again, into proposed rules with their blast
// radius, and accept one as the policy's next revision. That is a capability
// of its own: it reads approvals, decisions and the policy, and writes only
// through the policy capability, so a suggestion's rules pass every check a
// revision does.

import { issueText } from '@warden/engine';
import type { ApprovalBroker } from '../approvals/broker.js';
import type { PastDecision, Suggestion } from '../approvals/suggest.js';
import { suggestRules, suggestedRules } from '../approvals/suggest.js';
import type { PolicySource } from '../gate/snapshot.js';
import { computeMatrix, matrixChanges, matrixColumns } from '../permissions/matrix.js';
import type { PolicyRevision, Store } from '../store/types.js';
import type { Agents } from './agents.js';
import type { PolicyAdmin } from './policy.js';

/** Approvals and decisions a suggestion is computed from, at most. */
const SUGGEST_LIMIT = 5000;

export interface SuggestionWindow {
  readonly sinceMs: number;
  readonly min?: number;
}

export class Suggestions {
  constructor(
    private readonly parts: {
      readonly store: Pick<Store, 'audit'>;
      readonly source: PolicySource;
      readonly clock: () => number;
      readonly approvals: ApprovalBroker;
      readonly agents: Agents;
      readonly policy: PolicyAdmin;
    },
  ) {}

  /**
   * Prompts approved once again and again since `sinceMs`, as suggested
   * rules with their blast radius over the decisions of that time.
   */
  async list(workspace: string, options: SuggestionWindow): Promise<Suggestion[]> {
    const { store, source, clock, approvals: broker, agents } = this.parts;
    const [approvals, entries, snapshot] = await Promise.all([
      broker.list({ workspace, state: 'approved', kind: 'prompt', limit: SUGGEST_LIMIT }),
      store.audit.query({
        workspace,
        kinds: ['decision'],
        sinceMs: options.sinceMs,
        order: 'oldest',
        limit: SUGGEST_LIMIT,
      }),
      source.snapshot(workspace),
    ]);
    // A decision's last entry is its word (after an approval, the approver's outcome).
    const last = new Map<string, (typeof entries)[number]>();
    for (const entry of entries)
      last.set(typeof entry.decisionId === 'string' ? entry.decisionId : String(entry.id), entry);
    const decisions: PastDecision[] = [...last].map(([id, entry]) => ({
      id,
      agent: String(entry.agentId ?? ''),
      tool: typeof entry.tool === 'string' ? entry.tool : null,
      outcome: String(entry.outcome ?? ''),
      // The entry records the request without who asked: the entry says that.
      request:
        entry.request !== null && typeof entry.request === 'object' && !Array.isArray(entry.request)
          ? { ...entry.request, workspace, agent: String(entry.agentId ?? '') }
          : null,
    }));
    const at = clock();
    const known = await agents.known(workspace);
    return suggestRules(
      approvals.filter((a) => Date.parse(a.createdAt) >= options.sinceMs),
      snapshot.compiled,
      decisions,
      {
        at,
        ...(options.min === undefined ? {} : { min: options.min }),
        // The same columns on both sides: the rules' scope may be a column only they name.
        cells: (withRules) => {
          const columns = matrixColumns(withRules, snapshot.managed, known);
          return matrixChanges(
            computeMatrix(snapshot.compiled, snapshot.managed, columns, at),
            computeMatrix(withRules, snapshot.managed, columns, at),
          );
        },
      },
    );
  }

  /**
   * Writes a suggestion's rules into the workspace's policy as its next
   * revision; null when no suggestion of that id stands (any more).
   */
  async accept(
    workspace: string,
    id: string,
    by: string,
    options: SuggestionWindow,
  ): Promise<
    | { readonly ok: true; readonly suggestion: Suggestion; readonly revision: PolicyRevision }
    | { readonly ok: false; readonly problem: string }
    | null
  > {
    const { policy } = this.parts;
    const suggestion = (await this.list(workspace, options)).find((s) => s.id === id);
    if (suggestion === undefined) return null;
    const current = await policy.current(workspace);
    if (current === null) return { ok: false, problem: `no policy is stored for \`${workspace}\`` };
    const document = current.document as { rules?: unknown[] };
    const written = await policy.put(
      { ...document, rules: [...(document.rules ?? []), ...suggestedRules(suggestion)] },
      {
        author: by,
        message: `accepted suggestion ${id}: ${suggestion.approvals} prompts approved once`,
        expected: current.revision,
      },
    );
    if (!written.ok)
      return {
        ok: false,
        problem:
          'conflict' in written
            ? 'another revision was written meanwhile: look at the suggestions again'
            : written.issues.map(issueText).join('; '),
      };
    return { ok: true, suggestion, revision: written.revision };
  }
}
