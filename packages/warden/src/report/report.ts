// The deterministic supervisor report (I11): for the agents a supervisor may
// observe, reads the evidence over a window from a read-only store — the
// audit log, run receipts, the taskboard — and computes the findings. It
// reads no workspace file, Identity or Soul at all (A5): the instance folder
// is read only for who the agents are and what the supervisor may see.

import { Redactor, credentialLiterals } from '../audit/redact.js';
import type { InstanceAgent } from '../instance/index.js';
import { listInstanceAgents } from '../instance/agents.js';
import type { StoreReader } from '../store/types.js';
import type { ReportLimits } from './evidence.js';
import { DEFAULT_LIMITS, gatherEvidence, summarize } from './evidence.js';
import { computeFindings } from './findings.js';
import { compareText, iso } from './format.js';
import { codeName } from './quote.js';
import type { ReportProblem } from './supervisor.js';
import { readSupervisor } from './supervisor.js';
import type { Thresholds } from './thresholds.js';
import { DEFAULT_THRESHOLDS } from './thresholds.js';
import type { AgentEvidence, ReportData } from './types.js';
import { REPORT_VERSION } from './types.js';
import { parseWindow } from './window.js';

export type { ReportLimits } from './evidence.js';
export { DEFAULT_LIMITS } from './evidence.js';
export type { ReportProblem } from './supervisor.js';

export const DEFAULT_SINCE = '24h';

export interface ReportRequest {
  /** The supervisor whose `observableAgents` decide whom the report covers. */
  readonly supervisor: string;
  /** The instance's data folder (`<data>/agents/<id>/`). */
  readonly data: string;
  /** `24h`, `7d`, … or an ISO time with a zone (default `24h`). */
  readonly since?: string;
  /** The end of the window: the clock is an argument. */
  readonly now: number;
  readonly thresholds?: Thresholds;
  readonly limits?: Partial<ReportLimits>;
}

export type ReportResult =
  | { readonly ok: true; readonly report: ReportData }
  | { readonly ok: false; readonly problems: readonly ReportProblem[] };

/** Computes a supervisor's report; expected failures (unknown supervisor, bad window or settings) are results. */
export async function buildReport(
  store: StoreReader,
  request: ReportRequest,
): Promise<ReportResult> {
  const thresholds = request.thresholds ?? DEFAULT_THRESHOLDS;
  const limits: ReportLimits = { ...DEFAULT_LIMITS, ...request.limits };
  const parsed = parseWindow(request.since ?? DEFAULT_SINCE, request.now);
  const supervisor = await readSupervisor(request.data, request.supervisor);
  const problems: ReportProblem[] = [
    ...(parsed.ok ? [] : [{ path: 'since' as const, message: parsed.message }]),
    ...(supervisor.ok ? [] : supervisor.problems),
  ];
  if (!parsed.ok || !supervisor.ok) return { ok: false, problems };
  const { window } = parsed;
  const instance = await listInstanceAgents(request.data);
  const notes: string[] = [];
  let observed: InstanceAgent[];
  if (supervisor.observable.length === 0) {
    observed = instance;
  } else {
    const named = new Set(supervisor.observable);
    observed = instance.filter((a) => named.has(a.id));
    for (const id of [...named].sort(compareText))
      if (!instance.some((a) => a.id === id))
        notes.push(
          `\`observableAgents\` names ${codeName(id)}, which is not an agent of this instance`,
        );
  }
  observed.sort((a, b) => compareText(a.id, b.id));
  if (observed.length === 0) notes.push('there is no agent to observe');
  // Credentials in any agent's settings are redacted wherever agent-written text is quoted.
  const redactor = new Redactor({
    literals: instance.flatMap((a) => (a.settings === null ? [] : credentialLiterals(a.settings))),
  });
  const evidence: AgentEvidence[] = [];
  for (const agent of observed) {
    const gathered = await gatherEvidence(store, agent, window, thresholds, limits);
    evidence.push(gathered.evidence);
    notes.push(...gathered.notes);
  }
  const findings = computeFindings(
    { window, agents: evidence },
    {
      thresholds,
      redact: (text) => redactor.redactText(text).text,
      examples: limits.examples,
      quoteChars: limits.quoteChars,
    },
  );
  return {
    ok: true,
    report: {
      version: REPORT_VERSION,
      supervisor: supervisor.agent.id,
      workspace: supervisor.agent.workspace,
      window: { since: iso(window.sinceMs), until: iso(window.untilMs), label: window.label },
      sources: ['audit', 'runs', 'tasks'],
      agents: evidence.map((e) => summarize(e, window, thresholds)),
      findings,
      thresholds,
      notes,
    },
  };
}
