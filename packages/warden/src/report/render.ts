// The report as the human reads it: Markdown rendered from the report's data
// alone, so the text and the JSON never disagree. Quoted agent-written text is
// marked as such and sits in code spans it cannot close (see `quote.ts`).

import { count, percent } from './format.js';
import { codeName } from './quote.js';
import type { Thresholds } from './thresholds.js';
import type { Finding, FindingKind, ReportData } from './types.js';

const KIND_NAMES: Readonly<Record<FindingKind, string>> = {
  errorStreak: 'error streak',
  errorRate: 'error rate',
  denialSpike: 'denial spike',
  repeatedCalls: 'repeated calls',
  costOutlier: 'cost outlier',
  tokenOutlier: 'token outlier',
  overdueTasks: 'overdue tasks',
  uncoveredCalls: 'uncovered calls',
  unreportedCalls: 'unreported calls',
};

export function reportTitle(report: ReportData): string {
  return `Supervisor report of ${report.supervisor}: ${report.window.label} to ${report.window.until}`;
}

function evidenceLine(f: Finding): string {
  const parts = Object.entries(f.evidence.counts).map(([k, v]) => `${k} ${count(v)}`);
  const ids = [
    ...(f.evidence.auditIds.length === 0
      ? []
      : [`audit ${f.evidence.auditIds.map((id) => codeName(id)).join(', ')}`]),
    ...(f.evidence.runIds.length === 0
      ? []
      : [`runs ${f.evidence.runIds.map((id) => codeName(id)).join(', ')}`]),
    ...(f.evidence.taskIds.length === 0
      ? []
      : [`tasks ${f.evidence.taskIds.map((id) => codeName(id)).join(', ')}`]),
  ];
  return `   - evidence: ${parts.join(', ')}${ids.length === 0 ? '' : `; ${ids.join('; ')}`}`;
}

function findingLines(f: Finding, n: number): string[] {
  const head = `${n}. **${f.severity}** · ${KIND_NAMES[f.kind]} — ${f.statement}`;
  const quoted = f.evidence.quoted.map(
    (q) =>
      `   - quoted ${q.source === 'toolArguments' ? 'arguments' : 'task title'} of ${codeName(q.id)} (agent-written data, not an instruction): \`${q.text}\``,
  );
  return [head, evidenceLine(f), ...quoted];
}

function thresholdLines(t: Thresholds): string[] {
  return [
    `- error streak: at least ${t.errorStreak.minLength} \`Error\` calls of one tool in a row`,
    `- error rate: at least ${t.errorRate.minErrors} \`Error\` calls of one tool and at least ${percent(t.errorRate.minShare)} of its calls`,
    `- denial spike: at least ${t.denialSpike.minDenied} \`Denied\` calls and at least ${t.denialSpike.factor}× the mean of the ${t.denialSpike.baselineWindows} windows before`,
    `- repeated calls: one tool with identical arguments at least ${t.repeatedCalls.minRepeats} times within ${t.repeatedCalls.spanMinutes} min`,
    `- cost outlier: a run above ${t.costOutlier.factor}× the median of the agent's previous ${t.costOutlier.historyRuns} runs (at least ${t.costOutlier.minHistory} of them), and at least ${t.costOutlier.minCents} cents`,
    `- token outlier: a run above ${t.tokenOutlier.factor}× the median of the agent's previous ${t.tokenOutlier.historyRuns} runs (at least ${t.tokenOutlier.minHistory} of them), and at least ${count(t.tokenOutlier.minTokens)} tokens`,
    `- overdue tasks: at least ${t.overdueTasks.minOverdue} open task(s) due more than ${t.overdueTasks.graceHours} h ago`,
    `- uncovered calls: at least ${t.uncoveredCalls.minCalls} call(s) reported as run with no decision allowing them (always critical)`,
    `- unreported calls: at least ${t.unreportedCalls.minCalls} allowed call(s) that never reported how they ended, ${t.unreportedCalls.graceMinutes} min after the decision`,
    `- critical: a measure at least ${t.severity.criticalFactor}× the threshold it crossed`,
  ];
}

export function renderMarkdown(report: ReportData): string {
  const critical = report.findings.filter((f) => f.severity === 'critical').length;
  const lines = [
    `# ${reportTitle(report)}`,
    '',
    `Window: ${report.window.since} to ${report.window.until} (${report.window.label}). ` +
      `Agents: ${report.agents.length === 0 ? 'none' : report.agents.map((a) => codeName(a.agent)).join(', ')}.`,
    '',
    'Computed from the audit log, run receipts and the taskboard only: no workspace file was read, ' +
      'and text the agents wrote appears only as quoted data.',
    '',
    `## Findings (${report.findings.length}${critical === 0 ? '' : `, ${critical} critical`})`,
    '',
    ...(report.findings.length === 0
      ? ['None: no threshold was crossed.']
      : report.findings.flatMap((f, i) => findingLines(f, i + 1))),
    '',
    '## Agents',
    '',
    '| agent | calls | Ok | Error | Denied | NotFound | runs | cost (cents) | tokens | open tasks | overdue |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...report.agents.map(
      (a) =>
        `| ${codeName(a.agent)} | ${count(a.calls)} | ${count(a.statuses.Ok)} | ${count(a.statuses.Error)} | ${count(a.statuses.Denied)} | ${count(a.statuses.NotFound)} | ${count(a.runs)} | ${count(a.costCents)} | ${count(a.tokens)} | ${count(a.openTasks)} | ${count(a.overdueTasks)} |`,
    ),
    '',
    ...(report.notes.length === 0
      ? []
      : ['## Notes', '', ...report.notes.map((n) => `- ${n}`), '']),
    '## Thresholds',
    '',
    ...thresholdLines(report.thresholds),
    '',
  ];
  return lines.join('\n');
}
