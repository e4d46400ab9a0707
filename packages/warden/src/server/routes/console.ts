// What the web console needs beyond the other routes: views computed on the
// server from the same engine the agents get their answers from.
//
// The permissions matrix (G20): for every action class and every scope — the
// workspace, each agent, each space, each mode preset — what a request of that
// class gets there, with the rule that decides it, read from the very policy
// snapshot decisions read (the document, its live remembered rules, the
// managed layer). A proposed document (a rule being written, a template being
// previewed) is computed the same way and compared cell by cell with the
// current one, so the page can say what a change does before it is saved.

import type {
  ActionClass,
  CompiledPolicy,
  Decision,
  Enumeration,
  LintWarning,
  Policy,
  RuleRef,
} from '@warden/engine';
import {
  ACTION_CLASSES,
  allRules,
  canonicalJson,
  classInfo,
  compilePolicy,
  enumerate,
  lintPolicy,
  validatePolicy,
} from '@warden/engine';
import { z } from 'zod';
import { addStoredRules } from '../../gate/snapshot.js';
import type { PolicySnapshot } from '../../gate/snapshot.js';
import type { JsonValue, PolicyRevision } from '../../store/types.js';
import { TEMPLATES, applyTemplate } from '../../templates/index.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { AUTONOMY_MEANING, ruleFacts } from './policy.js';

/** An agent id no policy can name (ids hold no control characters): "an agent with no rules of its own". */
const NOBODY = '\u0000any agent';

export type ColumnKind = 'workspace' | 'agent' | 'space' | 'mode';

export interface MatrixColumn {
  readonly scope: string;
  readonly kind: ColumnKind;
  readonly id: string | null;
  /** What the column answers, in words. */
  readonly label: string;
  /** Spaces: the dial as set (null: unset) and as it acts. */
  readonly autonomy?: string | null;
  readonly effectiveAutonomy?: string;
  readonly autonomyMeaning?: string;
  /** Modes: the command net's final deny entries (G15). */
  readonly commandNet?: readonly string[];
}

export interface MatrixCell {
  /** The column's scope. */
  readonly scope: string;
  /** Before the autonomy dial. */
  readonly decision: Decision;
  /** After the autonomy dial: what the class gets here when no constrained rule applies. */
  readonly effective: Decision;
  readonly rule: string;
  /** The scope of the deciding rule (`default`, `managed:<scope>`, or a scope of the chain). */
  readonly decidedIn: string;
  /** Whether the deciding rule lives in a wider scope than the column's. */
  readonly inherited: boolean;
  readonly managed: boolean;
  /** Constrained rules that decide instead when their conditions hold. */
  readonly exceptions: readonly RuleRef[];
  /** Ids of the workspace's rules for this class written in exactly this scope (any kind). */
  readonly rules: readonly string[];
  /** Ids of the managed layer's rules for this class in exactly this scope. */
  readonly managedRules: readonly string[];
}

export interface MatrixRow {
  readonly class: ActionClass;
  readonly covers: string;
  readonly default: Decision;
  readonly cells: readonly MatrixCell[];
}

export interface RuleEntry {
  readonly id: string;
  readonly scope: string;
  readonly action?: string;
  readonly command?: string;
  readonly decision: Decision;
  readonly enforcement: string;
  readonly when?: unknown;
  readonly origin: string;
  readonly expiresAt: string | null;
  readonly expired: boolean;
  readonly note?: string;
  readonly sentence: string;
  readonly layer: 'workspace' | 'managed';
  /** Where the rule stands in the document (`rules[3]`, `modes.review.preset[0]`); null when not in it. */
  readonly path: string | null;
  /** A remembered rule, kept beside the document, revocable until it expires (G23). */
  readonly revocable: boolean;
  readonly readOnly: boolean;
}

export interface Matrix {
  readonly columns: readonly MatrixColumn[];
  readonly rows: readonly MatrixRow[];
}

function enumerationOf(
  compiled: CompiledPolicy,
  managed: CompiledPolicy | null,
  column: MatrixColumn,
  at: number,
): Enumeration {
  const base = { policy: compiled, managed, at };
  switch (column.kind) {
    case 'agent':
      return enumerate({ ...base, agent: column.id as string });
    case 'space':
      return enumerate({ ...base, agent: NOBODY, space: column.id as string });
    case 'mode':
      return enumerate({ ...base, agent: NOBODY, mode: column.id as string });
    case 'workspace':
      return enumerate({ ...base, agent: NOBODY });
  }
}

function sorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}

