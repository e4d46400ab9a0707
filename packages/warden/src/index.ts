// Warden's IO layer and library API: stores, the gate, approvals, the audit
// log, the tool registry and the shared path confinement. Named exports only.

export type { InputIssue, Loaded, LoadedPolicy, ManagedChoice } from './policy/load.js';
export {
  chooseManaged,
  loadClassifier,
  loadPolicyFile,
  loadRequest,
  readInput,
} from './policy/load.js';
export { run } from './cli/main.js';
export type { Io } from './cli/io.js';

// The library API.
export type { PolicyWriteResult, WardenOptions } from './warden.js';
export { Warden, agentCredentials, openWarden } from './warden.js';
export type {
  ApprovalSummary,
  CallContext,
  CallOutcome,
  DecideOptions,
  GateAsk,
  GateDecision,
  GateOptions,
} from './gate/gate.js';
export { Gate, fingerprint } from './gate/gate.js';
export type { FaultCode } from './gate/fault.js';
export { FAIL_CLOSED_RULE, GateFault, failClosed } from './gate/fault.js';
export type { ManagedFile, PolicySnapshot, PolicySource } from './gate/snapshot.js';
export { FilePolicySource, StorePolicySource } from './gate/snapshot.js';
export type { DelegateAsk, DelegateResult } from './gate/delegation.js';
export { DELEGATE_TOOL } from './gate/delegation.js';

// Tools.
export type {
  Extraction,
  ToolContext,
  ToolDefinition,
  ToolInfo,
  ToolResult,
} from './tools/registry.js';
export {
  ToolRefusal,
  ToolRegistrationError,
  ToolRegistry,
  checkDefinition,
  defineTool,
} from './tools/registry.js';

export type { BuiltinOptions } from './tools/builtin/index.js';
export {
  builtinTools,
  deleteFileTool,
  gitCommitTool,
  gitPushTool,
  httpFetchTool,
  listFilesTool,
  prCreateTool,
  prMergeTool,
  readFileTool,
  registerBuiltins,
  runCommandTool,
  writeFileTool,
} from './tools/builtin/index.js';

// The instance on disk and the AgentInspector (inspector.md): a supervisor's
// read-only view of the other agents.
export type {
  AgentSettings,
  InspectorSettings,
  InstanceAgent,
  NewAgent,
} from './instance/index.js';
export {
  createAgent,
  inspectorSettings,
  listInstanceAgents,
  parseAgentSettings,
  readAgent,
  supervisorWarnings,
} from './instance/index.js';
export type {
  EvidenceReader,
  InspectorAction,
  InspectorAnswer,
  InspectorOptions,
  SupervisorResult,
} from './inspector/index.js';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  INSPECTOR_ACTIONS,
  INSPECTOR_TOOL,
  Inspector,
  inspectorMcpServer,
  inspectorTools,
  loadSupervisor,
  serveInspectorStdio,
} from './inspector/index.js';

// The deterministic supervisor report (I11) and the supervisor's messages to the human.
export type {
  Finding,
  FindingKind,
  ReportData,
  ReportResult,
  ReportsSettings,
  Severity,
  Thresholds,
} from './report/index.js';
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
} from './report/index.js';
export type {
  ReportFilter,
  ReportKind,
  ReportReader,
  ReportRecord,
  ReportStore,
} from './store/types.js';
export { REPORT_KINDS } from './store/types.js';

// The OS sandbox `run_command` runs shell commands under (G2).
export type { SandboxMode, SandboxProbe } from './sandbox/runtime.js';
export { closeSandbox, probeSandbox } from './sandbox/runtime.js';

// Approvals.
export type {
  AnswerInput,
  AnswerResult,
  Approver,
  ApproverChannel,
  BrokerOptions,
} from './approvals/broker.js';
export { ApprovalBroker } from './approvals/broker.js';

// The audit log.
export type { ChainBreak, ChainItem, VerifyReport } from './audit/chain.js';
export { GENESIS_HASH, chainLink, verifyChain } from './audit/chain.js';
export type { Stamp } from './audit/records.js';
export { AuditWriter } from './audit/writer.js';
export type { RedactionResult, RedactorOptions } from './audit/redact.js';
export { REDACTED, Redactor, credentialLiterals } from './audit/redact.js';
export { toOtlp } from './audit/otlp.js';

// Stores.
export type {
  AgentReader,
  AgentRecord,
  AgentStore,
  AnswerKind,
  ApprovalAnswer,
  ApprovalFilter,
  ApprovalKind,
  ApprovalReader,
  ApprovalRecord,
  ApprovalSettle,
  ApprovalState,
  ApprovalStore,
  ApproverRole,
  AuditDraft,
  AuditEntry,
  AuditFilter,
  AuditGroup,
  AuditGroupKey,
  AuditKind,
  AuditReader,
  AuditStatus,
  AuditStore,
  Backend,
  Events,
  JsonValue,
  NewApproval,
  NewRun,
  NewStoredRule,
  PolicyReader,
  PolicyRevision,
  PolicyStore,
  PolicyWrite,
  Presence,
  PresenceStore,
  PutResult,
  RuleReader,
  RuleStore,
  RunFilter,
  RunReader,
  RunRecord,
  RunStatus,
  RunStep,
  RunStore,
  Store,
  StoreEvent,
  StoreReader,
  StoreTopic,
  StoredAuditEntry,
  StoredOrigin,
  StoredRule,
  TaskFilter,
  TaskReader,
  TaskRecord,
  TaskState,
  TaskStore,
  TaskView,
} from './store/types.js';
export { AUDIT_KINDS, AUDIT_STATUSES } from './store/types.js';
export type { OpenStoreOptions } from './store/open.js';
export { DEFAULT_DATA, openStore, storeOptionsFromEnv } from './store/open.js';
export { openSqlite } from './store/sqlite.js';
export { openPostgres } from './store/postgres.js';

// The one path confinement (inspector.md I5).
export type {
  Confinement,
  ConfinementOptions,
  PathCode,
  PathProblem,
  PathResult,
} from './paths/index.js';
export {
  agentFolderConfinement,
  checkLexical,
  confinement,
  listConfined,
  readConfined,
  trashConfined,
  worktreeConfinement,
  writeConfined,
} from './paths/index.js';

// The server (`warden serve`): the HTTP API, tokens and roles, configuration.
export type { RunningServer, StartOptions } from './server/serve.js';
export { startServer } from './server/serve.js';
export type { ServerState } from './server/app.js';
export { createApp } from './server/app.js';
export type { ServerContext } from './server/context.js';
export type { Identity, Permission, TokenRequest } from './server/auth.js';
export { TOKEN_PREFIX, can, createToken, tokenHash } from './server/auth.js';
export type { ConfigFlags, ConfigResult, ServerConfig } from './server/config.js';
export { DEFAULT_PORT, configSchema, loadConfig } from './server/config.js';

// Policy templates.
export type {
  ApplyResult,
  PreviewResult,
  RulesResult,
  TemplateArgs,
  TemplateInfo,
  TemplateParam,
  TemplateProblem,
} from './templates/index.js';
export { TEMPLATES, applyTemplate, previewTemplate, templateRules } from './templates/index.js';

// The honesty matrix (G37): what each adapter lets Warden see and stop.
export type {
  AdapterDeclaration,
  AdapterId,
  AdapterRow,
  Cell,
  Column,
  DetectOptions,
  HonestyMatrix,
  HostFacts,
} from './honesty/index.js';
export { ADAPTERS, detectHost, honestyMatrix, renderMatrix } from './honesty/index.js';
