// The tables as Kysely sees them: one schema for SQLite and Postgres. JSON is
// stored as text and times as ISO text plus epoch milliseconds where queries
// compare them, so both backends read and write exactly the same values.

export interface RevisionRow {
  workspace: string;
  revision: number;
  document: string;
  hash: string;
  author: string;
  message: string | null;
  created_at: string;
}

export interface Database {
  /** Keys this deployment made for itself, shared by every node (never shown, never exported). */
  instance_secrets: { name: string; value: string; created_at: string };
  /** Grants of `warden exec` claimed to run: one row per decision, so a grant runs once. */
  grant_claims: { decision_id: string; claimed_at: string };
  reports: {
    id: string;
    workspace: string | null;
    supervisor: string;
    kind: string;
    title: string;
    body: string;
    data: string | null;
    window_since: string | null;
    window_until: string | null;
    scheduled_for: string | null;
    created_at: string;
    created_at_ms: number;
  };
  api_tokens: {
    id: string;
    hash: string;
    name: string;
    role: string;
    workspace: string | null;
    agent: string | null;
    space: string | null;
    mode: string | null;
    created_at: string;
    created_by: string;
    revoked_at: string | null;
    expires_at: string | null;
  };
  state_versions: { key: string; version: number };
  policy_revisions: RevisionRow;
  managed_revisions: RevisionRow;
  stored_rules: {
    id: string;
    workspace: string;
    scope: string;
    origin: string;
    rule: string;
    created_at: string;
    created_by: string;
    expires_at: string | null;
    expires_at_ms: number | null;
    approval_id: string | null;
    revoked_at: string | null;
    revoked_by: string | null;
  };
  tool_pins: {
    workspace: string;
    tool: string;
    hash: string;
    definition: string;
    pinned_at: string;
    pinned_by: string;
    pending_hash: string | null;
    pending_definition: string | null;
    pending_at: string | null;
  };
  freezes: {
    workspace: string;
    /** '' for the whole workspace. */
    agent: string;
    frozen_by: string;
    reason: string | null;
    frozen_at: string;
  };
  agents: {
    workspace: string;
    id: string;
    name: string | null;
    role: string | null;
    space: string | null;
    mode: string | null;
    model: string | null;
    created_at: string;
    updated_at: string;
  };
  approvals: {
    id: string;
    workspace: string;
    agent: string;
    kind: string;
    state: string;
    tool: string | null;
    call_id: string;
    decision_id: string;
    request: string;
    decision: string;
    offer: string | null;
    fingerprint: string;
    arguments: string;
    stamp: string;
    created_at: string;
    created_at_ms: number;
    expires_at_ms: number;
    answer: string | null;
    answered_at: string | null;
    answered_at_ms: number | null;
    closed_reason: string | null;
    used_at: string | null;
  };
  approver_presence: {
    id: string;
    workspace: string | null;
    name: string;
    roles: string;
    node: string;
    last_seen_ms: number;
  };
  audit_entries: {
    seq: number;
    id: string;
    kind: string;
    workspace: string | null;
    agent_id: string | null;
    run_id: string | null;
    call_id: string | null;
    decision_id: string | null;
    tool: string | null;
    status: string | null;
    occurred_at_ms: number;
    entry: string;
    prev_hash: string;
    hash: string;
  };
  audit_head: { id: number; seq: number; hash: string };
  runs: {
    id: string;
    workspace: string;
    agent: string;
    model: string | null;
    task_id: string | null;
    parent_run_id: string | null;
    chain: string;
    depth: number;
    autonomy: string;
    budget_cents: number | null;
    delegated_cents: number;
    cost_cents: number;
    tokens_in: number;
    tokens_out: number;
    steps: number;
    status: string;
    started_at: string;
    started_at_ms: number;
    ended_at: string | null;
  };
  run_steps: {
    run_id: string;
    seq: number;
    kind: string;
    tool: string | null;
    tokens_in: number;
    tokens_out: number;
    cost_cents: number;
    at: string;
    note: string | null;
  };
  tasks: {
    id: string;
    workspace: string;
    agent: string;
    title: string;
    state: string;
    due_at: string | null;
    due_at_ms: number | null;
    created_at: string;
    done_at: string | null;
    note: string | null;
  };
}