/** The ids a scope string names, by kind, over every rule of the given policies. */
function scopeIds(policies: readonly Policy[], kind: 'agent' | 'space'): string[] {
  const out: string[] = [];
  for (const policy of policies)
    for (const rule of allRules(policy))
      if (rule.scope.startsWith(`${kind}:`)) out.push(rule.scope.slice(kind.length + 1));
  return out;
}

/** The matrix's columns: the workspace, each agent, each space, each mode preset. */
export function matrixColumns(
  compiled: CompiledPolicy,
  managed: CompiledPolicy | null,
  known: readonly { readonly id: string; readonly space: string | null }[],
): MatrixColumn[] {
  const policy = compiled.policy;
  const layers = managed === null ? [policy] : [policy, managed.policy];
  const agents = sorted([...scopeIds(layers, 'agent'), ...known.map((a) => a.id)]);
  const spaces = sorted([
    ...Object.keys(policy.spaces),
    ...scopeIds(layers, 'space'),
    ...known.flatMap((a) => (a.space === null ? [] : [a.space])),
  ]);
  const columns: MatrixColumn[] = [
    {
      scope: 'workspace',
      kind: 'workspace',
      id: null,
      label: 'any agent, with no rules of its own, in no space and no mode',
    },
  ];
  for (const id of agents)
    columns.push({
      scope: `agent:${id}`,
      kind: 'agent',
      id,
      label: `agent \`${id}\`, in no space and no mode`,
    });
  for (const id of spaces) {
    const autonomy = compiled.autonomy.get(id) ?? null;
    const effectiveAutonomy = autonomy ?? 'actWithApproval';
    columns.push({
      scope: `space:${id}`,
      kind: 'space',
      id,
      label: `an agent with no rules of its own, in space \`${id}\` (autonomy ${effectiveAutonomy})`,
      autonomy,
      effectiveAutonomy,
      autonomyMeaning: AUTONOMY_MEANING[effectiveAutonomy] as string,
    });
  }
  for (const id of Object.keys(policy.modes).sort((a, b) => a.localeCompare(b)))
    columns.push({
      scope: `mode:${id}`,
      kind: 'mode',
      id,
      label: `an agent with no rules of its own, in mode \`${id}\``,
      commandNet: compiled.nets.get(id)?.map((n) => n.entry) ?? [],
    });
  return columns;
}

/** Every cell of the matrix, from the engine's enumeration of each column (G20). */
export function computeMatrix(
  compiled: CompiledPolicy,
  managed: CompiledPolicy | null,
  columns: readonly MatrixColumn[],
  at: number,
): Matrix {
  const own = allRules(compiled.policy);
  const pinned = managed === null ? [] : allRules(managed.policy);
  const enumerations = columns.map((column) => enumerationOf(compiled, managed, column, at));
  const rows = ACTION_CLASSES.map((cls, index) => ({
    class: cls,
    covers: classInfo(cls).covers,
    default: classInfo(cls).defaultDecision,
    cells: columns.map((column, c) => {
      const permission = (enumerations[c] as Enumeration).classes[index];
      if (permission === undefined || permission.class !== cls)
        throw new Error(`the enumeration does not list class ${cls} in place ${index}`);
      const managedHere = permission.scope.startsWith('managed:');
      return {
        scope: column.scope,
        decision: permission.decision,
        effective: permission.effective,
        rule: permission.rule,
        decidedIn: permission.scope,
        inherited:
          permission.scope !== column.scope && permission.scope !== `managed:${column.scope}`,
        managed: managedHere,
        exceptions: permission.exceptions,
        rules: own.filter((r) => r.action === cls && r.scope === column.scope).map((r) => r.id),
        managedRules: pinned
          .filter((r) => r.action === cls && r.scope === column.scope)
          .map((r) => r.id),
      };
    }),
  }));
  return { columns, rows };
}

/** Every rule decisions read, each as its sentence with origin and expiry; managed ones read-only (G19, G23, G29). */
export function ruleEntries(
  compiled: CompiledPolicy,
  managed: CompiledPolicy | null,
  documentPaths: ReadonlyMap<string, string>,
  at: number,
): RuleEntry[] {
  const workspace = compiled.policy.workspace;
  const entry = (rule: Policy['rules'][number], layer: 'workspace' | 'managed'): RuleEntry => {
    const inDocument = layer === 'workspace' && documentPaths.has(rule.id);
    return {
      ...ruleFacts(rule, workspace, layer),
      expired: rule.expiresAtMs !== undefined && at >= rule.expiresAtMs,
      path: inDocument ? (documentPaths.get(rule.id) as string) : null,
      revocable: layer === 'workspace' && !inDocument,
    };
  };
  return [
    ...allRules(compiled.policy).map((r) => entry(r, 'workspace')),
    ...(managed === null ? [] : allRules(managed.policy).map((r) => entry(r, 'managed'))),
  ];
}

