// The store interfaces: what Warden keeps durably, whatever the backend.
// SQLite (the embedded default) and Postgres implement the same contract and
// run the same contract tests; readers without write methods are separate
// types, so "read-only" is a type, not a promise (STYLE 10).

import type { ActionRequest, Autonomy, DecisionResult, RememberOffer } from '@warden/engine';

export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

// ─── Policy ────────────────────────────────────────────────────────────────

export interface PolicyRevision {
  readonly workspace: string;
  readonly revision: number;
  /** The policy document as JSON (contracts §1), validated before it was written. */
  readonly document: JsonValue;
  /** Lowercase hex SHA-256 of the document's canonical JSON. */
  readonly hash: string;
  readonly author: string;
  readonly message: string | null;
  readonly createdAt: string;
}

export interface PolicyWrite {
  readonly document: JsonValue;
  readonly author: string;
  readonly message?: string;
  /** Write only if this is still the current revision (null: only if there is none). */
  readonly expected?: number | null;
  readonly at: number;
}

export type PutResult =
  | { readonly ok: true; readonly revision: PolicyRevision }
  | { readonly ok: false; readonly conflict: { readonly current: number | null } };

export interface PolicyReader {
  current(workspace: string): Promise<PolicyRevision | null>;
  revision(workspace: string, revision: number): Promise<PolicyRevision | null>;
  /** Newest first. */
  history(workspace: string, limit?: number): Promise<PolicyRevision[]>;
  workspaces(): Promise<string[]>;
  currentManaged(): Promise<PolicyRevision | null>;
  managedHistory(limit?: number): Promise<PolicyRevision[]>;
}

export interface PolicyStore extends PolicyReader {
  put(workspace: string, write: PolicyWrite): Promise<PutResult>;
  putManaged(write: PolicyWrite): Promise<PutResult>;
}

// ─── Stored rules (remembered approvals, G23) ──────────────────────────────

export type StoredOrigin = 'user' | 'template' | 'remembered';

export interface StoredRule {
  readonly id: string;
  readonly workspace: string;
  /** The rule as written in a policy document, with its id, scope, origin and expiry. */
  readonly rule: { readonly [key: string]: JsonValue };
  readonly scope: string;
  readonly origin: StoredOrigin;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly expiresAt: string | null;
  readonly approvalId: string | null;
  readonly revokedAt: string | null;
  readonly revokedBy: string | null;
}

export type NewStoredRule = Omit<StoredRule, 'revokedAt' | 'revokedBy'>;

export interface RuleReader {
  /** Rules not revoked; with `at`, only those alive then (E13). With `includeRevoked`, all. */
  list(
    workspace: string,
    options?: { readonly at?: number; readonly includeRevoked?: boolean },
  ): Promise<StoredRule[]>;
  get(workspace: string, id: string): Promise<StoredRule | null>;
}

export interface RuleStore extends RuleReader {
  add(rules: readonly NewStoredRule[]): Promise<void>;
  /** Revokes a live rule; null when there is no such rule or it was revoked already. */
  revoke(workspace: string, id: string, by: string, at: number): Promise<StoredRule | null>;
}

// ─── Agents ────────────────────────────────────────────────────────────────

