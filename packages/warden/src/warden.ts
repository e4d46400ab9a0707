// The library API: open Warden on a data folder (or Postgres), store a
// policy, and gate an agent's tools. Everything an operator or a TypeScript
// agent needs is reachable from here; the server and the adapters use it too.
// The facade is split by capability: each is a small module of
// `src/capabilities/` (policy, suggestions, kill switch, tool pins, runs,
// agents, tasks, tokens, audit reads, reports, grants, storage, supervisors),
// exposed here as a read-only property, and the older methods delegate to
// them. The server acts through these, never on `store` (test/layering.test.ts).

import type { ClassifierTable, OutrightDenial, Policy } from '@warden/engine';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { ApprovalBroker } from './approvals/broker.js';
import type { BrokerOptions } from './approvals/broker.js';
import type { Suggestion } from './approvals/suggest.js';
import { Redactor } from './audit/redact.js';
import type { Redact } from './audit/records.js';
import { AuditWriter } from './audit/writer.js';
import { Agents } from './capabilities/agents.js';
import type { KnownAgent } from './capabilities/agents.js';
import { AuditLog } from './capabilities/audit.js';
import { ChangeLog } from './capabilities/changes.js';
import { Grants } from './capabilities/grants.js';
import { KillSwitch } from './capabilities/killswitch.js';
import type { ListedFreeze } from './capabilities/killswitch.js';
import { PolicyAdmin } from './capabilities/policy.js';
import type { PolicyWriteResult } from './capabilities/policy.js';
import { Reports } from './capabilities/reports.js';
import { Runs } from './capabilities/runs.js';
import type { StepInput } from './capabilities/runs.js';
import { Storage } from './capabilities/storage.js';
import { Suggestions } from './capabilities/suggestions.js';
import type { SuggestionWindow } from './capabilities/suggestions.js';
import { Supervisors } from './capabilities/supervisors.js';
import type { InspectorResult, SupervisorToolsResult } from './capabilities/supervisors.js';
import { Tasks } from './capabilities/tasks.js';
import { Tokens } from './capabilities/tokens.js';
import { ToolPins } from './capabilities/tool-pins.js';
import { agentCredentials } from './instance/credentials.js';
import type { DelegateAsk, DelegateResult } from './gate/delegation.js';
import type { CallContext } from './gate/gate.js';
import { Gate } from './gate/gate.js';
import { GateFault, faultMessage } from './gate/fault.js';
import type { ManagedFile, PolicySource } from './gate/snapshot.js';
import { DEFAULT_REFRESH_MS, FilePolicySource, StorePolicySource } from './gate/snapshot.js';
import type { PinCheck, ToolDefinition } from './gateway/pins.js';
import { DEFAULT_DATA, openStore, storeOptionsFromEnv } from './store/open.js';
import type {
  FreezeRecord,
  ToolPinRecord,
  RunRecord,
  RunStep,
  Store,
  StoredRule,
} from './store/types.js';
import { ToolRegistry } from './tools/registry.js';
import { newId as ulid } from './ids.js';
import { Registrations } from './store/registrations.js';

export type { KnownAgent } from './capabilities/agents.js';
export type { ListedFreeze } from './capabilities/killswitch.js';
export type { PolicyWriteResult } from './capabilities/policy.js';

export interface WardenOptions {
  /** The data folder: the SQLite database and the agents' folders (default `./.warden`). */
  readonly data?: string;
  /** Postgres for multi-node deployments; default: DATABASE_URL from `env`. */
  readonly databaseUrl?: string;
  readonly schema?: string;
  /** SQLite: write the audit log from a thread of its own (default); false for a process that records a call or two. */
  readonly auditThread?: boolean;
  /** A store opened elsewhere; Warden does not close it. */
  readonly store?: Store;
  /** Standalone: decide from this policy file instead of the stored policy. */
  readonly policyFile?: string;
  /** The managed layer's file; default: WARDEN_MANAGED_POLICY from `env` (G29). */
  readonly managedPolicyFile?: string | null;
  readonly env?: NodeJS.ProcessEnv;
  readonly clock?: () => number;
  readonly approvals?: BrokerOptions;
  /** Literal credentials to redact besides those in the agents' settings. */
  readonly secrets?: Iterable<string>;
  /** How long a policy snapshot is trusted before its version is read again (default 250 ms). */
  readonly refreshMs?: number;
  /** How long reading the policy or recording a decision may take before the gate denies (default 10 s). */
  readonly deadlineMs?: number;
  readonly classifier?: ClassifierTable;
  /** Where Warden reports faults (it still fails closed); default: pino on stderr at WARDEN_LOG_LEVEL or `warn`. */
  readonly logger?: Logger;
}

export { agentCredentials } from './instance/credentials.js';

