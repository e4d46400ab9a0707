// The permissions of a workspace as decisions read them now, and what a
// proposed document would change: read from the very policy snapshot decisions
// read (the document, its live remembered rules, the managed layer). A
// proposed document (a rule being written, a template being previewed) is
// computed the same way and compared cell by cell with the current one.

import type { Issue, LintWarning, Policy } from '@warden/engine';
import { checkExamples, compilePolicy, lintPolicy, validatePolicy } from '@warden/engine';
import { addStoredRules } from '../gate/snapshot.js';
import type { PolicySnapshot } from '../gate/snapshot.js';
import type { PolicyRevision } from '../store/types.js';
import type { KnownAgent, Warden } from '../warden.js';
import type { CellChange, Matrix, MatrixColumn, RuleEntry } from './matrix.js';
import {
  computeMatrix,
  documentPathsOf,
  matrixChanges,
  matrixColumns,
  ruleChanges,
  ruleEntries,
  warningKey,
} from './matrix.js';

export interface PermissionsView {
  readonly at: number;
  readonly snapshot: PolicySnapshot;
  /** The stored revision the snapshot was built from. */
  readonly revision: PolicyRevision;
  readonly known: readonly KnownAgent[];
  readonly columns: readonly MatrixColumn[];
  readonly matrix: Matrix;
  readonly rules: readonly RuleEntry[];
}

export interface Proposal {
  readonly workspace: string;
  /** The revision the proposal is compared with. */
  readonly revision: number;
  readonly changes: readonly CellChange[];
  readonly rules: ReturnType<typeof ruleChanges>;
  /** Only what the change adds: the current policy's own warnings are on the matrix. */
  readonly warnings: readonly LintWarning[];
}

/** The snapshot decisions read now, and the stored revision it was built from; null: no policy is stored. */
async function current(
  warden: Warden,
  workspace: string,
): Promise<{ snapshot: PolicySnapshot; revision: PolicyRevision; document: Policy } | null> {
  const stored = await warden.store.policies.current(workspace);
  if (stored === null) return null;
  const snapshot = await warden.gate.snapshot(workspace);
  const revision =
    snapshot.revision === null || snapshot.revision === stored.revision
      ? stored
      : ((await warden.store.policies.revision(workspace, snapshot.revision)) ?? stored);
  const validated = validatePolicy(revision.document, 'workspace');
  // The snapshot was compiled from this document, so it is valid; should it not be, the matrix still reads the snapshot.
  const document = validated.ok ? validated.value : snapshot.compiled.policy;
  return { snapshot, revision, document };
}

/** The matrix and the rules of a workspace at `at`; null: no policy is stored for it. */
export async function permissionsView(
  warden: Warden,
  workspace: string,
  at: number,
): Promise<PermissionsView | null> {
  const now = await current(warden, workspace);
  if (now === null) return null;
  const { snapshot, revision, document } = now;
  const known = await warden.knownAgents(workspace);
  const columns = matrixColumns(snapshot.compiled, snapshot.managed, known);
  const matrix = computeMatrix(snapshot.compiled, snapshot.managed, columns, at);
  const rules = ruleEntries(snapshot.compiled, snapshot.managed, documentPathsOf(document), at);
  return { at, snapshot, revision, known, columns, matrix, rules };
}

export type ProposalResult =
  | { readonly ok: true; readonly proposal: Proposal }
  /** The proposed document's problems, their paths into it. */
  | { readonly ok: false; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly missing: true };

/** The matrix a proposed document would give, compared with the current one; nothing is written. */
export async function proposePolicy(
  warden: Warden,
  workspace: string,
  proposed: unknown,
  at: number,
): Promise<ProposalResult> {
  const validated = validatePolicy(proposed, 'workspace');
  if (!validated.ok) return validated;
  if (validated.value.workspace !== workspace)
    return {
      ok: false,
      issues: [
        {
          code: 'invalid_value',
          path: ['workspace'],
          message: `the document is the policy of \`${validated.value.workspace ?? ''}\`, not of \`${workspace}\``,
        },
      ],
    };
  // A rule's examples are checked as the policy would be on saving it: a preview shows the misfits.
  const wrong = checkExamples(compilePolicy(validated.value), { at });
  if (wrong.length > 0) return { ok: false, issues: wrong };
  const now = await permissionsView(warden, workspace, at);
  if (now === null) return { ok: false, missing: true };
  const stored = await warden.store.rules.list(workspace, { at: now.at });
  const { policy } = addStoredRules(validated.value, stored);
  const compiled = compilePolicy(policy);
  const known = new Set(lintPolicy(now.snapshot.compiled.policy, now.at).map(warningKey));
  const columns = matrixColumns(compiled, now.snapshot.managed, now.known);
  const matrix = computeMatrix(compiled, now.snapshot.managed, columns, now.at);
  const rules = ruleEntries(
    compiled,
    now.snapshot.managed,
    documentPathsOf(validated.value),
    now.at,
  );
  return {
    ok: true,
    proposal: {
      workspace,
      revision: now.revision.revision,
      changes: matrixChanges(now.matrix, matrix),
      rules: ruleChanges(now.rules, rules),
      warnings: lintPolicy(policy, now.at).filter((w) => !known.has(warningKey(w))),
    },
  };
}
