// What the store's contract cases share: the signature of a case module, a
// fixed clock, records shaped as Warden's own code writes them, and a way to
// wait for change notices without timing anything.

import type {
  AuditDraft,
  NewApproval,
  NewRun,
  NewStoredRule,
  ReportRecord,
  Store,
  StoreEvent,
  TaskRecord,
  TaskState,
  TokenRecord,
} from '../../../src/store/types.js';

/**
 * Opens a store for the running test: the first call on fresh, empty data,
 * every later call in the same test another instance on the same data (a
 * second server sharing the database). The suite closes them all afterwards.
 */
export type Open = () => Promise<Store>;

/** A case module: declares the tests of one part of the store, for any backend. */
export type Cases = (open: Open) => void;

export const T0 = Date.parse('2026-11-30T10:00:00Z');
export const HOUR = 3_600_000;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export const POLICY = { version: 1, workspace: 'acme', rules: [] };

export function draft(n: number, over: Partial<AuditDraft> = {}): AuditDraft {
  const id = `e-${String(n).padStart(6, '0')}`;
  const occurredAt = iso(T0 + n * 1000);
  const base = {
    id,
    kind: 'call' as const,
    workspace: 'acme',
    agentId: n % 2 === 0 ? 'coder-1' : 'coder-2',
    runId: 'r-1',
    callId: `c-${n}`,
    decisionId: `d-${n}`,
    tool: n % 3 === 0 ? 'web_fetch' : 'write_file',
    status: n % 5 === 0 ? ('Error' as const) : ('Ok' as const),
    occurredAt,
    ...over,
  };
  return {
    ...base,
    body: {
      id: base.id,
      kind: base.kind,
      workspace: base.workspace,
      callId: base.callId,
      decisionId: base.decisionId,
      runId: base.runId,
      agentId: base.agentId,
      model: 'claude-sonnet-4',
      source: 'library',
      tool: base.tool,
      arguments: { n },
      status: base.status,
      durationMs: n,
      occurredAt,
    },
  };
}

/** A remembered rule as an answer writes it. */
export function storedRule(id: string, over: Partial<NewStoredRule> = {}): NewStoredRule {
  return {
    id,
    workspace: 'acme',
    rule: {
      id,
      scope: 'agent:coder-1',
      action: 'gitPush',
      decision: 'allow',
      origin: 'remembered',
    },
    scope: 'agent:coder-1',
    origin: 'remembered',
    createdAt: iso(T0),
    createdBy: 'alice',
    expiresAt: null,
    approvalId: 'a-1',
    ...over,
  };
}

/** A prompt (or an override) as the broker creates it for a gated `git_push`. */
export function approval(
  id: string,
  kind: 'prompt' | 'override' = 'prompt',
  over: Partial<NewApproval> = {},
): NewApproval {
  return {
    id,
    workspace: 'acme',
    agent: 'coder-1',
    kind,
    tool: 'git_push',
    callId: `c-${id}`,
    decisionId: `d-${id}`,
    request: { workspace: 'acme', agent: 'coder-1', actions: ['gitPush' as const] },
    decision: {
      decision: 'prompt' as const,
      outcome: 'ask' as const,
      rule: 'default:gitPush',
      scope: 'default',
      enforcement: null,
      overridable: false,
      prompts: ['gitPush'],
      facets: [],
      managed: null,
      managedSource: null,
      advisories: [],
      reason: 'asks',
    },
    offer: null,
    fingerprint: 'fp-1',
    arguments: { ref: 'x' },
    stamp: { runId: 'r-1', model: 'm1', source: 'library' },
    createdAt: iso(T0),
    expiresAtMs: T0 + 60_000,
    ...over,
  };
}

export function run(id: string, budgetCents: number | null, over: Partial<NewRun> = {}): NewRun {
  return {
    id,
    workspace: 'acme',
    agent: 'coder-1',
    model: 'm1',
    taskId: 't-1',
    parentRunId: null,
    chain: ['coder-1'],
    depth: 0,
    autonomy: 'actWithApproval' as const,
    budgetCents,
    startedAt: iso(T0),
    ...over,
  };
}

/** A task as `POST /v1/tasks` creates it. */
export function task(
  id: string,
  over: Partial<Omit<TaskRecord, 'doneAt'>> = {},
): Omit<TaskRecord, 'doneAt' | 'state'> & { readonly state?: TaskState } {
  return {
    id,
    workspace: 'acme',
    agent: 'coder-1',
    title: `task ${id}`,
    dueAt: null,
    createdAt: iso(T0),
    note: null,
    ...over,
  };
}

/** A token record as `createToken` stores it (an agent's, unless told otherwise). */
export function token(
  id: string,
  over: Partial<Omit<TokenRecord, 'revokedAt'>> = {},
): Omit<TokenRecord, 'revokedAt'> {
  return {
    id,
    name: `token ${id}`,
    role: 'agent',
    workspace: 'acme',
    agent: 'coder-1',
    space: null,
    mode: null,
    createdAt: iso(T0),
    createdBy: 'admin',
    expiresAt: null,
    ...over,
  };
}

/** A scheduled supervisor report as `reportRecord` makes it. */
export function report(id: string, over: Partial<ReportRecord> = {}): ReportRecord {
  return {
    id,
    workspace: 'acme',
    supervisor: 'lead',
    kind: 'report',
    title: 'Daily report',
    body: '# Daily report\n\n3 calls, 1 denied.',
    data: { calls: 3, denied: 1, agents: ['coder-1'] },
    windowSince: iso(T0 - 24 * HOUR),
    windowUntil: iso(T0),
    scheduledFor: iso(T0),
    createdAt: iso(T0),
    ...over,
  };
}

/** A message a supervisor wrote to the human, as `messageHuman` stores it. */
export function message(id: string, over: Partial<ReportRecord> = {}): ReportRecord {
  return report(id, {
    kind: 'message',
    title: 'coder-1 keeps pushing to main',
    body: 'Three pushes to `main` were denied today.',
    data: null,
    windowSince: null,
    windowUntil: null,
    scheduledFor: null,
    ...over,
  });
}

export interface Listening {
  /** Every event heard so far, in order. */
  readonly seen: readonly StoreEvent[];
  /** The `nth` event heard (already or later) that matches, the first by default. */
  until(match: (event: StoreEvent) => boolean, nth?: number): Promise<StoreEvent>;
  stop(): void;
}

/** Listens to a store's change notices from now on. */
export function listen(store: Store): Listening {
  const seen: StoreEvent[] = [];
  let checks: (() => boolean)[] = [];
  const stop = store.events.subscribe((event) => {
    seen.push(event);
    checks = checks.filter((check) => !check());
  });
  return {
    seen,
    until(match, nth = 1) {
      return new Promise((resolve) => {
        const check = (): boolean => {
          const found = seen.filter(match)[nth - 1];
          if (found !== undefined) resolve(found);
          return found !== undefined;
        };
        if (!check()) checks.push(check);
      });
    },
    stop,
  };
}

/** Matches an event by its fields (an `id` left out matches any). */
export function event(topic: StoreEvent['topic'], workspace: string | null, id?: string) {
  return (e: StoreEvent): boolean =>
    e.topic === topic && e.workspace === workspace && (id === undefined || e.id === id);
}
