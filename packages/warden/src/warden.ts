// The library API: open Warden on a data folder (or Postgres), store a
// policy, and gate an agent's tools. Everything an operator or a TypeScript
// agent needs is reachable from here; the server and the adapters use it too.

import type { Autonomy, ClassifierTable, Issue, OutrightDenial, Policy } from '@warden/engine';
import {
  checkExamples,
  compilePolicy,
  managedFreezes,
  outrightDenials,
  validatePolicy,
} from '@warden/engine';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { ApprovalBroker } from './approvals/broker.js';
import type { BrokerOptions } from './approvals/broker.js';
import { Redactor } from './audit/redact.js';
import { agentCredentials } from './instance/credentials.js';
import { listInstanceAgents } from './instance/agents.js';
import type { Redact } from './audit/records.js';
import type { ChangeRecord } from './audit/records.js';
import { changeEntry } from './audit/records.js';
import { AuditWriter } from './audit/writer.js';
import { autonomyOf, delegate } from './gate/delegation.js';
import type { DelegateAsk, DelegateResult } from './gate/delegation.js';
import type { CallContext } from './gate/gate.js';
import { Gate } from './gate/gate.js';
import { GateFault, faultMessage } from './gate/fault.js';
import type { ManagedFile, PolicySource } from './gate/snapshot.js';
import {
  DEFAULT_REFRESH_MS,
  FilePolicySource,
  StorePolicySource,
  agentKey,
  freezeOf,
} from './gate/snapshot.js';
import type { PinCheck, ToolDefinition } from './gateway/pins.js';
import type { PastDecision, Suggestion } from './approvals/suggest.js';
import { suggestRules, suggestedRules } from './approvals/suggest.js';
import {
  MAX_DEFINITION_DEPTH,
  changedReason,
  definitionHash,
  nestedDeeperThan,
} from './gateway/pins.js';
import { computeMatrix, matrixChanges, matrixColumns } from './permissions/matrix.js';
import { driftedScopes } from './permissions/policy-diff.js';
import { DEFAULT_DATA, openStore, storeOptionsFromEnv } from './store/open.js';
import type {
  FreezeRecord,
  JsonValue,
  ToolPinRecord,
  PolicyRevision,
  RunRecord,
  RunStep,
  Store,
  StoredRule,
} from './store/types.js';
import { ToolRegistry } from './tools/registry.js';
import type { Inspector } from './inspector/inspector.js';
import type { InstanceAgent } from './instance/index.js';
import { newId as ulid } from './ids.js';
import { Registrations } from './store/registrations.js';

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

const MANAGED_FROM = {
  flag: 'the file given with `--managed`',
  env: 'the file WARDEN_MANAGED_POLICY names',
  store: 'the stored managed policy',
} as const;

/** An agent the permissions matrix gives a column. */
export interface KnownAgent {
  readonly id: string;
  readonly name: string | null;
  /** The space it is registered in; null for none (or an agent known only from its folder). */
  readonly space: string | null;
  /** The mode it is registered in; null for none. */
  readonly mode: string | null;
}

/** A freeze in force, as listed: an admin's, or one the managed policy writes. */
export interface ListedFreeze extends Omit<FreezeRecord, 'frozenAt'> {
  /** null: the managed policy does not say since when. */
  readonly frozenAt: string | null;
  /** Written in the managed policy: only the installation operator lifts it. */
  readonly managed: boolean;
}

export type PolicyWriteResult =
  | { readonly ok: true; readonly revision: PolicyRevision }
  | { readonly ok: false; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly conflict: { readonly current: number | null } };

export { agentCredentials } from './instance/credentials.js';

