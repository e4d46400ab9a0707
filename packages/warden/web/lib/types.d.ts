// The types the console's modules name in JSDoc
// (`@param {import('../lib/types.js').ApprovalView} a`). The API's answers
// are not written here: they are the types of the schemas the server declares
// its answers with (`src/views/`, read from their compiled declarations in
// `dist/`, which `npm run typecheck` builds first). What is left here is the
// console's own: the DOM helper, page wiring, and the documents it edits.
// Types only — the browser never loads this file.

// ---- the DOM helper (`lib/dom.js`)

/**
 * What `h` puts inside an element: text, numbers, nodes, arrays of them;
 * `null`, `undefined` and `false` are skipped.
 */
export type Child = string | number | Node | null | undefined | false | readonly Child[];

/** `on<event>` handlers, typed by the event's name: `onsubmit` gets a `SubmitEvent`. */
export type Handlers = {
  [E in keyof HTMLElementEventMap as `on${E}`]?: (event: HTMLElementEventMap[E]) => unknown;
};

/**
 * An element's attributes: values become attributes (`true`: present, `null`,
 * `undefined` and `false`: absent), `on…` functions event handlers, `dataset`
 * an object of `data-*` values.
 */
export type Attrs = Handlers & Record<string, unknown>;

// ---- the API's words

export type Decision = 'allow' | 'prompt' | 'deny';
export type Enforcement = 'hard' | 'soft' | 'advisory';

/** `GET /v1/me`: who the token is and what its role may do. */
export interface Identity {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly workspace: string | null;
  readonly agent: string | null;
  readonly space: string | null;
  readonly mode: string | null;
  readonly permissions: readonly string[];
}

/** What the shell hands each page's `render(main, ctx)`. */
export interface PageContext {
  /** Who is signed in: every page but the open sign-in page is shown signed in. */
  readonly identity: Identity;
  readonly params: Readonly<Record<string, string>>;
  navigate(path: string): void;
  can(permission: string): boolean;
  workspace(): string | null;
  signedIn(): Promise<void>;
}

/** `GET /v1/workspaces`. */
export interface WorkspaceList {
  readonly workspaces: readonly { readonly workspace: string; readonly revision: number | null }[];
}

// ---- the engine's words, as the API returns them

/** An action request as recorded: who acts is always there. */
export type ActionRequest = import('../../dist/views/decision.js').ActionRequestView;

export type FacetEntry = import('../../dist/views/decision.js').FacetEntryView;

export type AdvisoryHit = import('../../dist/views/decision.js').AdvisoryHitView;

/** The engine's decision, as the API returns it. */
export type DecisionResult = import('../../dist/views/decision.js').DecisionView;

