// The types the console's modules name in JSDoc
// (`@param {import('../lib/types.js').ApprovalView} a`). The API's answers
// are not written here: they are the types of the schemas the server declares
// its answers with (`src/views/`, read from their compiled declarations in
// `dist/`, which `npm run typecheck` builds first). What is left here is the
// console's own: the DOM helper, page wiring, and the documents it edits.
// Types only — the browser never loads this file.

import type { AgentView } from '../../dist/views/agents.js';
import type { ApprovalView, ScopeOfferView, StandingDenyView } from '../../dist/views/approvals.js';
import type { AuditEntryView, DecisionEntryView } from '../../dist/views/audit.js';
import type { FreezeListView, FrozenView, ListedFreezeView } from '../../dist/views/freezes.js';
import type { Shown } from '../../dist/views/fits.js';
import type {
  ActionRequestView,
  AdvisoryHitView,
  ApprovalAnswerView,
  DecisionView,
  FacetEntryView,
  RuleDraftView,
} from '../../dist/views/decision.js';
import type { HonestyMatrixView, MeView, WorkspaceListView } from '../../dist/views/meta.js';
import type {
  AdvisoriesView,
  CellChangeView,
  LintWarningView,
  MatrixCellView,
  MatrixColumnView,
  MatrixRowView,
  PermissionsMatrixView,
  ProposalView,
  RuleEntryView,
  TemplateProposalView,
} from '../../dist/views/permissions.js';
import type { proofView, RevisionView } from '../../dist/views/policy.js';
import type {
  acceptedSuggestionView,
  suggestionListView,
  SuggestionView,
} from '../../dist/views/suggestions.js';
import type { RunView } from '../../dist/views/runs.js';
import type { SpaceListView } from '../../dist/views/spaces.js';
import type { TaskView } from '../../dist/views/tasks.js';
import type { TemplateAppliedView, TemplateInfoView } from '../../dist/views/templates.js';
import type { ToolPinListView, ToolPinView } from '../../dist/views/tool-pins.js';

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
export type Identity = MeView;

/** What the shell hands each page's `render(main, ctx)`. */
export interface PageContext {
  /** Who is signed in: every page but the open sign-in page is shown signed in. */
  readonly identity: Identity;
  readonly params: Readonly<Record<string, string>>;
  navigate(path: string): void;
  can(permission: string): boolean;
  workspace(): string | null;
  /** Reads who the signed-in token is, and keeps it. */
  signedIn(): Promise<Identity>;
  /** Forgets the token and who it was. */
  signedOut(): Promise<void>;
}

/** `GET /v1/workspaces`. */
export type WorkspaceList = WorkspaceListView;

// ---- the engine's words, as the API returns them

/** An action request as recorded: who acts is always there. */
export type ActionRequest = ActionRequestView;

export type FacetEntry = FacetEntryView;

export type AdvisoryHit = AdvisoryHitView;

/** The engine's decision, as the API returns it. */
export type DecisionResult = DecisionView;

export type LintWarning = LintWarningView;

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

export type MatrixColumn = MatrixColumnView;

export type MatrixCell = MatrixCellView;

export type MatrixRow = MatrixRowView;

/** A rule as the matrix route lists it: with its sentence, origin and place. */
export type RuleEntry = RuleEntryView;

/** `GET /v1/permissions/matrix`. */
export type PermissionsMatrix = Omit<PermissionsMatrixView, 'document'> & {
  /** The policy document the matrix was made from, as the editor edits it. */
  readonly document: PolicyDocument;
};

export type CellBrief = Pick<MatrixCell, 'decision' | 'effective' | 'rule' | 'decidedIn'>;

export type CellChange = CellChangeView;

/** `POST /v1/permissions/preview` and `POST /v1/permissions/templates/:name/preview`. */
export type Preview = ProposalView | TemplateProposalView;

/** `PUT /v1/policy` and `PUT /v1/managed`: the revision written. */
export type Written = RevisionView;

