// The permissions matrix (G20): for every action class and every scope — the
// workspace, each agent, each space, each mode preset — what a request of that
// class gets there, with the rule that decides it, and the rules decisions read,
// each as its sentence. Pure: compiled policies in, matrix out; comparing two
// matrices says what a change does before it is saved.

import type {
  ActionClass,
  Autonomy,
  CompiledPolicy,
  Constraints,
  Decision,
  Enforcement,
  Enumeration,
  LintWarning,
  Origin,
  Policy,
  RuleRef,
} from '@warden/engine';
import { ACTION_CLASSES, allRules, canonicalJson, classInfo, enumerate } from '@warden/engine';
import type { JsonValue } from '../store/types.js';
import { AUTONOMY_MEANING, effectiveAutonomy, ruleFacts } from './rules.js';

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
  readonly autonomy?: Autonomy | null;
  readonly effectiveAutonomy?: Autonomy;
  readonly autonomyMeaning?: string;
  /** Modes: the command net's final deny entries (G15). */
  readonly commandNet?: readonly string[];
  /** Agents: the space and the mode it is registered in, where its calls are decided (null: none). */
  readonly space?: string | null;
  readonly mode?: string | null;
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
  readonly action?: ActionClass;
  readonly command?: string;
  readonly decision: Decision;
  readonly enforcement: Enforcement;
  readonly when?: Constraints;
  readonly origin: Origin;
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
      // As its calls are decided: in the space and the mode it is registered in (contracts §8).
      return enumerate({
        ...base,
        agent: column.id as string,
        ...(column.space === null || column.space === undefined ? {} : { space: column.space }),
        ...(column.mode === null || column.mode === undefined ? {} : { mode: column.mode }),
      });
    case 'space':
      return enumerate({ ...base, agent: NOBODY, space: column.id as string });
    case 'mode':
      return enumerate({ ...base, agent: NOBODY, mode: column.id as string });
    case 'workspace':
      return enumerate({ ...base, agent: NOBODY });
  }
}

/** Natural order: `space-2` before `space-10`. */
const NATURAL = new Intl.Collator('en', { numeric: true });

function sorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(NATURAL.compare);
}

/** The ids a scope string names, by kind, over every rule of the given policies. */
function scopeIds(policies: readonly Policy[], kind: 'agent' | 'space'): string[] {
  const out: string[] = [];
  for (const policy of policies)
    for (const rule of allRules(policy))
      if (rule.scope.startsWith(`${kind}:`)) out.push(rule.scope.slice(kind.length + 1));
  return out;
}

/** Where an agent acts, in words: `in space \`infra\` and mode \`review\``. */
function placementWords(space: string | null, mode: string | null): string {
  if (space === null && mode === null) return 'in no space and no mode';
  if (mode === null) return `in space \`${space as string}\` and no mode`;
  if (space === null) return `in no space and mode \`${mode}\``;
  return `in space \`${space}\` and mode \`${mode}\``;
}

/**
 * The matrix's columns: the workspace, each agent (decided where it is
 * registered, as its calls are), each space, each mode preset.
 */
export function matrixColumns(
  compiled: CompiledPolicy,
  managed: CompiledPolicy | null,
  known: readonly {
    readonly id: string;
    readonly space: string | null;
    readonly mode?: string | null;
  }[],
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
  const placed = new Map(known.map((a) => [a.id, a]));
  for (const id of agents) {
    const space = placed.get(id)?.space ?? null;
    const mode = placed.get(id)?.mode ?? null;
    columns.push({
      scope: `agent:${id}`,
      kind: 'agent',
      id,
      label: `agent \`${id}\`, ${placementWords(space, mode)}`,
      space,
      mode,
    });
  }
  for (const id of spaces) {
    const autonomy = compiled.autonomy.get(id) ?? null;
    const effective = effectiveAutonomy(autonomy);
    columns.push({
      scope: `space:${id}`,
      kind: 'space',
      id,
      label: `an agent with no rules of its own, in space \`${id}\` (autonomy ${effective})`,
      autonomy,
      effectiveAutonomy: effective,
      autonomyMeaning: AUTONOMY_MEANING[effective] as string,
    });
  }
  for (const id of Object.keys(policy.modes).sort(NATURAL.compare))
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

export const warningKey = (w: LintWarning) => `${w.code} ${w.rule} ${w.message}`;

/** `rule id → its place in the document`, for the rules the document itself holds. */
export function documentPathsOf(policy: Policy): Map<string, string> {
  return new Map(allRules(policy).map((r) => [r.id, r.path]));
}