export interface LintWarning {
  readonly code: string;
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

/** A rule of the policy document as written (contracts §1). */
export interface RawRule {
  id?: string;
  scope?: string;
  action?: string;
  command?: string;
  decision?: Decision;
  enforcement?: Enforcement;
  when?: Constraints;
  expiresAt?: string;
  origin?: string;
  note?: string;
}

export interface Constraints {
  paths?: string[];
  refs?: string[];
  hosts?: string[];
  commands?: string[];
  maxCount?: number;
  maxCents?: number;
}

/** The policy document: rules, mode presets, spaces; edited as plain JSON. */
export interface PolicyDocument {
  workspace?: string;
  rules?: RawRule[];
  modes?: Record<string, { preset?: RawRule[]; [key: string]: unknown } | null>;
  spaces?: Record<string, { autonomy?: string; [key: string]: unknown } | null>;
  [key: string]: unknown;
}

// ---- the permissions screen (`/v1/permissions/*`)

export interface Revision {
  readonly revision: number;
  readonly hash: string;
  readonly author: string;
  readonly message: string | null;
  readonly createdAt: string;
}

export interface MatrixColumn {
  readonly scope: string;
  readonly kind: 'workspace' | 'agent' | 'space' | 'mode';
  readonly id: string | null;
  readonly label: string;
  readonly autonomy?: string | null;
  readonly effectiveAutonomy?: string;
  readonly autonomyMeaning?: string;
  readonly commandNet?: readonly string[];
}

export interface RuleRef {
  readonly id: string;
  readonly scope: string;
  readonly decision: Decision;
  readonly [key: string]: unknown;
}

export interface MatrixCell {
  readonly scope: string;
  readonly decision: Decision;
  readonly effective: Decision;
  readonly rule: string;
  readonly decidedIn: string;
  readonly inherited: boolean;
  readonly managed: boolean;
  readonly exceptions: readonly RuleRef[];
  readonly rules: readonly string[];
  readonly managedRules: readonly string[];
}

export interface MatrixRow {
  readonly class: string;
  readonly covers: string;
  readonly default: Decision;
  readonly cells: readonly MatrixCell[];
}

/** A rule as the matrix route lists it: with its sentence, origin and place. */
export interface RuleEntry {
  readonly id: string;
  readonly scope: string;
  readonly action?: string;
  readonly command?: string;
  readonly decision: Decision;
  readonly enforcement: Enforcement;
  readonly when?: Constraints;
  readonly origin: string;
  readonly expiresAt: string | null;
  readonly expired: boolean;
  readonly note?: string;
  readonly sentence: string;
  readonly layer: 'workspace' | 'managed';
  /** `rules[3]`, `modes.review.preset[0]`; null when the rule is not in the document. */
  readonly path: string | null;
  readonly revocable: boolean;
  readonly readOnly: boolean;
}

/** `GET /v1/permissions/matrix`. */
export interface PermissionsMatrix {
  readonly workspace: string;
  readonly at: string;
  readonly revision: Revision;
  readonly classes: readonly {
    readonly class: string;
    readonly covers: string;
    readonly default: Decision;
  }[];
  readonly columns: readonly MatrixColumn[];
  readonly rows: readonly MatrixRow[];
  readonly rules: readonly RuleEntry[];
  readonly agents: readonly {
    readonly id: string;
    readonly name: string | null;
    readonly space: string | null;
  }[];
  readonly modes: readonly string[];
  readonly managed: {
    readonly loaded: boolean;
    readonly source: string | null;
    readonly file: string | null;
    readonly readOnly: true;
  };
  readonly skipped: readonly unknown[];
  readonly warnings: readonly LintWarning[];
  readonly document: PolicyDocument;
}

export type CellBrief = Pick<MatrixCell, 'decision' | 'effective' | 'rule' | 'decidedIn'>;

export interface CellChange {
  readonly class: string;
  readonly scope: string;
  readonly before: CellBrief | null;
  readonly after: CellBrief | null;
}

/** `POST /v1/permissions/preview` and `POST /v1/permissions/templates/:name/preview`. */
export interface Preview {
  readonly template?: string;
  readonly revision: number;
  readonly changes: readonly CellChange[];
  readonly rules: {
    readonly added: readonly RuleEntry[];
    readonly changed: readonly { readonly before: RuleEntry; readonly after: RuleEntry }[];
    readonly removed: readonly RuleEntry[];
  };
  readonly warnings: readonly LintWarning[];
}

/** `PUT /v1/policy`: the revision written. */
export interface Written {
  readonly revision: number;
  readonly author: string;
  readonly [key: string]: unknown;
}

/** An audit entry (`/v1/audit`, `/v1/permissions/audit`): its fields depend on its kind. */
export interface AuditEntry {
  readonly id: string;
  readonly kind?: string;
  readonly occurredAt: string;
  readonly agentId?: string;
  readonly tool?: string | null;
  readonly status?: string;
  readonly outcome?: string;
  readonly request?: ActionRequest;
  readonly decision?: Partial<DecisionResult>;
  readonly override?: { readonly by: string; readonly [key: string]: unknown };
  readonly approval?: {
    readonly answer?: string;
    readonly state?: string;
    readonly by?: string;
    readonly [key: string]: unknown;
  };
  readonly failure?: unknown;
  readonly [key: string]: unknown;
}

/** `GET /v1/permissions/advisories`. */
export interface Advisories {
  readonly since: string;
  readonly decisions: number;
  readonly truncated: boolean;
  readonly rules: readonly {
    readonly rule: string;
    readonly facet: string;
    readonly wouldBe: Decision;
    readonly count: number;
    readonly agents: readonly string[];
    readonly lastAt: string;
  }[];
}

// ---- approvals (`/v1/approvals`)

/** A rule "approve for N hours" would write. */
export type RuleDraft = import('../../dist/views/decision.js').RuleDraftView;

/** A standing deny a remembered rule would meet, and that stays in force. */
export type StandingDeny = import('../../dist/views/approvals.js').StandingDenyView;

/** A scope an approval may be remembered in. */
export type ScopeOffer = import('../../dist/views/approvals.js').ScopeOfferView;

export type ApprovalAnswer = import('../../dist/views/decision.js').ApprovalAnswerView;

/** An approval as the API shows it. */
export type { ApprovalView } from '../../dist/views/approvals.js';

/** What an answer sends: `POST /v1/approvals/:id/answer` (and `/override`). */
export type AnswerBody =
  | { readonly kind: 'once' }
  | { readonly kind: 'remember'; readonly hours: number; readonly scope: string }
  | { readonly kind: 'deny'; readonly reason?: string }
  | { readonly kind: 'override'; readonly reason: string };

// ---- agents (`/v1/agents`, `/v1/tasks`, `/v1/runs`, `/v1/reports`)

export interface Agent {
  readonly workspace: string;
  readonly id: string;
  readonly name: string | null;
  readonly role: string | null;
  readonly space: string | null;
  readonly mode: string | null;
  readonly model: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly registered: boolean;
  readonly tools: readonly string[] | null;
  readonly lastActivity: string | null;
}

/** `GET /v1/runs`: one run's receipt. */
export interface Run {
  readonly id: string;
  readonly workspace: string;
  readonly agent: string;
  readonly model: string | null;
  readonly taskId: string | null;
  readonly parentRunId: string | null;
  readonly chain: readonly string[];
  readonly depth: number;
  readonly autonomy: string;
  readonly budgetCents: number | null;
  readonly delegatedCents: number;
  readonly costCents: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly steps: number;
  readonly status: string;
  readonly startedAt: string;
  readonly endedAt: string | null;
}

/** `GET /v1/tasks`: a task on the taskboard, overdue as the server reads it. */
export interface Task {
  readonly id: string;
  readonly workspace: string;
  readonly agent: string;
  readonly title: string;
  readonly state: 'open' | 'done';
  readonly dueAt: string | null;
  readonly createdAt: string;
  readonly doneAt: string | null;
  readonly note: string | null;
  readonly overdue: boolean;
}

/** `GET /v1/reports` (without `data`) and `GET /v1/reports/:id` (with it). */
export interface Report {
  readonly id: string;
  readonly workspace: string | null;
  readonly supervisor: string;
  readonly kind: string;
  readonly title: string;
  readonly body: string;
  /** A supervisor report's findings and per-agent rows (free JSON: read defensively). */
  readonly data?: ReportData | null;
  readonly windowSince: string | null;
  readonly windowUntil: string | null;
  readonly scheduledFor: string | null;
  readonly createdAt: string;
}

// ---- the permissions screen's own pieces

/** The matrix route's last answer, shared by the screen's tabs (`pages/permissions/state.js`). */
export interface PermissionsState {
  readonly workspace: string;
  readonly data: PermissionsMatrix | null;
  readonly error: unknown;
  load(): Promise<PermissionsMatrix | null>;
  subscribe(fn: (data: PermissionsMatrix | null, error: unknown) => void): () => void;
}

/** What each tab of the permissions screen is mounted with. */
export interface PermissionsEnv {
  readonly state: PermissionsState;
  readonly workspace: string;
  readonly root: HTMLElement;
  readonly ctx: PageContext;
  readonly canWrite: boolean;
  readonly role: string;
}

/** `GET /v1/honesty`: what each adapter lets Warden see and stop, on this host (G37). */
export interface Honesty {
  readonly host: { readonly statement: string; readonly floorMissing: boolean };
  readonly adapters: readonly {
    readonly adapter: string;
    readonly title: string;
    readonly available: boolean;
    readonly verifiedWith?: string;
    readonly cells: Readonly<
      Record<string, { readonly value: boolean | 'partial'; readonly note: string }>
    >;
  }[];
}

/** What a supervisor report's `data` holds, as far as the console reads it. */
export interface ReportData {
  readonly agents?: readonly ReportAgentRow[];
  readonly findings?: readonly ReportFinding[];
  readonly notes?: readonly string[];
}

/** One agent in a report's summary. */
export interface ReportAgentRow {
  readonly agent: string;
  readonly workspace?: string | null;
  readonly calls?: number;
  readonly statuses?: Readonly<Record<string, number>>;
  readonly runs?: number;
  readonly costCents?: number;
  readonly tokens?: number;
  readonly openTasks?: number;
  readonly overdueTasks?: number;
}

/** One finding of a report, with its evidence. */
export interface ReportFinding {
  readonly agent?: string;
  readonly kind: string;
  readonly severity: string;
  readonly tool?: string;
  readonly statement: string;
  readonly evidence?: {
    readonly counts?: Readonly<Record<string, number>>;
    readonly auditIds?: readonly string[];
    readonly runIds?: readonly string[];
    readonly taskIds?: readonly string[];
    readonly quoted?: readonly {
      readonly source: string;
      readonly id: string;
      readonly text: string;
    }[];
  };
}

/** `GET /v1/spaces`: the spaces and their autonomy dial (G32). */
export interface Spaces {
  readonly spaces: readonly {
    readonly id: string;
    readonly autonomy: string | null;
    readonly effective: string;
    readonly meaning: string;
  }[];
  readonly levels: readonly AutonomyLevel[];
}

export interface AutonomyLevel {
  readonly level: string;
  readonly meaning: string;
}

/** `GET /v1/templates`: a shipped policy template and what it asks for. */
export interface Template {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly params: readonly {
    readonly name: string;
    readonly description: string;
    readonly required: boolean;
    readonly kind: 'string' | 'list';
    readonly example: string | readonly string[];
  }[];
}

/** `POST /v1/templates/:name/apply`: the revision written and the rules it added. */
export interface TemplateApplied {
  readonly revision: number;
  readonly added: readonly { readonly id: string }[];
}
