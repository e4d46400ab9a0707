// `warden/store`: the stores Warden keeps its records in (SQLite in a data
// folder, or Postgres), the records' types, and the audit log's own checks.

export type { OpenStoreOptions } from '../store/open.js';
export { DEFAULT_DATA, openStore, storeOptionsFromEnv } from '../store/open.js';
export { openSqlite } from '../store/sqlite.js';
export { openPostgres } from '../store/postgres.js';
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
  ReportFilter,
  ReportKind,
  ReportReader,
  ReportRecord,
  ReportStore,
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
} from '../store/types.js';
export { AUDIT_KINDS, AUDIT_STATUSES, REPORT_KINDS } from '../store/types.js';

// The audit log: its hash chain, its redaction, and OpenTelemetry export.
export type { ChainBreak, ChainItem, VerifyReport } from '../audit/chain.js';
export { GENESIS_HASH, chainLink, verifyChain } from '../audit/chain.js';
export type { Stamp } from '../audit/records.js';
export type { RedactionResult, RedactorOptions } from '../audit/redact.js';
export { REDACTED, Redactor, credentialLiterals } from '../audit/redact.js';
export { toOtlp } from '../audit/otlp.js';