export interface AgentRecord {
  readonly workspace: string;
  readonly id: string;
  readonly name: string | null;
  readonly role: string | null;
  /** The space the agent works in: its effective autonomy is that space's (E40). */
  readonly space: string | null;
  /** The mode the agent works in (its command net): an agent token bound to none acts in it (contracts §8). */
  readonly mode: string | null;
  readonly model: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface AgentReader {
  get(workspace: string, id: string): Promise<AgentRecord | null>;
  list(workspace: string): Promise<AgentRecord[]>;
}

export interface AgentStore extends AgentReader {
  /** Registers or replaces an agent; a `mode` left out is none. */
  upsert(
    agent: Omit<AgentRecord, 'createdAt' | 'updatedAt' | 'mode'> & {
      readonly mode?: string | null;
    },
    at: number,
  ): Promise<AgentRecord>;
}

// ─── Freezes (the kill switch) ─────────────────────────────────────────────

/** An agent, or a whole workspace (`agent` null), stopped by an admin until thawed. */
export interface FreezeRecord {
  readonly workspace: string;
  /** null: every agent of the workspace. */
  readonly agent: string | null;
  readonly by: string;
  readonly reason: string | null;
  readonly frozenAt: string;
}

export interface FreezeStore {
  /** The freezes in force, of one workspace or of all. */
  list(workspace?: string): Promise<FreezeRecord[]>;
  /**
   * Freezes an agent or a workspace; one frozen already stays frozen as it
   * was (its first freeze is kept). Grows the workspace's counter, so every
   * server's next policy check sees it.
   */
  freeze(freeze: Omit<FreezeRecord, 'frozenAt'>, at: number): Promise<FreezeRecord>;
  /** Ends a freeze; null when there was none. */
  thaw(workspace: string, agent: string | null): Promise<FreezeRecord | null>;
}

// ─── Tool pins (the gateway's downstream tools, by definition) ─────────────

/**
 * A downstream tool's definition (name, description, input schema) as the
 * gateway first mapped it, by hash; a different definition offered later
 * waits as `pending` until an admin accepts it.
 */
export interface ToolPinRecord {
  readonly workspace: string;
  /** The exposed name, `<server>__<tool>`. */
  readonly tool: string;
  readonly hash: string;
  readonly definition: JsonValue;
  readonly pinnedAt: string;
  readonly pinnedBy: string;
  readonly pending: {
    readonly hash: string;
    readonly definition: JsonValue;
    readonly seenAt: string;
  } | null;
}

export interface ToolPinStore {
  get(workspace: string, tool: string): Promise<ToolPinRecord | null>;
  list(workspace: string): Promise<ToolPinRecord[]>;
  /**
   * Pins a definition the first time a tool is seen; a tool pinned already
   * keeps its pin, and a different definition is kept as its `pending` one.
   * Answers the pin as it is now, and whether the pending definition is new.
   */
  see(
    workspace: string,
    tool: string,
    seen: { readonly hash: string; readonly definition: JsonValue; readonly by: string },
    at: number,
  ): Promise<{ readonly pin: ToolPinRecord; readonly newlyPending: boolean }>;
  /**
   * Makes the pending definition the pinned one; null when there is none pending. Given the
   * hash (or a prefix of it) of the definition an admin reviewed, `changed` when another one
   * waits now.
   */
  accept(
    workspace: string,
    tool: string,
    by: string,
    at: number,
    reviewed?: string,
  ): Promise<ToolPinRecord | null | { readonly changed: string }>;
}

// ─── Approvals (G22, G23, G26) ─────────────────────────────────────────────

export type ApprovalKind = 'prompt' | 'override';
export type ApprovalState = 'pending' | 'approved' | 'denied' | 'expired' | 'cancelled';
export type AnswerKind = 'once' | 'remember' | 'deny' | 'override';

export interface ApprovalAnswer {
  readonly kind: AnswerKind;
  /** Who answered: the approver's name, stamped from its channel or token. */
  readonly by: string;
  readonly reason: string | null;
  /** For `remember`: how long, in which scope, and the ids of the rules written. */
  readonly hours?: number;
  readonly scope?: string;
  readonly rules?: readonly string[];
}

export interface ApprovalRecord {
  readonly id: string;
  readonly workspace: string;
  readonly agent: string;
  readonly kind: ApprovalKind;
  readonly state: ApprovalState;
  readonly tool: string | null;
  readonly callId: string;
  readonly decisionId: string;
  /** The request as recorded (redacted). */
  readonly request: ActionRequest;
  /** The engine's decision that asked (redacted). */
  readonly decision: DecisionResult;
  /** For prompts: the prompting facets and what "approve for N hours" would write. */
  readonly offer: RememberOffer | null;
  /** Identifies the request, so a granted override lets exactly it through once. */
  readonly fingerprint: string;
  /** The tool's arguments as the approver is shown them (redacted). */
  readonly arguments: JsonValue;
  /** The rest of the caller's identity, for the entries the approval's end writes. */
  readonly stamp: {
    readonly runId: string | null;
    readonly model: string | null;
    readonly source: string;
  };
  readonly createdAt: string;
  readonly expiresAtMs: number;
  readonly answer: ApprovalAnswer | null;
  readonly answeredAt: string | null;
  /** Why an approval ended without an answer (timeout, approver gone, caller gone). */
  readonly closedReason: string | null;
  /** When a granted override was used by the retried call. */
  readonly usedAt: string | null;
}

export type NewApproval = Omit<
  ApprovalRecord,
  'state' | 'answer' | 'answeredAt' | 'closedReason' | 'usedAt'
>;

export interface ApprovalFilter {
  readonly workspace?: string;
  readonly state?: ApprovalState;
  readonly agent?: string;
  readonly kind?: ApprovalKind;
  readonly fingerprint?: string;
  readonly limit?: number;
}

export interface ApprovalSettle {
  readonly state: Exclude<ApprovalState, 'pending'>;
  readonly answer: ApprovalAnswer | null;
  readonly closedReason: string | null;
  readonly at: number;
  /** An answer settles only an approval that has not expired at `at` (a timeout settles any). */
  readonly beforeExpiry?: boolean;
  /** Remembered rules that come into force with this answer, in the same transaction (G23). */
  readonly rules?: readonly NewStoredRule[];
}

export interface ApprovalReader {
  get(id: string): Promise<ApprovalRecord | null>;
  /** Newest first. */
  list(filter?: ApprovalFilter): Promise<ApprovalRecord[]>;
}

export interface ApprovalStore extends ApprovalReader {
  create(approval: NewApproval): Promise<void>;
  /**
   * Ends a pending approval (with its remembered rules, atomically); null when
   * it is not pending any more — someone else settled it — or, for an answer, expired.
   */
  settle(id: string, settle: ApprovalSettle): Promise<ApprovalRecord | null>;
  /** Takes a granted, unused override for this request, once; null when there is none. */
  consumeOverride(
    workspace: string,
    fingerprint: string,
    notBeforeMs: number,
    at: number,
  ): Promise<ApprovalRecord | null>;
}

// ─── Approver presence (G22: a prompt with no connected approver is denied) ─

export type ApproverRole = 'approver' | 'overrider';

export interface Presence {
  readonly id: string;
  /** null: answers for every workspace. */
  readonly workspace: string | null;
  readonly name: string;
  readonly roles: readonly ApproverRole[];
  readonly node: string;
  readonly lastSeenMs: number;
}

export interface PresenceStore {
  beat(presence: Presence): Promise<void>;
  remove(id: string): Promise<void>;
  /** Channels seen since `sinceMs` that may answer for `workspace` in `role`. */
  live(workspace: string, role: ApproverRole, sinceMs: number): Promise<Presence[]>;
}

// ─── Audit (I1, G39, contracts §6) ─────────────────────────────────────────

export const AUDIT_STATUSES = ['Ok', 'Error', 'Denied', 'NotFound', 'Staged'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** `call`: a tool call; `decision`: a gate decision (G39); `approval`: an answer; `change`: policy and rule changes. */
export const AUDIT_KINDS = ['call', 'decision', 'approval', 'change'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** An entry before it is chained: every field is stamped by Warden. */
export interface AuditDraft {
  readonly id: string;
  readonly kind: AuditKind;
  readonly workspace: string | null;
  readonly agentId: string | null;
  readonly runId: string | null;
  readonly callId: string | null;
  readonly decisionId: string | null;
  readonly tool: string | null;
  readonly status: AuditStatus | null;
  readonly occurredAt: string;
  /**
   * The whole entry as it is hashed and exported (the fields above included).
   * Appending hands it over: it becomes the entry, with `prevHash` and `hash` added.
   */
  readonly body: { readonly [key: string]: JsonValue };
}

export interface AuditEntry {
  readonly [key: string]: JsonValue;
  readonly id: string;
  readonly prevHash: string;
  readonly hash: string;
}

export interface StoredAuditEntry {
  readonly seq: number;
  readonly entry: AuditEntry;
  /** The columns the store indexes the entry by, as stored (verify compares them with the entry). */
  readonly columns: { readonly [column: string]: JsonValue };
  /** Set when the stored row could not be read as an entry (then `entry` holds only its id and chain fields). */
  readonly problem?: string;
}

export interface AuditFilter {
  readonly workspace?: string;
  readonly agent?: string;
  readonly kinds?: readonly AuditKind[];
  readonly statuses?: readonly AuditStatus[];
  readonly tool?: string;
  readonly callId?: string;
  readonly decisionId?: string;
  readonly sinceMs?: number;
  readonly untilMs?: number;
  readonly limit?: number;
  /** Default `newest`. */
  readonly order?: 'newest' | 'oldest';
}

export type AuditGroupKey = 'tool' | 'status';

export interface AuditGroup {
  readonly tool?: string | null;
  readonly status?: AuditStatus | null;
  readonly count: number;
}

export interface AuditReader {
  query(filter: AuditFilter): Promise<AuditEntry[]>;
  /** Counts over the whole window, whatever the limit of a query (inspector.md §4). */
  group(filter: AuditFilter, by: readonly AuditGroupKey[]): Promise<AuditGroup[]>;
  get(id: string): Promise<AuditEntry | null>;
  /** Every entry in chain order, in pages. */
  scan(fromSeq?: number, pageSize?: number): AsyncIterable<StoredAuditEntry>;
  head(): Promise<{ readonly seq: number; readonly hash: string }>;
}

export interface AuditStore extends AuditReader {
  /** Chains and writes the drafts in one transaction; durable when it resolves. */
  append(drafts: readonly AuditDraft[]): Promise<AuditEntry[]>;
}

// ─── Runs and receipts (I2), delegation (E40) ──────────────────────────────

export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface RunRecord {
  readonly id: string;
  readonly workspace: string;
  readonly agent: string;
  readonly model: string | null;
  readonly taskId: string | null;
  readonly parentRunId: string | null;
  /** The delegation chain, this run's agent last. */
  readonly chain: readonly string[];
  readonly depth: number;
  readonly autonomy: Autonomy;
  /** The budget frame in cents; null: none. */
  readonly budgetCents: number | null;
  /** Cents handed on to delegates (G36). */
  readonly delegatedCents: number;
  readonly costCents: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly steps: number;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly endedAt: string | null;
}

export type NewRun = Omit<
  RunRecord,
  'delegatedCents' | 'costCents' | 'tokensIn' | 'tokensOut' | 'steps' | 'status' | 'endedAt'
>;

export interface RunStep {
  readonly runId: string;
  readonly seq: number;
  readonly kind: string;
  readonly tool: string | null;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly costCents: number;
  readonly at: string;
  readonly note: string | null;
}

export interface RunFilter {
  readonly workspace?: string;
  readonly agent?: string;
  readonly sinceMs?: number;
  readonly untilMs?: number;
  readonly limit?: number;
}

export interface RunReader {
  get(id: string): Promise<RunRecord | null>;
  /** Newest first. */
  list(filter: RunFilter): Promise<RunRecord[]>;
  steps(runId: string): Promise<RunStep[]>;
}

export interface RunStore extends RunReader {
  start(run: NewRun): Promise<RunRecord>;
  /** Adds a step and its tokens and cost to the run's totals. */
  addStep(step: Omit<RunStep, 'seq'>): Promise<RunStep>;
  finish(id: string, status: Exclude<RunStatus, 'running'>, at: number): Promise<RunRecord | null>;
  /** Debits a delegation from the run's frame; false when it would exceed what is left (G36). */
  debit(id: string, cents: number): Promise<boolean>;
}

// ─── Tasks (the taskboard) ─────────────────────────────────────────────────

export type TaskState = 'open' | 'done';

export interface TaskRecord {
  readonly id: string;
  readonly workspace: string;
  readonly agent: string;
  readonly title: string;
  readonly state: TaskState;
  readonly dueAt: string | null;
  readonly createdAt: string;
  readonly doneAt: string | null;
  readonly note: string | null;
}

/** A task as read at a moment: overdue is derived, never stored. */
export interface TaskView extends TaskRecord {
  readonly overdue: boolean;
}

export interface TaskFilter {
  readonly workspace?: string;
  readonly agent?: string;
  /** `overdue`: open with a due date before `at`. */
  readonly state?: TaskState | 'overdue';
  readonly at: number;
  readonly limit?: number;
}

/** What an update may change of a task; what it does not name stays. */
export interface TaskChange {
  readonly state?: TaskState;
  readonly dueAt?: string | null;
  readonly title?: string;
  readonly note?: string | null;
}

export interface TaskReader {
  get(id: string, at: number): Promise<TaskView | null>;
  list(filter: TaskFilter): Promise<TaskView[]>;
}

export interface TaskStore extends TaskReader {
  create(
    task: Omit<TaskRecord, 'doneAt' | 'state'> & { readonly state?: TaskState },
  ): Promise<TaskRecord>;
  update(id: string, change: TaskChange, at: number): Promise<TaskRecord | null>;
}

// ─── API tokens (contracts §8) ─────────────────────────────────────────────

export const ROLES = ['admin', 'approver', 'overrider', 'viewer', 'agent'] as const;
export type Role = (typeof ROLES)[number];

/** A token as stored: its SHA-256, never the token itself. */
export interface TokenRecord {
  readonly id: string;
  readonly name: string;
  readonly role: Role;
  /** Humans: null for every workspace. Agents: the one workspace the token acts in. */
  readonly workspace: string | null;
  /** Agents: the agent id every request is stamped with. */
  readonly agent: string | null;
  readonly space: string | null;
  readonly mode: string | null;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly revokedAt: string | null;
  /** When the token stops being accepted (ISO 8601, UTC); null when it does not expire. */
  readonly expiresAt: string | null;
}

export interface TokenStore {
  add(token: Omit<TokenRecord, 'revokedAt'>, hash: string): Promise<void>;
  /**
   * The token with this hash that was not revoked; null when there is none.
   * An expired one is still found: the server refuses it and says when it expired.
   */
  byHash(hash: string): Promise<TokenRecord | null>;
  list(): Promise<TokenRecord[]>;
  revoke(id: string, at: number): Promise<TokenRecord | null>;
}

// ─── Reports and messages for the human (I10, I11) ────────────────────────

/** `report`: the deterministic supervisor report; `message`: what a supervisor wrote to the human. */
export const REPORT_KINDS = ['report', 'message'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface ReportRecord {
  readonly id: string;
  /** The supervisor's workspace; null for one that watches the whole instance. */
  readonly workspace: string | null;
  /** The supervisor (author) agent: a report is about what it may observe, a message is its own words. */
  readonly supervisor: string;
  readonly kind: ReportKind;
  readonly title: string;
  /** Markdown, as the human reads it. */
  readonly body: string;
  /** The report as data (its JSON form); null for a message. */
  readonly data: JsonValue | null;
  /** The window a report covers (ISO times); null for a message. */
  readonly windowSince: string | null;
  readonly windowUntil: string | null;
  /**
   * The schedule's instant a report was made for; null when made by hand or a message.
   * At most one report per supervisor and instant: servers sharing a database store it once.
   */
  readonly scheduledFor: string | null;
  readonly createdAt: string;
}

export interface ReportFilter {
  readonly workspace?: string;
  readonly supervisor?: string;
  readonly kind?: ReportKind;
  /** Only the report made for this instant of the schedule (ISO). */
  readonly scheduledFor?: string;
  readonly limit?: number;
}

export interface ReportReader {
  get(id: string): Promise<ReportRecord | null>;
  /** Newest first. */
  list(filter?: ReportFilter): Promise<ReportRecord[]>;
}

export interface ReportStore extends ReportReader {
  /**
   * Stores a report or message; null (and nothing written) when a report for
   * the same supervisor and `scheduledFor` is stored already.
   */
  add(report: ReportRecord): Promise<ReportRecord | null>;
}

// ─── Events between processes ──────────────────────────────────────────────

export type StoreTopic = 'agent' | 'approval' | 'policy' | 'presence';

export interface StoreEvent {
  readonly topic: StoreTopic;
  readonly workspace: string | null;
  readonly id?: string;
}

/** Postgres: LISTEN/NOTIFY; SQLite: within the process (other processes are polled). */
export interface Events {
  publish(event: StoreEvent): Promise<void>;
  subscribe(listener: (event: StoreEvent) => void): () => void;
}

// ─── The store ─────────────────────────────────────────────────────────────

export type Backend = 'sqlite' | 'postgres';

/** Keys the deployment makes for itself, the same on every node. */
export interface SecretStore {
  /** The secret called `name`; made with `make` and kept when there is none yet. */
  ensure(name: string, make: () => string): Promise<string>;
}

/** Claims of `warden exec` grants: a grant's decision is claimed once, by one run, before it runs. */
export interface GrantStore {
  /**
   * Claims the run of decision `decisionId`: true for the one caller that
   * claimed it first, false for every other, on every node at once.
   */
  claim(decisionId: string, at: Date): Promise<boolean>;
}

export interface Store {
  readonly backend: Backend;
  /** Where the data lives: a file path, or the database URL without its password. */
  readonly location: string;
  readonly policies: PolicyStore;
  readonly rules: RuleStore;
  readonly agents: AgentStore;
  readonly approvals: ApprovalStore;
  readonly presence: PresenceStore;
  readonly audit: AuditStore;
  readonly runs: RunStore;
  readonly tasks: TaskStore;
  readonly tokens: TokenStore;
  readonly reports: ReportStore;
  readonly secrets: SecretStore;
  readonly grants: GrantStore;
  readonly freezes: FreezeStore;
  readonly toolPins: ToolPinStore;
  readonly events: Events;
  /** A counter that grows with every change to a workspace's policy, rules or freezes (null: the managed layer's). */
  stateVersion(workspace: string | null): Promise<number>;
  close(): Promise<void>;
}

/** The store's read side, for supervisors and reports: no write method exists on it. */
export interface StoreReader {
  readonly policies: PolicyReader;
  readonly rules: RuleReader;
  readonly agents: AgentReader;
  readonly approvals: ApprovalReader;
  readonly audit: AuditReader;
  readonly runs: RunReader;
  readonly tasks: TaskReader;
  readonly reports: ReportReader;
}
