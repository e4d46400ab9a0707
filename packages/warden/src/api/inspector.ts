// `warden/inspector`: a supervisor's read-only view of the other agents
// (inspector.md) and the deterministic report it gives the human (I11).
// Like src/inspector/ and src/report/, it imports nothing that acts.

export type {
  EvidenceReader,
  InspectorAction,
  InspectorAnswer,
  InspectorOptions,
  SupervisorResult,
} from '../inspector/index.js';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  INSPECTOR_ACTIONS,
  INSPECTOR_TOOL,
  Inspector,
  inspectorMcpServer,
  inspectorTools,
  loadSupervisor,
  serveInspectorStdio,
} from '../inspector/index.js';
export type {
  Finding,
  FindingKind,
  ReportData,
  ReportResult,
  ReportsSettings,
  Severity,
  Thresholds,
} from '../report/index.js';
export {
  DEFAULT_THRESHOLDS,
  FINDING_KINDS,
  ReportsSettingsSchema,
  ThresholdsSchema,
  buildReport,
  computeFindings,
  messageHumanTool,
  parseThresholds,
  parseWindow,
  renderMarkdown,
  runReports,
  startReportScheduler,
  storeReport,
} from '../report/index.js';
