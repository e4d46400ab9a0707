// The evidence of one observed agent over a window, read from a read-only
// store: its finished calls (and counts over the whole window), the `Denied`
// counts of the windows before, its runs with their history, its open tasks.
// Workspace files are never read (A5).

import { createHash } from 'node:crypto';
import { canonicalJson } from '@warden/engine';
import type { InstanceAgent } from '../instance/index.js';
import type { AuditFilter, JsonValue, RunRecord, StoreReader } from '../store/types.js';
import { DEFAULT_QUOTE_CHARS, codeName } from './quote.js';
import type { Thresholds } from './thresholds.js';
import type {
  AgentEvidence,
  AgentSummary,
  AllowedFact,
  CallCount,
  CallFact,
  RunFact,
} from './types.js';
import type { ReportWindow } from './window.js';

/** How much evidence one agent's part of a report reads at most. */
export interface ReportLimits {
  readonly callsPerAgent: number;
  readonly runsPerAgent: number;
  readonly tasksPerAgent: number;
  readonly examples: number;
  readonly quoteChars: number;
}

export const DEFAULT_LIMITS: ReportLimits = {
  callsPerAgent: 20_000,
  runsPerAgent: 1000,
  tasksPerAgent: 500,
  examples: 3,
  quoteChars: DEFAULT_QUOTE_CHARS,
};

const CALL_STATUSES = ['Ok', 'Error', 'Denied', 'NotFound'] as const;

/** A field of a JSON object; undefined for anything else. */
function fieldOf(value: JsonValue | undefined, key: string): JsonValue | undefined {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value))
    return undefined;
  return (value as { readonly [key: string]: JsonValue })[key];
}

function callFact(entry: { readonly [key: string]: JsonValue }): CallFact {
  const args = canonicalJson(entry.arguments ?? null);
  return {
    id: String(entry.id),
    tool: String(entry.tool ?? ''),
    status: entry.status as CallFact['status'],
    at: Date.parse(String(entry.occurredAt)),
    argsHash: createHash('sha256').update(args).digest('hex'),
    args,
    decisionId: typeof entry.decisionId === 'string' ? entry.decisionId : null,
    uncovered:
      entry.decisionId === null && typeof fieldOf(entry.arguments, 'uncovered') === 'string',
  };
}

/**
 * The decisions of the window that allowed a call: each decision's last
 * entry (after an approval, the approver's outcome) is its word.
 */
function allowedFacts(entries: readonly { readonly [key: string]: JsonValue }[]): AllowedFact[] {
  const last = new Map<string, { readonly [key: string]: JsonValue }>();
  for (const entry of entries) {
    // A decision's first entry has the decision's id; a later one names it in `decisionId`.
    const id = typeof entry.decisionId === 'string' ? entry.decisionId : String(entry.id);
    last.set(id, entry);
  }
  const allowed: AllowedFact[] = [];
  for (const [id, entry] of last) {
    if (entry.outcome !== 'allow') continue;
    allowed.push({ id, tool: String(entry.tool ?? ''), at: Date.parse(String(entry.occurredAt)) });
  }
  return allowed;
}