export interface CellChange {
  readonly class: ActionClass;
  readonly scope: string;
  readonly before: Pick<MatrixCell, 'decision' | 'effective' | 'rule' | 'decidedIn'> | null;
  readonly after: Pick<MatrixCell, 'decision' | 'effective' | 'rule' | 'decidedIn'> | null;
}

const brief = (cell: MatrixCell | undefined) =>
  cell === undefined
    ? null
    : {
        decision: cell.decision,
        effective: cell.effective,
        rule: cell.rule,
        decidedIn: cell.decidedIn,
      };

/** The cells whose decision or deciding rule differ between two matrices. */
export function matrixChanges(before: Matrix, after: Matrix): CellChange[] {
  const index = (m: Matrix) => {
    const cells = new Map<string, MatrixCell>();
    for (const row of m.rows)
      for (const cell of row.cells) cells.set(`${row.class} ${cell.scope}`, cell);
    return cells;
  };
  const was = index(before);
  const now = index(after);
  const changes: CellChange[] = [];
  for (const cls of ACTION_CLASSES) {
    const scopes = sorted([...after.columns, ...before.columns].map((c) => c.scope));
    for (const scope of scopes) {
      const a = was.get(`${cls} ${scope}`);
      const b = now.get(`${cls} ${scope}`);
      const same =
        a !== undefined &&
        b !== undefined &&
        a.decision === b.decision &&
        a.effective === b.effective &&
        a.rule === b.rule &&
        a.decidedIn === b.decidedIn;
      if (!same) changes.push({ class: cls, scope, before: brief(a), after: brief(b) });
    }
  }
  return changes;
}

/** The rules added, changed and removed between two lists, by id and layer. */
export function ruleChanges(before: readonly RuleEntry[], after: readonly RuleEntry[]) {
  const key = (r: RuleEntry) => `${r.layer} ${r.id}`;
  const shape = (r: RuleEntry) => canonicalJson({ ...r, path: null } as unknown as JsonValue);
  const was = new Map(before.map((r) => [key(r), r]));
  const now = new Map(after.map((r) => [key(r), r]));
  return {
    added: after.filter((r) => !was.has(key(r))),
    changed: after
      .filter((r) => was.has(key(r)) && shape(was.get(key(r)) as RuleEntry) !== shape(r))
      .map((r) => ({ before: was.get(key(r)) as RuleEntry, after: r })),
    removed: before.filter((r) => !now.has(key(r))),
  };
}

const warningKey = (w: LintWarning) => `${w.code} ${w.rule} ${w.message}`;

/** `rule id → its place in the document`, for the rules the document itself holds. */
function documentPathsOf(policy: Policy): Map<string, string> {
  return new Map(allRules(policy).map((r) => [r.id, r.path]));
}

const templateArgs = z.strictObject({
  workspace: z.string().optional(),
  scope: z.string().optional().describe('`workspace` (default), `agent:<id>` or `space:<id>`'),
  enforcement: z.enum(['hard', 'soft', 'advisory']).optional(),
  params: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
});