export class Warden {
  readonly store: Store;
  readonly gate: Gate;
  readonly approvals: ApprovalBroker;
  readonly writer: AuditWriter;
  /** Where each agent is registered, kept as long as a policy snapshot is trusted. */
  readonly registrations: Registrations;
  readonly data: string;
  readonly logger: Logger;
  /** The managed layer's file when one pins it (G29); null when the stored managed layer applies. */
  readonly managedFile: ManagedFile | null;
  /** The classifier decisions use; undefined: the built-in table. */
  readonly classifier: ClassifierTable | undefined;
  // ─── Capabilities: one small module each (src/capabilities/) ─────────────
  /** Policy revisions (workspace and managed), remembered rules, and their reads. */
  readonly policy: PolicyAdmin;
  /** Rules suggested from prompts approved once, again and again. */
  readonly ruleSuggestions: Suggestions;
  /** Freezing and thawing agents and workspaces, and what a freeze denies. */
  readonly killSwitch: KillSwitch;
  /** The gateway's downstream tools, pinned by their definition. */
  readonly toolPins: ToolPins;
  /** Runs, their receipts, and delegation. */
  readonly runs: Runs;
  /** Agents: their registrations and folders. */
  readonly agents: Agents;
  /** The taskboard. */
  readonly tasks: Tasks;
  /** API tokens. */
  readonly tokens: Tokens;
  /** Reads of the audit log, and recording how a call ended. */
  readonly audit: AuditLog;
  /** Supervisors' reports and messages for the human. */
  readonly reports: Reports;
  /** Granted commands: the grant key, and checking and claiming a grant. */
  readonly grants: Grants;
  /** Where the data lives, and whether the store answers. */
  readonly storage: Storage;
  /** Supervisors: their inspector and read-only registry. */
  readonly supervisors: Supervisors;
  private redactor: Redactor;
  private readonly clock: () => number;
  private readonly ownsStore: boolean;
  private readonly source: PolicySource;

  private constructor(parts: {
    store: Store;
    ownsStore: boolean;
    data: string;
    source: PolicySource;
    redactor: Redactor;
    clock: () => number;
    logger: Logger;
    managedFile: ManagedFile | null;
    options: WardenOptions;
  }) {
    this.managedFile = parts.managedFile;
    this.logger = parts.logger;
    this.store = parts.store;
    this.ownsStore = parts.ownsStore;
    this.data = parts.data;
    this.source = parts.source;
    this.redactor = parts.redactor;
    this.clock = parts.clock;
    this.classifier = parts.options.classifier;
    const redact: Redact = (value, basePath) => this.redactor.redact(value, basePath);
    // Postgres links every batch after the chain's head under a row lock, so batches of one
    // server commit one after another anyway: one at a time, and everything that arrives
    // meanwhile joins the next (group commit), instead of many small transactions queueing
    // for the lock and the pool's connections.
    this.writer = new AuditWriter(
      parts.store.audit,
      parts.store.backend === 'postgres' ? { maxInFlight: 1, maxBatch: 512 } : {},
    );
    this.registrations = new Registrations(
      parts.store,
      parts.clock,
      parts.options.refreshMs ?? DEFAULT_REFRESH_MS,
    );
    this.approvals = new ApprovalBroker(parts.store, this.writer, redact, {
      clock: parts.clock,
      ...parts.options.approvals,
    });
    this.gate = new Gate({
      store: parts.store,
      source: parts.source,
      writer: this.writer,
      broker: this.approvals,
      redact,
      clock: parts.clock,
      ...(parts.options.deadlineMs === undefined ? {} : { deadlineMs: parts.options.deadlineMs }),
      ...(parts.options.classifier === undefined ? {} : { classifier: parts.options.classifier }),
      onFault: (error, context) =>
        parts.logger.warn(
          {
            agent: context.agent,
            workspace: context.workspace,
            source: context.source,
            code: error instanceof GateFault ? error.code : 'internal',
          },
          `denied (fail-closed): ${this.redactor.redactText(faultMessage(error)).text}`,
        ),
    });
    const { store, clock, source, data } = parts;
    const changes = new ChangeLog(this.writer, clock);
    const redactor = (): Redactor => this.redactor;
    this.policy = new PolicyAdmin({ store, source, clock, changes });
    this.agents = new Agents({ store, data, clock });
    this.ruleSuggestions = new Suggestions({
      store,
      source,
      clock,
      approvals: this.approvals,
      agents: this.agents,
      policy: this.policy,
    });
    this.killSwitch = new KillSwitch({
      store,
      source,
      clock,
      changes,
      approvals: this.approvals,
      redactor,
    });
    this.toolPins = new ToolPins({ store, clock, changes, policy: this.policy });
    this.runs = new Runs({ store, gate: this.gate, clock });
    this.tasks = new Tasks({ store, clock });
    this.tokens = new Tokens({ store, clock });
    this.audit = new AuditLog({ store, gate: this.gate });
    this.reports = new Reports({ store });
    this.grants = new Grants({ store, gate: this.gate });
    this.storage = new Storage({ store });
    this.supervisors = new Supervisors({
      store,
      data,
      clock,
      redactor,
      tools: (context) => this.tools(context),
    });
  }