export async function gatherEvidence(
  store: StoreReader,
  agent: InstanceAgent,
  window: ReportWindow,
  thresholds: Thresholds,
  limits: ReportLimits,
): Promise<{ evidence: AgentEvidence; notes: string[] }> {
  const base: AuditFilter = {
    agent: agent.id,
    ...(agent.workspace === null ? {} : { workspace: agent.workspace }),
    kinds: ['call'],
    statuses: [...CALL_STATUSES],
  };
  const scope = {
    agent: agent.id,
    ...(agent.workspace === null ? {} : { workspace: agent.workspace }),
  };
  const notes: string[] = [];
  const inWindow = { sinceMs: window.sinceMs, untilMs: window.untilMs };
  const read = await store.audit.query({
    ...base,
    ...inWindow,
    order: 'oldest',
    limit: limits.callsPerAgent + 1,
  });
  const callsCapped = read.length > limits.callsPerAgent;
  if (callsCapped)
    notes.push(
      `agent ${codeName(agent.id)} made more than ${limits.callsPerAgent} calls in the window: error streaks and repeated calls cover only the oldest ${limits.callsPerAgent}`,
    );
  const decisions = await store.audit.query({
    agent: agent.id,
    ...(agent.workspace === null ? {} : { workspace: agent.workspace }),
    kinds: ['decision'],
    ...inWindow,
    order: 'oldest',
    limit: limits.callsPerAgent + 1,
  });
  if (decisions.length > limits.callsPerAgent)
    notes.push(
      `agent ${codeName(agent.id)} had more than ${limits.callsPerAgent} decisions in the window: unreported calls cover only the oldest ${limits.callsPerAgent}`,
    );
  const groups = await store.audit.group({ ...base, ...inWindow }, ['tool', 'status']);
  const counts: CallCount[] = groups.map((g) => ({
    tool: g.tool ?? '',
    status: g.status as CallCount['status'],
    count: g.count,
  }));
  const span = window.untilMs - window.sinceMs;
  const deniedBaseline: number[] = [];
  for (let k = 1; k <= thresholds.denialSpike.baselineWindows; k += 1) {
    const [total] = await store.audit.group(
      {
        ...base,
        statuses: ['Denied'],
        sinceMs: window.sinceMs - k * span,
        untilMs: window.sinceMs - (k - 1) * span,
      },
      [],
    );
    deniedBaseline.push(total?.count ?? 0);
  }
  const windowRuns = await store.runs.list({
    ...scope,
    ...inWindow,
    limit: limits.runsPerAgent + 1,
  });
  if (windowRuns.length > limits.runsPerAgent)
    notes.push(
      `agent ${codeName(agent.id)} started more than ${limits.runsPerAgent} runs in the window: cost and token outliers cover only the newest ${limits.runsPerAgent}`,
    );
  const history = await store.runs.list({
    ...scope,
    untilMs: window.sinceMs,
    limit: Math.max(thresholds.costOutlier.historyRuns, thresholds.tokenOutlier.historyRuns),
  });
  const runFact =
    (inside: boolean) =>
    (run: RunRecord): RunFact => ({
      id: run.id,
      startedAt: Date.parse(run.startedAt),
      costCents: run.costCents,
      tokens: run.tokensIn + run.tokensOut,
      inWindow: inside,
    });
  const tasks = await store.tasks.list({
    ...scope,
    state: 'open',
    at: window.untilMs,
    limit: limits.tasksPerAgent + 1,
  });
  if (tasks.length > limits.tasksPerAgent)
    notes.push(
      `agent ${codeName(agent.id)} has more than ${limits.tasksPerAgent} open tasks: only those due first were read`,
    );
  return {
    evidence: {
      agent: agent.id,
      workspace: agent.workspace,
      calls: read.slice(0, limits.callsPerAgent).map(callFact),
      callsCapped,
      counts,
      deniedBaseline,
      runs: [
        ...windowRuns.slice(0, limits.runsPerAgent).map(runFact(true)),
        ...history.map(runFact(false)),
      ],
      allowed: allowedFacts(decisions.slice(0, limits.callsPerAgent)),
      tasks: tasks.slice(0, limits.tasksPerAgent).map((t) => ({
        id: t.id,
        title: t.title,
        dueAt: t.dueAt === null ? null : Date.parse(t.dueAt),
      })),
    },
    notes,
  };
}

export function summarize(
  e: AgentEvidence,
  window: ReportWindow,
  thresholds: Thresholds,
): AgentSummary {
  const statuses = { Ok: 0, Error: 0, Denied: 0, NotFound: 0 };
  for (const c of e.counts) statuses[c.status] += c.count;
  const runs = e.runs.filter((r) => r.inWindow);
  const grace = thresholds.overdueTasks.graceHours * 3_600_000;
  return {
    agent: e.agent,
    workspace: e.workspace,
    calls: statuses.Ok + statuses.Error + statuses.Denied + statuses.NotFound,
    statuses,
    runs: runs.length,
    costCents: runs.reduce((sum, r) => sum + r.costCents, 0),
    tokens: runs.reduce((sum, r) => sum + r.tokens, 0),
    openTasks: e.tasks.length,
    overdueTasks: e.tasks.filter((t) => t.dueAt !== null && t.dueAt < window.untilMs - grace)
      .length,
  };
}
