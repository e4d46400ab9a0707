// The public API is curated (STYLE 11): each subpath of the package's exports
// map offers exactly the names below, so an internal cannot leak back in. The
// package is imported by name, through its exports map, as a user would.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGE = join(import.meta.dirname, '..');

interface Curated {
  readonly values: readonly string[];
  readonly types: readonly string[];
}

const API: Readonly<Record<string, Curated>> = {
  '.': {
    values: [
      'ACTION_CLASSES',
      'BUILTIN_CLASSES',
      'FAIL_CLOSED_RULE',
      'GateFault',
      'ToolRefusal',
      'ToolRegistrationError',
      'ToolRegistry',
      'Warden',
      'builtinTools',
      'checkDefinition',
      'checkLexical',
      'closeSandbox',
      'confinement',
      'defineTool',
      'formatPath',
      'isActionClass',
      'issueText',
      'listConfined',
      'openWarden',
      'probeSandbox',
      'readConfined',
      'registerBuiltins',
      'trashConfined',
      'worktreeConfinement',
      'writeConfined',
    ],
    types: [
      'ActionClass',
      'ActionRequest',
      'AnswerInput',
      'AnswerResult',
      'ApprovalBroker',
      'ApprovalSummary',
      'Approver',
      'ApproverChannel',
      'Autonomy',
      'BrokerOptions',
      'BuiltinClasses',
      'BuiltinName',
      'BuiltinOptions',
      'CallContext',
      'CallOutcome',
      'Confinement',
      'ConfinementOptions',
      'DecideOptions',
      'Decision',
      'DecisionResult',
      'DelegateAsk',
      'DelegateResult',
      'Extraction',
      'FaultCode',
      'Gate',
      'GateAsk',
      'GateDecision',
      'GateOptions',
      'Issue',
      'PathCode',
      'PathProblem',
      'PathResult',
      'PathSegment',
      'Policy',
      'PolicyWriteResult',
      'RequestArgs',
      'SandboxMode',
      'SandboxProbe',
      'ToolContext',
      'ToolDefinition',
      'ToolInfo',
      'ToolResult',
      'WardenOptions',
    ],
  },
  './store': {
    values: [
      'AUDIT_KINDS',
      'AUDIT_STATUSES',
      'DEFAULT_DATA',
      'GENESIS_HASH',
      'REDACTED',
      'REPORT_KINDS',
      'Redactor',
      'chainLink',
      'credentialLiterals',
      'openPostgres',
      'openSqlite',
      'openStore',
      'storeOptionsFromEnv',
      'toOtlp',
      'verifyChain',
    ],
    types: [
      'AgentReader',
      'AgentRecord',
      'AgentStore',
      'AnswerKind',
      'ApprovalAnswer',
      'ApprovalFilter',
      'ApprovalKind',
      'ApprovalReader',
      'ApprovalRecord',
      'ApprovalSettle',
      'ApprovalState',
      'ApprovalStore',
      'ApproverRole',
      'AuditDraft',
      'AuditEntry',
      'AuditFilter',
      'AuditGroup',
      'AuditGroupKey',
      'AuditKind',
      'AuditReader',
      'AuditStatus',
      'AuditStore',
      'Backend',
      'ChainBreak',
      'ChainItem',
      'Events',
      'JsonValue',
      'NewApproval',
      'NewRun',
      'NewStoredRule',
      'OpenStoreOptions',
      'PolicyReader',
      'PolicyRevision',
      'PolicyStore',
      'PolicyWrite',
      'Presence',
      'PresenceStore',
      'PutResult',
      'RedactionResult',
      'RedactorOptions',
      'ReportFilter',
      'ReportKind',
      'ReportReader',
      'ReportRecord',
      'ReportStore',
      'RuleReader',
      'RuleStore',
      'RunFilter',
      'RunReader',
      'RunRecord',
      'RunStatus',
      'RunStep',
      'RunStore',
      'Stamp',
      'Store',
      'StoreEvent',
      'StoreReader',
      'StoreTopic',
      'StoredAuditEntry',
      'StoredOrigin',
      'StoredRule',
      'TaskFilter',
      'TaskReader',
      'TaskRecord',
      'TaskState',
      'TaskStore',
      'TaskView',
      'VerifyReport',
    ],
  },
  './server': {
    values: [
      'DEFAULT_PORT',
      'configSchema',
      'createApp',
      'createToken',
      'loadConfig',
      'startServer',
    ],
    types: [
      'ConfigFlags',
      'ConfigResult',
      'Identity',
      'Permission',
      'RunningServer',
      'ServerConfig',
      'ServerContext',
      'ServerState',
      'StartOptions',
      'TokenRequest',
    ],
  },
  './gateway': {
    values: [
      'Gateway',
      'GatewayStartError',
      'connectedDecider',
      'loadGatewayConfig',
      'mcpServer',
      'serveHttp',
      'serveStdio',
      'standaloneDecider',
      'validateGatewayConfig',
    ],
    types: [
      'CallOptions',
      'ConfigLoad',
      'Decider',
      'GatewayConfig',
      'GatewayOptions',
      'HttpGateway',
    ],
  },
  './instance': {
    values: [
      'createAgent',
      'inspectorSettings',
      'listInstanceAgents',
      'parseAgentSettings',
      'readAgent',
      'supervisorWarnings',
    ],
    types: ['AgentSettings', 'InspectorSettings', 'InstanceAgent', 'NewAgent'],
  },
  './inspector': {
    values: [
      'DEFAULT_MAX_RESPONSE_BYTES',
      'DEFAULT_THRESHOLDS',
      'FINDING_KINDS',
      'INSPECTOR_ACTIONS',
      'INSPECTOR_TOOL',
      'Inspector',
      'ReportsSettingsSchema',
      'ThresholdsSchema',
      'buildReport',
      'computeFindings',
      'inspectorMcpServer',
      'inspectorTools',
      'loadSupervisor',
      'messageHumanTool',
      'parseThresholds',
      'parseWindow',
      'renderMarkdown',
      'runReports',
      'serveInspectorStdio',
      'startReportScheduler',
      'storeReport',
    ],
    types: [
      'EvidenceReader',
      'Finding',
      'FindingKind',
      'InspectorAction',
      'InspectorAnswer',
      'InspectorOptions',
      'ReportData',
      'ReportResult',
      'ReportsSettings',
      'Severity',
      'SupervisorResult',
      'Thresholds',
    ],
  },
};