  static async open(options: WardenOptions = {}): Promise<Warden> {
    const env = options.env ?? process.env;
    const data = options.data ?? DEFAULT_DATA;
    const clock = options.clock ?? Date.now;
    const store =
      options.store ??
      (await openStore({
        ...storeOptionsFromEnv(env, data),
        ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        ...(options.auditThread === undefined ? {} : { auditThread: options.auditThread }),
      }));
    const managedPath =
      options.managedPolicyFile !== undefined
        ? options.managedPolicyFile
        : (env.WARDEN_MANAGED_POLICY ?? null);
    const managed: ManagedFile | null =
      managedPath === null || managedPath === ''
        ? null
        : { file: managedPath, source: options.managedPolicyFile !== undefined ? 'flag' : 'env' };
    const logger =
      options.logger ??
      pino({ name: 'warden', level: env.WARDEN_LOG_LEVEL ?? 'warn' }, pino.destination(2));
    const source: PolicySource =
      options.policyFile === undefined
        ? new StorePolicySource(store, {
            managedFile: managed,
            clock,
            ...(options.refreshMs === undefined ? {} : { refreshMs: options.refreshMs }),
            onSkipped: (workspace, skipped) =>
              logger.warn(
                { workspace, skipped },
                'stored rules left out of the policy (this only tightens)',
              ),
          })
        : new FilePolicySource(options.policyFile, managed);
    const redactor = new Redactor({
      literals: [...agentCredentials(data), ...(options.secrets ?? [])],
    });
    return new Warden({
      store,
      ownsStore: options.store === undefined,
      data,
      source,
      redactor,
      clock,
      logger,
      managedFile: managed,
      options,
    });
  }

  /** Adds literal credentials to redact from now on (e.g. an agent's new settings). */
  addSecrets(literals: Iterable<string>): void {
    this.redactor = this.redactor.withLiterals(literals);
  }

  /** A registry for one agent's tools: every call is stamped with `context` and passes the gate. */
  tools(context: CallContext): ToolRegistry {
    return new ToolRegistry(
      this.gate,
      context,
      () => ulid(),
      (message) =>
        this.logger.error({ agent: context.agent, workspace: context.workspace }, message),
    );
  }

  /**
   * The AgentInspector for `supervisor` (inspector.md): an agent of this
   * instance (`<data>/agents/<id>/`) whose settings give it
   * `tools.agentInspector`; anything less is refused with every problem. It
   * reads this Warden's store through its reader side and redacts with the
   * audit log's redactor.
   */
  inspector(supervisor: string): Promise<InspectorResult> {
    return this.supervisors.inspector(supervisor);
  }

  /**
   * A supervisor's registry (inspector.md §4, I7, I10): the six read-only
   * inspector actions and `messageHuman`, nothing that acts.
   */
  supervisorTools(
    supervisor: string,
    context: Omit<CallContext, 'agent'>,
  ): Promise<SupervisorToolsResult> {
    return this.supervisors.tools(supervisor, context);
  }

  // ─── Policy (`warden.policy`) ────────────────────────────────────────────

  /** Validates and stores a new revision of a workspace's policy; nothing half-loads. */
  putPolicy(
    document: unknown,
    by: { readonly author: string; readonly message?: string; readonly expected?: number | null },
  ): Promise<PolicyWriteResult> {
    return this.policy.put(document, by);
  }

  /** Stores a new revision of the managed layer (ignored while WARDEN_MANAGED_POLICY names a file, G29). */
  putManagedPolicy(
    document: unknown,
    by: { readonly author: string; readonly message?: string },
  ): Promise<PolicyWriteResult> {
    return this.policy.putManaged(document, by);
  }

  /** The policy as decisions read it now: the document with its live remembered rules. */
  effectivePolicy(workspace: string): Promise<Policy> {
    return this.policy.effective(workspace);
  }

  /** Remembered rules with origin and expiry (G23). */
  rules(
    workspace: string,
    options: { readonly includeRevoked?: boolean } = {},
  ): Promise<StoredRule[]> {
    return this.policy.rules(workspace, options);
  }

  /** Revokes a remembered rule before it expires (G23). */
  revokeRule(workspace: string, id: string, by: string): Promise<StoredRule | null> {
    return this.policy.revokeRule(workspace, id, by);
  }

  // ─── Suggestions (`warden.suggestions`) ──────────────────────────────────

