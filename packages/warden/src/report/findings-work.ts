// Findings from run receipts and the taskboard (I2; inspector.md §1, the
// first two sources): runs far costlier or hungrier than the agent's own
// history, and tasks past their due date. Pure, like the audit findings.

import type { DetectContext, Draft } from './draft.js';
import { isCritical } from './draft.js';
import { compareText, count, duration, iso, median, oneDecimal } from './format.js';
import { codeName, quoteText } from './quote.js';
import type { AgentEvidence, RunFact, TaskFact } from './types.js';

interface Outlier {
  readonly kind: 'costOutlier' | 'tokenOutlier';
  readonly factor: number;
  readonly minHistory: number;
  readonly historyRuns: number;
  /** The least a run must measure to count at all: a median of 0 makes any cost "infinitely" more. */
  readonly floor: number;
  readonly measure: (run: RunFact) => number;
  readonly unit: (n: number) => string;
  readonly verb: string;
}

function outliers(ctx: DetectContext, agent: AgentEvidence, o: Outlier): Draft[] {
  const runs = [...agent.runs].sort((a, b) => a.startedAt - b.startedAt || compareText(a.id, b.id));
  const drafts: Draft[] = [];
  runs.forEach((run, i) => {
    if (!run.inWindow) return;
    const history = runs.slice(Math.max(0, i - o.historyRuns), i);
    if (history.length < o.minHistory) return;
    const value = o.measure(run);
    const mid = median(history.map(o.measure));
    if (value < o.floor || value <= o.factor * mid) return;
    const than =
      mid === 0
        ? `while the median of its ${count(history.length)} previous runs is ${o.unit(0)}`
        : `${oneDecimal(value / mid)}× the median of its ${count(history.length)} previous runs (${o.unit(mid)})`;
    drafts.push({
      kind: o.kind,
      agent: agent.agent,
      critical: isCritical(ctx, value, Math.max(o.factor * mid, o.floor)),
      statement: `run ${codeName(run.id)} of agent ${codeName(agent.agent)} ${o.verb} ${o.unit(value)}, ${than}`,
      counts: {
        value,
        median: mid,
        history: history.length,
        factor: o.factor,
        minHistory: o.minHistory,
        floor: o.floor,
      },
      runIds: [run.id],
    });
  });
  return drafts;
}

export function costOutliers(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const t = ctx.thresholds.costOutlier;
  return outliers(ctx, agent, {
    kind: 'costOutlier',
    factor: t.factor,
    minHistory: t.minHistory,
    historyRuns: t.historyRuns,
    floor: t.minCents,
    measure: (run) => run.costCents,
    unit: (n) => `${count(n)} cents`,
    verb: 'cost',
  });
}

export function tokenOutliers(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const t = ctx.thresholds.tokenOutlier;
  return outliers(ctx, agent, {
    kind: 'tokenOutlier',
    factor: t.factor,
    minHistory: t.minHistory,
    historyRuns: t.historyRuns,
    floor: t.minTokens,
    measure: (run) => run.tokens,
    unit: (n) => `${count(n)} tokens`,
    verb: 'used',
  });
}

/** Open tasks due more than the grace period before the end of the window. */
export function overdueTasks(ctx: DetectContext, agent: AgentEvidence): Draft[] {
  const { minOverdue, graceHours } = ctx.thresholds.overdueTasks;
  const now = ctx.window.untilMs;
  const overdue = agent.tasks
    .filter((t): t is TaskFact & { dueAt: number } => t.dueAt !== null)
    .filter((t) => t.dueAt < now - graceHours * 3_600_000)
    .sort((a, b) => a.dueAt - b.dueAt || compareText(a.id, b.id));
  if (overdue.length < minOverdue) return [];
  const oldest = overdue[0] as TaskFact & { dueAt: number };
  const examples = overdue.slice(0, ctx.examples);
  return [
    {
      kind: 'overdueTasks',
      agent: agent.agent,
      critical: isCritical(ctx, overdue.length, minOverdue),
      statement:
        `agent ${codeName(agent.agent)} has ${count(overdue.length)} overdue ${overdue.length === 1 ? 'task' : 'tasks'}; ` +
        `the oldest was due ${iso(oldest.dueAt)}, ${duration(now - oldest.dueAt)} ago`,
      counts: {
        overdue: overdue.length,
        oldestOverdueMs: now - oldest.dueAt,
        minOverdue,
        graceHours,
      },
      taskIds: examples.map((t) => t.id),
      // Titles are written by people and agents: shown as quoted data, never in the sentence.
      quoted: examples.map((t) => ({
        source: 'taskTitle' as const,
        id: t.id,
        text: quoteText(t.title, ctx.redact, ctx.quoteChars),
      })),
    },
  ];
}