/** An audit entry (`/v1/audit`, `/v1/permissions/audit`): its fields depend on its kind. */
export type AuditEntry = AuditEntryView;
/** A decision's audit entry (`/v1/permissions/audit`). */
export type DecisionEntry = DecisionEntryView;

/** `GET /v1/permissions/advisories`. */
export type Advisories = AdvisoriesView;

// ---- approvals (`/v1/approvals`)

/** A rule "approve for N hours" would write. */
export type RuleDraft = RuleDraftView;

/** A standing deny a remembered rule would meet, and that stays in force. */
export type StandingDeny = StandingDenyView;

/** A scope an approval may be remembered in. */
export type ScopeOffer = ScopeOfferView;

export type ApprovalAnswer = ApprovalAnswerView;

/** An approval as the API shows it. */
export type { ApprovalView };

/** What an answer sends: `POST /v1/approvals/:id/answer` (and `/override`). */
export type AnswerBody =
  | { readonly kind: 'once' }
  | { readonly kind: 'remember'; readonly hours: number; readonly scope: string }
  | { readonly kind: 'deny'; readonly reason?: string }
  | { readonly kind: 'override'; readonly reason: string };

// ---- agents (`/v1/agents`, `/v1/tasks`, `/v1/runs`, `/v1/reports`)

export type Agent = AgentView;

/** A freeze in force (the kill switch): an agent's, or with `agent` null the whole workspace's. */
export type Freeze = ListedFreezeView;

/** `PUT /v1/agents/:id/freeze` and `PUT /v1/freeze`: the freeze in force and the waiting approvals it denied. */
export type Frozen = FrozenView;

/** `GET /v1/freezes`. */
export type FreezeList = FreezeListView;

// ---- the gateway's pinned tools (`/v1/tool-pins`)

/**
 * A downstream tool pinned by the hash of its definition, with the changed
 * definition waiting for an admin (`pending`); `POST /v1/tool-pins/accept`
 * answers the pin, now of the new definition.
 */
export type ToolPin = ToolPinView;

/** `GET /v1/tool-pins`. */
export type ToolPinList = ToolPinListView;

// ---- suggested rules (`/v1/rules/suggestions`) and provable rules (`/v1/policy/proof`)

/**
 * Prompts approved once again and again, as the rules that would have
 * answered them, with their blast radius over past decisions.
 */
export type Suggestion = SuggestionView;

/** `GET /v1/rules/suggestions`. */
export type SuggestionList = Shown<typeof suggestionListView>;

/** `POST /v1/rules/suggestions/:id/accept`: the suggestion and the policy revision that holds its rules. */
export type AcceptedSuggestion = Shown<typeof acceptedSuggestionView>;

/** `GET /v1/policy/proof`: each deny and prompt rule tried against the disguises of its target. */
export type PolicyProof = Shown<typeof proofView>;

/** One rule's proof: its verdict and the disguises that do not hold. */
export type RuleProof = PolicyProof['rules'][number];

/** A pinned definition as the console reads it (the API's is free JSON: read defensively). */
export interface ToolDefinition {
  readonly name: string | null;
  readonly description: string | null;
  readonly inputSchema: unknown;
}

/** `GET /v1/runs`: one run's receipt. */
export type Run = RunView;

/** `GET /v1/tasks`: a task on the taskboard, overdue as the server reads it. */
export type Task = TaskView;

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

/** `GET /v1/honesty`: what each adapter lets Warden see and stop, on this host. */
export type Honesty = HonestyMatrixView;

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

/** `GET /v1/spaces`: the spaces and their autonomy dial. */
export type Spaces = SpaceListView;

export interface AutonomyLevel {
  readonly level: string;
  readonly meaning: string;
}

/** `GET /v1/templates`: a shipped policy template and what it asks for. */
export type Template = TemplateInfoView;

/** `POST /v1/templates/:name/apply`: the revision written and the rules it added. */
export type TemplateApplied = TemplateAppliedView;