  /**
   * Prompts approved once again and again since `sinceMs`, as suggested
   * rules with their blast radius over the decisions of that time.
   */
  suggestions(workspace: string, options: SuggestionWindow): Promise<Suggestion[]> {
    return this.ruleSuggestions.list(workspace, options);
  }

  /**
   * Writes a suggestion's rules into the workspace's policy as its next
   * revision; null when no suggestion of that id stands (any more).
   */
  acceptSuggestion(
    workspace: string,
    id: string,
    by: string,
    options: SuggestionWindow,
  ): ReturnType<Suggestions['accept']> {
    return this.ruleSuggestions.accept(workspace, id, by, options);
  }

  // ─── Kill switch (`warden.killSwitch`) ───────────────────────────────────

  /**
   * The kill switch: from now on every decision for the agent — or, with
   * `agent` null, for every agent of the workspace — is a hard deny naming
   * the freeze, and each of its prompts still waiting is denied. Recorded
   * in the audit log as a change. An agent frozen already stays frozen as
   * it was.
   */
  freeze(
    workspace: string,
    agent: string | null,
    by: string,
    reason: string | null,
  ): Promise<{ readonly freeze: FreezeRecord; readonly denied: readonly string[] }> {
    return this.killSwitch.freeze(workspace, agent, by, reason);
  }

  /**
   * The classes whose every call is a hard deny for this agent where it acts
   * now, with why: a frozen agent is denied them all. Nothing is recorded:
   * it decides no call.
   */
  outrightDenials(
    workspace: string,
    agent: string,
    placement: { readonly space?: string; readonly mode?: string } = {},
  ): Promise<OutrightDenial[]> {
    return this.killSwitch.outrightDenials(workspace, agent, placement);
  }

  /**
   * The agents of a workspace that the permissions matrix gives a column:
   * the registered ones, and those of the data folder (`warden agent create`)
   * whose settings name the workspace or none, sorted by id.
   */
  knownAgents(workspace: string): Promise<KnownAgent[]> {
    return this.agents.known(workspace);
  }

  /** The freezes in force in a workspace: the managed policy's first, then the admins'. */
  freezes(workspace: string): Promise<ListedFreeze[]> {
    return this.killSwitch.list(workspace);
  }

  /**
   * Why an admin cannot thaw what the managed policy froze (the agent, or
   * with `agent` null the workspace), or null when it froze neither.
   */
  managedThawRefusal(workspace: string, agent: string | null): Promise<string | null> {
    return this.killSwitch.managedThawRefusal(workspace, agent);
  }

  /** Ends a freeze; null when the agent (or the workspace) was not frozen. */
  thaw(workspace: string, agent: string | null, by: string): Promise<FreezeRecord | null> {
    return this.killSwitch.thaw(workspace, agent, by);
  }

  // ─── Tool pins (`warden.toolPins`) ───────────────────────────────────────

  /**
   * A downstream tool as the gateway lists it: pinned by its definition the
   * first time, let through while its definition is the pinned one, and
   * refused once it differs until an admin accepts the new definition. A new
   * definition is recorded in the audit log the first time it is seen.
   */
  seeTool(
    workspace: string,
    tool: string,
    definition: ToolDefinition,
    by: string,
  ): Promise<PinCheck> {
    return this.toolPins.see(workspace, tool, definition, by);
  }

  /**
   * Accepts a tool's changed definition; null when none waits. Given the hash of the one the
   * admin reviewed, a definition that changed again since is not accepted: `changed` names the
   * one waiting now.
   */
  acceptTool(
    workspace: string,
    tool: string,
    by: string,
    reviewed?: string,
  ): Promise<ToolPinRecord | null | { readonly changed: string }> {
    return this.toolPins.accept(workspace, tool, by, reviewed);
  }

  // ─── Runs, receipts and delegation (`warden.runs`) ───────────────────────

  /** Starts a run nobody delegated: it acts at its space's autonomy. */
  startRun(
    context: CallContext,
    options: { readonly taskId?: string; readonly budgetCents?: number; readonly id?: string } = {},
  ): Promise<RunRecord> {
    return this.runs.start(context, options);
  }

  /** Adds a step (tokens, cost) to a run's receipt (I2). */
  recordStep(runId: string, step: StepInput): Promise<RunStep> {
    return this.runs.step(runId, step);
  }

  /** The `delegate_task` choke point: four guards, then the delegate's run (G33–G36). */
  delegate(context: CallContext, ask: DelegateAsk): Promise<DelegateResult> {
    return this.runs.delegate(context, ask);
  }

  /** Finishes pending work: open approval channels close, queued audit entries are written. */
  async close(): Promise<void> {
    this.registrations.close();
    await this.approvals.close();
    await this.writer.close();
    this.source.close();
    if (this.ownsStore) await this.store.close();
  }
}

export function openWarden(options: WardenOptions = {}): Promise<Warden> {
  return Warden.open(options);
}