/** Approvals and decisions a suggestion is computed from, at most. */
const SUGGEST_LIMIT = 5000;

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
  async inspector(supervisor: string): Promise<
    | {
        readonly ok: true;
        readonly inspector: Inspector;
        readonly agent: InstanceAgent;
        readonly warnings: readonly string[];
      }
    | { readonly ok: false; readonly problems: readonly string[] }
  > {
    // Loaded on demand: the inspector reads this module's credential helper.
    const { loadSupervisor, Inspector } = await import('./inspector/index.js');
    const loaded = await loadSupervisor(this.data, supervisor);
    if (!loaded.ok) return loaded;
    const inspector = new Inspector({
      data: this.data,
      store: this.store,
      supervisor,
      settings: loaded.settings,
      redactor: this.redactor,
      clock: this.clock,
    });
    return { ok: true, inspector, agent: loaded.agent, warnings: loaded.warnings };
  }

  /**
   * A supervisor's registry (inspector.md §4, I7, I10): the six read-only
   * inspector actions and `messageHuman`, nothing that acts.
   */
  async supervisorTools(
    supervisor: string,
    context: Omit<CallContext, 'agent'>,
  ): Promise<
    | { readonly ok: true; readonly tools: ToolRegistry; readonly warnings: readonly string[] }
    | { readonly ok: false; readonly problems: readonly string[] }
  > {
    const made = await this.inspector(supervisor);
    if (!made.ok) return made;
    const { inspectorTools } = await import('./inspector/index.js');
    const { messageHumanTool } = await import('./report/message-human.js');
    const tools = this.tools({ ...context, agent: supervisor });
    for (const tool of inspectorTools(made.inspector)) tools.register(tool);
    tools.register(
      messageHumanTool(this.store.reports, {
        supervisor,
        workspace: made.agent.workspace ?? context.workspace,
        clock: this.clock,
        redact: (text) => this.redactor.redactText(text).text,
      }),
    );
    return { ok: true, tools, warnings: made.warnings };
  }

  // ─── Policy ──────────────────────────────────────────────────────────────

  /** Validates and stores a new revision of a workspace's policy; nothing half-loads. */
  async putPolicy(
    document: unknown,
    by: { readonly author: string; readonly message?: string; readonly expected?: number | null },
  ): Promise<PolicyWriteResult> {
    const validated = validatePolicy(document, 'workspace');
    if (!validated.ok) return { ok: false, issues: validated.issues };
    const wrong = checkExamples(compilePolicy(validated.value), { at: this.clock() });
    if (wrong.length > 0) return { ok: false, issues: wrong };
    const workspace = validated.value.workspace as string;
    const previous = await this.store.policies.current(workspace);
    const written = await this.store.policies.put(workspace, {
      document: document as JsonValue,
      author: by.author,
      ...(by.message === undefined ? {} : { message: by.message }),
      ...(by.expected === undefined ? {} : { expected: by.expected }),
      at: this.clock(),
    });
    if (!written.ok) return written;
    await this.recordChange(workspace, 'policy-revision', by.author, {
      revision: written.revision.revision,
      hash: written.revision.hash,
      message: written.revision.message,
    });
    if (previous !== null) {
      const drifted = driftedScopes(previous.document, document as JsonValue);
      if (drifted.size > 0)
        await this.expireDrifted(
          workspace,
          (rule) => drifted.has(rule.scope),
          `revision ${written.revision.revision} of the policy changed its scope`,
        );
    }
    return written;
  }

  /**
   * A remembered approval holds only for what it was granted for: the live
   * remembered rules `drifted` picks are revoked, each recorded with why.
   */
  private async expireDrifted(
    workspace: string,
    drifted: (rule: StoredRule) => boolean | Promise<boolean>,
    because: string,
  ): Promise<void> {
    const live = await this.store.rules.list(workspace, { at: this.clock() });
    for (const rule of live) {
      if (rule.origin !== 'remembered' || !(await drifted(rule))) continue;
      const revoked = await this.store.rules.revoke(workspace, rule.id, 'warden', this.clock());
      if (revoked !== null)
        await this.recordChange(workspace, 'rule-revoked', 'warden', { rule: rule.id, because });
    }
  }

  /** Stores a new revision of the managed layer (ignored while WARDEN_MANAGED_POLICY names a file, G29). */
  async putManagedPolicy(
    document: unknown,
    by: { readonly author: string; readonly message?: string },
  ): Promise<PolicyWriteResult> {
    const validated = validatePolicy(document, 'managed');
    if (!validated.ok) return { ok: false, issues: validated.issues };
    const wrong = checkExamples(compilePolicy(validated.value), { at: this.clock() });
    if (wrong.length > 0) return { ok: false, issues: wrong };
    const written = await this.store.policies.putManaged({
      document: document as JsonValue,
      author: by.author,
      ...(by.message === undefined ? {} : { message: by.message }),
      at: this.clock(),
    });
    if (!written.ok) return written;
    await this.recordChange(null, 'managed-revision', by.author, {
      revision: written.revision.revision,
      hash: written.revision.hash,
    });
    return written;
  }

  /** The policy as decisions read it now: the document with its live remembered rules. */
  async effectivePolicy(workspace: string): Promise<Policy> {
    return (await this.source.snapshot(workspace)).compiled.policy;
  }

  /** Remembered rules with origin and expiry (G23). */
  rules(
    workspace: string,
    options: { readonly includeRevoked?: boolean } = {},
  ): Promise<StoredRule[]> {
    return this.store.rules.list(
      workspace,
      options.includeRevoked === true ? { includeRevoked: true } : { at: this.clock() },
    );
  }

  /**
   * Prompts approved once again and again since `sinceMs`, as suggested
   * rules with their blast radius over the decisions of that time.
   */
  async suggestions(
    workspace: string,
    options: { readonly sinceMs: number; readonly min?: number },
  ): Promise<Suggestion[]> {
    const [approvals, entries, snapshot] = await Promise.all([
      this.approvals.list({ workspace, state: 'approved', kind: 'prompt', limit: SUGGEST_LIMIT }),
      this.store.audit.query({
        workspace,
        kinds: ['decision'],
        sinceMs: options.sinceMs,
        order: 'oldest',
        limit: SUGGEST_LIMIT,
      }),
      this.source.snapshot(workspace),
    ]);
    // A decision's last entry is its word (after an approval, the approver's outcome).
    const last = new Map<string, (typeof entries)[number]>();
    for (const entry of entries)
      last.set(typeof entry.decisionId === 'string' ? entry.decisionId : String(entry.id), entry);
    const decisions: PastDecision[] = [...last].map(([id, entry]) => ({
      id,
      agent: String(entry.agentId ?? ''),
      tool: typeof entry.tool === 'string' ? entry.tool : null,
      outcome: String(entry.outcome ?? ''),
      // The entry records the request without who asked: the entry says that.
      request:
        entry.request !== null && typeof entry.request === 'object' && !Array.isArray(entry.request)
          ? { ...entry.request, workspace, agent: String(entry.agentId ?? '') }
          : null,
    }));
    const at = this.clock();
    const known = await this.knownAgents(workspace);
    return suggestRules(
      approvals.filter((a) => Date.parse(a.createdAt) >= options.sinceMs),
      snapshot.compiled,
      decisions,
      {
        at,
        ...(options.min === undefined ? {} : { min: options.min }),
        // The same columns on both sides: the rules' scope may be a column only they name.
        cells: (withRules) => {
          const columns = matrixColumns(withRules, snapshot.managed, known);
          return matrixChanges(
            computeMatrix(snapshot.compiled, snapshot.managed, columns, at),
            computeMatrix(withRules, snapshot.managed, columns, at),
          );
        },
      },
    );
  }

  /**
   * Writes a suggestion's rules into the workspace's policy as its next
   * revision; null when no suggestion of that id stands (any more).
   */
  async acceptSuggestion(
    workspace: string,
    id: string,
    by: string,
    options: { readonly sinceMs: number; readonly min?: number },
  ): Promise<
    | { readonly ok: true; readonly suggestion: Suggestion; readonly revision: PolicyRevision }
    | { readonly ok: false; readonly problem: string }
    | null
  > {
    const suggestion = (await this.suggestions(workspace, options)).find((s) => s.id === id);
    if (suggestion === undefined) return null;
    const current = await this.store.policies.current(workspace);
    if (current === null) return { ok: false, problem: `no policy is stored for \`${workspace}\`` };
    const document = current.document as { rules?: unknown[] };
    const written = await this.putPolicy(
      { ...document, rules: [...(document.rules ?? []), ...suggestedRules(suggestion)] },
      {
        author: by,
        message: `accepted suggestion ${id}: ${suggestion.approvals} prompts approved once`,
        expected: current.revision,
      },
    );
    if (!written.ok)
      return {
        ok: false,
        problem:
          'conflict' in written
            ? 'another revision was written meanwhile: look at the suggestions again'
            : written.issues.map((i) => `${i.path}: ${i.message}`).join('; '),
      };
    return { ok: true, suggestion, revision: written.revision };
  }

  /** Revokes a remembered rule before it expires (G23). */
  async revokeRule(workspace: string, id: string, by: string): Promise<StoredRule | null> {
    const revoked = await this.store.rules.revoke(workspace, id, by, this.clock());
    if (revoked !== null) await this.recordChange(workspace, 'rule-revoked', by, { rule: id });
    return revoked;
  }

  /**
   * The kill switch: from now on every decision for the agent — or, with
   * `agent` null, for every agent of the workspace — is a hard deny naming
   * the freeze, and each of its prompts still waiting is denied. Recorded
   * in the audit log as a change. An agent frozen already stays frozen as
   * it was.
   */
  async freeze(
    workspace: string,
    agent: string | null,
    by: string,
    reason: string | null,
  ): Promise<{ readonly freeze: FreezeRecord; readonly denied: readonly string[] }> {
    const given = reason?.trim() ?? '';
    // Shown to agents in every deny: redacted like everything else.
    const redacted = given === '' ? null : (this.redactor.redact(given, 'reason').value as string);
    const freeze = await this.store.freezes.freeze(
      { workspace, agent, by, reason: redacted },
      this.clock(),
    );
    this.source.invalidate(workspace);
    await this.recordChange(workspace, 'agent-frozen', by, {
      agent,
      reason: freeze.reason,
      frozenAt: freeze.frozenAt,
    });
    // The agent's waiting prompts, its id compared as the freeze compares it (one Unicode form).
    const waiting = (
      await this.approvals.list({ workspace, state: 'pending', limit: 10_000 })
    ).filter((approval) => agent === null || agentKey(approval.agent) === agentKey(agent));
    const what = agent === null ? 'every agent of the workspace is' : `agent \`${agent}\` is`;
    const denied: string[] = [];
    for (const approval of waiting) {
      const answered = await this.approvals.answer(
        approval.id,
        { kind: 'deny', reason: `${what} frozen` },
        { name: by, roles: ['approver', 'overrider'], workspace },
      );
      if (answered.ok) denied.push(approval.id);
    }
    return { freeze, denied };
  }

  /**
   * The classes whose every call is a hard deny for this agent where it acts
   * now, with why: a frozen agent is denied them all. Nothing is recorded:
   * it decides no call.
   */
  async outrightDenials(
    workspace: string,
    agent: string,
    placement: { readonly space?: string; readonly mode?: string } = {},
  ): Promise<OutrightDenial[]> {
    const snapshot = await this.source.snapshot(workspace);
    return outrightDenials({
      policy: snapshot.compiled,
      managed: snapshot.managed,
      agent,
      ...placement,
      at: this.clock(),
      frozen: freezeOf(snapshot, agent),
    });
  }

  /**
   * The agents of a workspace that the permissions matrix gives a column:
   * the registered ones, and those of the data folder (`warden agent create`)
   * whose settings name the workspace or none, sorted by id.
   */
  async knownAgents(workspace: string): Promise<KnownAgent[]> {
    const [registered, onDisk] = await Promise.all([
      this.store.agents.list(workspace),
      listInstanceAgents(this.data),
    ]);
    const byId = new Map<string, KnownAgent>();
    for (const a of onDisk)
      if (a.workspace === null || a.workspace === workspace)
        byId.set(a.id, { id: a.id, name: a.settings?.name ?? null, space: null, mode: null });
    for (const a of registered)
      byId.set(a.id, { id: a.id, name: a.name, space: a.space, mode: a.mode });
    return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  /** The freezes in force in a workspace: the managed policy's first, then the admins'. */
  async freezes(workspace: string): Promise<ListedFreeze[]> {
    const [snapshot, stored] = await Promise.all([
      this.source.snapshot(workspace),
      this.store.freezes.list(workspace),
    ]);
    const managed: ListedFreeze[] = managedFreezes(snapshot.managed?.policy ?? null, workspace).map(
      ({ agent, freeze }) => ({
        workspace,
        agent,
        by: freeze.by,
        reason: freeze.reason,
        frozenAt: freeze.since === null ? null : new Date(freeze.since).toISOString(),
        managed: true,
      }),
    );
    return [...managed, ...stored.map((f) => ({ ...f, managed: false }))];
  }

  /**
   * Why an admin cannot thaw what the managed policy froze (the agent, or
   * with `agent` null the workspace), or null when it froze neither.
   */
  async managedThawRefusal(workspace: string, agent: string | null): Promise<string | null> {
    const snapshot = await this.source.snapshot(workspace);
    const held = managedFreezes(snapshot.managed?.policy ?? null, workspace).find(
      (f) => f.agent === agent,
    );
    if (held === undefined) return null;
    const what = agent === null ? `workspace \`${workspace}\`` : `agent \`${agent}\``;
    return `${what} is frozen by the managed policy (\`${held.path}\` of ${MANAGED_FROM[snapshot.managedSource ?? 'store']}): only the installation operator lifts that freeze, by removing it from the managed policy`;
  }

  /** Ends a freeze; null when the agent (or the workspace) was not frozen. */
  async thaw(workspace: string, agent: string | null, by: string): Promise<FreezeRecord | null> {
    const thawed = await this.store.freezes.thaw(workspace, agent);
    if (thawed === null) return null;
    this.source.invalidate(workspace);
    await this.recordChange(workspace, 'agent-thawed', by, {
      agent,
      frozenBy: thawed.by,
      frozenAt: thawed.frozenAt,
    });
    return thawed;
  }

  /**
   * A downstream tool as the gateway lists it: pinned by its definition the
   * first time, let through while its definition is the pinned one, and
   * refused once it differs until an admin accepts the new definition. A new
   * definition is recorded in the audit log the first time it is seen.
   */
  async seeTool(
    workspace: string,
    tool: string,
    definition: ToolDefinition,
    by: string,
  ): Promise<PinCheck> {
    if (nestedDeeperThan(definition, MAX_DEFINITION_DEPTH))
      return {
        ok: false,
        reason: `the definition of \`${tool}\` nests deeper than ${MAX_DEFINITION_DEPTH} levels: refused, not pinned`,
      };
    const hash = definitionHash(definition);
    const { pin, newlyPending } = await this.store.toolPins.see(
      workspace,
      tool,
      { hash, definition: definition as unknown as JsonValue, by },
      this.clock(),
    );
    if (newlyPending) {
      await this.recordChange(workspace, 'tool-changed', by, {
        tool,
        pinnedHash: pin.hash,
        newHash: hash,
      });
      // What was approved for the tool as it was does not hold for the tool as it is now.
      await this.expireDrifted(
        workspace,
        async (rule) =>
          rule.approvalId !== null &&
          (await this.store.approvals.get(rule.approvalId))?.tool === tool,
        `the definition of \`${tool}\` changed`,
      );
    }
    if (pin.hash === hash) return { ok: true };
    return { ok: false, reason: changedReason(tool, pin.pinnedAt, hash) };
  }

  /** An admin accepts a tool's changed definition; null when none waits. */
  /**
   * Accepts a tool's changed definition. Given the hash of the one the admin reviewed, a
   * definition that changed again since is not accepted: `changed` names the one waiting now.
   */
  async acceptTool(
    workspace: string,
    tool: string,
    by: string,
    reviewed?: string,
  ): Promise<ToolPinRecord | null | { readonly changed: string }> {
    const accepted = await this.store.toolPins.accept(workspace, tool, by, this.clock(), reviewed);
    if (accepted !== null && !('changed' in accepted))
      await this.recordChange(workspace, 'tool-pin-accepted', by, { tool, hash: accepted.hash });
    return accepted;
  }

  private async recordChange(
    workspace: string | null,
    change: Exclude<ChangeRecord['change'], 'rules-remembered'>,
    by: string,
    details: { [key: string]: JsonValue },
  ): Promise<void> {
    await this.writer.append([
      changeEntry({
        id: ulid(),
        workspace,
        change,
        by,
        details,
        occurredAt: new Date(this.clock()).toISOString(),
      }),
    ]);
  }

  // ─── Runs, receipts and delegation ───────────────────────────────────────

  /** Starts a run nobody delegated: it acts at its space's autonomy. */
  async startRun(
    context: CallContext,
    options: { readonly taskId?: string; readonly budgetCents?: number; readonly id?: string } = {},
  ): Promise<RunRecord> {
    const autonomy: Autonomy = await autonomyOf(this.gate, context.workspace, context.space);
    return this.store.runs.start({
      id: options.id ?? ulid(),
      workspace: context.workspace,
      agent: context.agent,
      model: context.model ?? null,
      taskId: options.taskId ?? null,
      parentRunId: null,
      chain: [context.agent],
      depth: 0,
      autonomy,
      budgetCents: options.budgetCents ?? null,
      startedAt: new Date(this.clock()).toISOString(),
    });
  }

  /** Adds a step (tokens, cost) to a run's receipt (I2). */
  recordStep(
    runId: string,
    step: Partial<Omit<RunStep, 'runId' | 'seq' | 'at'>> & { readonly kind: string },
  ): Promise<RunStep> {
    return this.store.runs.addStep({
      runId,
      kind: step.kind,
      tool: step.tool ?? null,
      tokensIn: step.tokensIn ?? 0,
      tokensOut: step.tokensOut ?? 0,
      costCents: step.costCents ?? 0,
      note: step.note ?? null,
      at: new Date(this.clock()).toISOString(),
    });
  }

  /** The `delegate_task` choke point: four guards, then the delegate's run (G33–G36). */
  delegate(context: CallContext, ask: DelegateAsk): Promise<DelegateResult> {
    return delegate(this.gate, this.store, context, ask, { clock: this.clock });
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