const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, { types?: string; import?: string }>;
};

/** The names a declaration file exports as types only (`export type { … }`). */
function typeNames(declarations: string): string[] {
  return [...declarations.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) =>
    (m[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe('the public API is curated', () => {
  it('the exports map offers exactly the curated subpaths, no wildcard', () => {
    expect(sorted(Object.keys(manifest.exports))).toEqual(sorted(Object.keys(API)));
  });

  for (const [subpath, curated] of Object.entries(API)) {
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;

    it(`\`${specifier}\` has built code and its types`, () => {
      const entry = manifest.exports[subpath];
      expect(entry?.import).toMatch(/^\.\/dist\/.+\.js$/);
      expect(entry?.types).toBe(entry?.import?.replace(/\.js$/, '.d.ts'));
      expect(existsSync(join(PACKAGE, entry?.import ?? ''))).toBe(true);
      expect(existsSync(join(PACKAGE, entry?.types ?? ''))).toBe(true);
    });

    it(`\`${specifier}\` exports exactly its curated values`, async () => {
      const module = (await import(specifier)) as Record<string, unknown>;
      expect(sorted(Object.keys(module))).toEqual(sorted(curated.values));
    });

    it(`\`${specifier}\` exports exactly its curated types`, () => {
      const declarations = readFileSync(
        join(PACKAGE, manifest.exports[subpath]?.types ?? ''),
        'utf8',
      );
      expect(sorted(typeNames(declarations))).toEqual(sorted(curated.types));
    });
  }
});
