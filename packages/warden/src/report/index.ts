// The deterministic supervisor report (I11) and the supervisor's messages to
// the human (I10): evidence in, findings and Markdown out, stored for later.

export type {
  AgentEvidence,
  AgentSummary,
  CallCount,
  CallFact,
  Evidence,
  Finding,
  FindingKind,
  FindingsInput,
  QuotedData,
  ReportData,
  RunFact,
  Severity,
  TaskFact,
} from './types.js';
export { FINDING_KINDS, REPORT_VERSION } from './types.js';
export type { Thresholds, ThresholdsInput, ThresholdsResult } from './thresholds.js';
export { DEFAULT_THRESHOLDS, ThresholdsSchema, parseThresholds } from './thresholds.js';
export type { FindingsOptions } from './findings.js';
export { compareFindings, computeFindings } from './findings.js';
export type { ReportLimits, ReportProblem, ReportRequest, ReportResult } from './report.js';
export { DEFAULT_LIMITS, DEFAULT_SINCE, buildReport } from './report.js';
export type { ReportWindow, WindowResult } from './window.js';
export { parseWindow } from './window.js';
export { renderMarkdown, reportTitle } from './render.js';
export type { PersistOptions } from './persist.js';
export { reportRecord, storeReport } from './persist.js';
export type { ReportsSettings } from './settings.js';
export { ReportsSettingsSchema, cronProblem, timezoneProblem } from './settings.js';
export type { ReportScheduler, RunSummary, SchedulerDeps } from './scheduler.js';
export { runReports, scheduledInstant, startReportScheduler } from './scheduler.js';
export type { MessageHumanArgs, MessageHumanContext, MessageHumanResult } from './message-human.js';
export { MESSAGE_BODY_MAX, MESSAGE_TITLE_MAX, messageHumanTool } from './message-human.js';
