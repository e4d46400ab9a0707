// `warden`: gate an agent's own tools. Open Warden on a data folder (or
// Postgres), store a policy, register tools and call them through the gate.
// The rest of the library is under subpaths: `warden/store`, `warden/server`,
// `warden/gateway`, `warden/instance` and `warden/inspector`.

// Warden and its gate.
export type { PolicyWriteResult, WardenOptions } from './warden.js';
export { Warden, openWarden } from './warden.js';
export type {
  ApprovalSummary,
  CallContext,
  CallOutcome,
  DecideOptions,
  Gate,
  GateAsk,
  GateDecision,
  GateOptions,
} from './gate/gate.js';
export type { FaultCode } from './gate/fault.js';
export { FAIL_CLOSED_RULE, GateFault } from './gate/fault.js';
export type { DelegateAsk, DelegateResult } from './gate/delegation.js';
export type {
  AnswerInput,
  AnswerResult,
  ApprovalBroker,
  Approver,
  ApproverChannel,
  BrokerOptions,
} from './approvals/broker.js';

// The decision, as the engine makes it.
export type {
  ActionClass,
  ActionRequest,
  Autonomy,
  Decision,
  DecisionResult,
  Issue,
  PathSegment,
  Policy,
  RequestArgs,
} from '@warden/engine';
// An issue keeps its place as data; these write it out as the API and the CLI print it.
export { ACTION_CLASSES, formatPath, isActionClass, issueText } from '@warden/engine';

// Tools: the registry every call passes through, and the built-in tools.
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
export type { BuiltinClasses, BuiltinName, BuiltinOptions } from './tools/builtin/index.js';
export { BUILTIN_CLASSES, builtinTools, registerBuiltins } from './tools/builtin/index.js';
export type { SandboxMode, SandboxProbe } from './sandbox/runtime.js';
export { closeSandbox, probeSandbox } from './sandbox/runtime.js';

// The one path confinement a tool of your own reads and writes through (I5).
export type {
  Confinement,
  ConfinementOptions,
  PathCode,
  PathProblem,
  PathResult,
} from './paths/index.js';
export {
  checkLexical,
  confinement,
  listConfined,
  readConfined,
  trashConfined,
  worktreeConfinement,
  writeConfined,
} from './paths/index.js';