export function consoleRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  /** The snapshot decisions read now, and the stored revision it was built from. */
  const current = async (
    workspace: string,
  ): Promise<{ snapshot: PolicySnapshot; revision: PolicyRevision; document: Policy }> => {
    const stored = await warden.store.policies.current(workspace);
    if (stored === null) throw notFound(`no policy is stored for workspace \`${workspace}\``);
    const snapshot = await warden.gate.snapshot(workspace);
    const revision =
      snapshot.revision === null || snapshot.revision === stored.revision
        ? stored
        : ((await warden.store.policies.revision(workspace, snapshot.revision)) ?? stored);
    const validated = validatePolicy(revision.document, 'workspace');
    // The snapshot was compiled from this document, so it is valid; should it not be, the matrix still reads the snapshot.
    const document = validated.ok ? validated.value : snapshot.compiled.policy;
    return { snapshot, revision, document };
  };

  const view = async (workspace: string) => {
    const at = ctx.clock();
    const { snapshot, revision, document } = await current(workspace);
    const known = await warden.store.agents.list(workspace);
    const columns = matrixColumns(snapshot.compiled, snapshot.managed, known);
    const matrix = computeMatrix(snapshot.compiled, snapshot.managed, columns, at);
    const rules = ruleEntries(snapshot.compiled, snapshot.managed, documentPathsOf(document), at);
    return { at, snapshot, revision, known, columns, matrix, rules };
  };

  /** The matrix a proposed document would give, compared with the current one. */
  const proposal = async (workspace: string, proposed: unknown, path: string) => {
    const validated = validatePolicy(proposed, 'workspace');
    if (!validated.ok)
      throw invalid(
        validated.issues.map((i) => ({
          path: `${path}${i.path === '' ? '' : `.${i.path}`}`,
          message: i.message,
        })),
      );
    if (validated.value.workspace !== workspace)
      throw invalid([
        {
          path: `${path}.workspace`,
          message: `the document is the policy of \`${validated.value.workspace ?? ''}\`, not of \`${workspace}\``,
        },
      ]);
    const now = await view(workspace);
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
      workspace,
      revision: now.revision.revision,
      changes: matrixChanges(now.matrix, matrix),
      rules: ruleChanges(now.rules, rules),
      // Only what the change adds: the current policy's own warnings are on the matrix.
      warnings: lintPolicy(policy, now.at).filter((w) => !known.has(warningKey(w))),
    };
  };

  api.add({
    method: 'get',
    path: '/v1/permissions/matrix',
    summary:
      'The permissions matrix: per action class and scope (workspace, each agent, space, mode) the effective decision and the deciding rule (G20)',
    permission: 'read',
    query: z.strictObject({ workspace: z.string().optional() }),
    responses: {
      200: '`{ workspace, revision, columns, rows, rules, managed, document }`',
      400: 'which workspace is not said',
      403: 'another workspace',
      404: 'no policy is stored for the workspace',
    },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const v = await view(workspace);
      return {
        workspace,
        at: new Date(v.at).toISOString(),
        revision: {
          revision: v.revision.revision,
          hash: v.revision.hash,
          author: v.revision.author,
          message: v.revision.message,
          createdAt: v.revision.createdAt,
        },
        classes: ACTION_CLASSES.map((cls) => ({
          class: cls,
          covers: classInfo(cls).covers,
          default: classInfo(cls).defaultDecision,
        })),
        columns: v.columns,
        rows: v.matrix.rows,
        rules: v.rules,
        agents: v.known.map((a) => ({ id: a.id, name: a.name, space: a.space })),
        modes: Object.keys(v.snapshot.compiled.policy.modes).sort((a, b) => a.localeCompare(b)),
        managed: {
          loaded: v.snapshot.managed !== null,
          source: v.snapshot.managedSource,
          file: warden.managedFile?.file ?? null,
          readOnly: true,
        },
        skipped: v.snapshot.skipped,
        warnings: lintPolicy(v.snapshot.compiled.policy, v.at),
        document: v.revision.document,
      };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/permissions/preview',
    summary:
      'What a proposed policy document would change: the matrix cells, the rules (each as its sentence) and lint warnings; nothing is written',
    permission: 'read',
    body: z.strictObject({
      workspace: z.string().optional(),
      document: z.unknown().describe('the proposed policy document (contracts §1)'),
    }),
    responses: {
      200: '`{ revision, changes, rules: { added, changed, removed }, warnings }`',
      404: 'no policy is stored for the workspace',
      422: 'the document is not valid',
    },
    handler: async ({ identity, body }) => {
      const asked =
        body.workspace ??
        ((body.document as { workspace?: unknown } | null)?.workspace as string | undefined);
      const workspace = await workspaceOf(
        ctx,
        identity,
        typeof asked === 'string' ? asked : undefined,
      );
      return proposal(workspace, body.document, 'document');
    },
  });

  api.add({
    method: 'post',
    path: '/v1/permissions/templates/:name/preview',
    summary:
      'What applying a template would change: the rules it adds, each as its sentence, and the matrix cells that change; nothing is written',
    permission: 'read',
    body: templateArgs,
    responses: {
      200: '`{ template, revision, changes, rules: { added, changed, removed }, warnings }`',
      404: 'no such template, or no policy',
      422: 'the arguments do not fit',
    },
    handler: async ({ identity, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, body.workspace);
      const name = params.name as string;
      if (!TEMPLATES.some((t) => t.name === name)) throw notFound(`no template \`${name}\``);
      const stored = await warden.store.policies.current(workspace);
      if (stored === null) throw notFound(`no policy is stored for workspace \`${workspace}\``);
      const applied = applyTemplate(stored.document, name, {
        ...(body.scope === undefined ? {} : { scope: body.scope }),
        ...(body.enforcement === undefined ? {} : { enforcement: body.enforcement }),
        ...(body.params === undefined ? {} : { params: body.params }),
      });
      if (!applied.ok) throw invalid(applied.problems);
      return { template: name, ...(await proposal(workspace, applied.document, 'document')) };
    },
  });
}
