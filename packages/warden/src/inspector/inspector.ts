// The AgentInspector (inspector.md): a supervisor's read-only window onto the
// other agents of an instance — evidence first (audit, receipts, tasks), their
// allowlisted files last. It is handed only the store's read side, so it has
// no way to write (I4); every answer is validated, redacted, capped, and an
// agent it may not see is answered like one that does not exist (I8).

import { isAbsolute, resolve } from 'node:path';
import type { Redactor } from '../audit/redact.js';
import { quote } from '../paths/problem.js';
import { agentCredentials } from '../instance/credentials.js';
import type { InspectorSettings, InstanceAgent } from '../instance/index.js';
import { listAgents } from './agents.js';
import type { InspectorAnswer } from './answer.js';
import { DEFAULT_MAX_RESPONSE_BYTES, refusal } from './answer.js';
import { readAudit } from './audit.js';
import type { ActionContext, EvidenceReader } from './context.js';
import { listFiles, readFile } from './files.js';
import { readReceipts } from './receipts.js';
import type { InspectorAction } from './schemas.js';
import { ACTION_SCHEMAS, INSPECTOR_ACTIONS, parseArgs } from './schemas.js';
import { readTasks } from './tasks.js';
import type { Audience } from './visibility.js';
import { unknownAgent, visibleAgent } from './visibility.js';

export interface InspectorOptions {
  /** The instance's data folder, holding `agents/<id>/`. */
  readonly data: string;
  /** The store's read side (a `StoreReader` will do): the inspector cannot write (I4). */
  readonly store: EvidenceReader;
  /** The supervisor's agent id; its settings are `settings`. */
  readonly supervisor: string;
  /** `tools.agentInspector` of the supervisor's `AgentSettings.json`. */
  readonly settings: InspectorSettings;
  /** The audit log's redactor; the agents' current credentials are added on every call. */
  readonly redactor: Redactor;
  readonly clock: () => number;
  /** The per-response cap (I7); default 256 KiB. */
  readonly maxResponseBytes?: number;
}

/** The actions that show files: refused outright when `allowFileAccess` is false. */
const FILE_ACTIONS: ReadonlySet<InspectorAction> = new Set(['list_files', 'read_file']);

type AgentAction = Exclude<InspectorAction, 'list_agents'>;

export class Inspector {
  readonly supervisor: string;
  readonly settings: InspectorSettings;
  readonly #data: string;
  readonly #store: EvidenceReader;
  readonly #redactor: Redactor;
  readonly #clock: () => number;
  readonly #maxBytes: number;
  readonly #audience: Audience;

  constructor(options: InspectorOptions) {
    const max = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1024)
      throw new RangeError(`maxResponseBytes must be a whole number of at least 1024, not ${max}`);
    // The confinement needs an absolute root; a relative data folder is read from here once.
    this.#data = isAbsolute(options.data) ? options.data : resolve(options.data);
    this.#store = options.store;
    this.#redactor = options.redactor;
    this.#clock = options.clock;
    this.#maxBytes = max;
    this.supervisor = options.supervisor;
    this.settings = options.settings;
    this.#audience = {
      data: this.#data,
      supervisor: options.supervisor,
      observable: options.settings.observableAgents,
    };
  }

  /** Runs an action by its contracts §5 name; an unknown name is a refusal. Never throws. */
  call(action: string, args: unknown): Promise<InspectorAnswer> {
    if (!(INSPECTOR_ACTIONS as readonly string[]).includes(action))
      return Promise.resolve(
        refusal(
          `no action ${quote(action)}: the inspector's actions are ${INSPECTOR_ACTIONS.map((a) => `\`${a}\``).join(', ')}`,
        ),
      );
    return this.#run(action as InspectorAction, args);
  }

  listAgents(args: unknown = {}): Promise<InspectorAnswer> {
    return this.#run('list_agents', args);
  }
  readAudit(args: unknown): Promise<InspectorAnswer> {
    return this.#run('read_audit', args);
  }
  readReceipts(args: unknown): Promise<InspectorAnswer> {
    return this.#run('read_receipts', args);
  }
  readTasks(args: unknown): Promise<InspectorAnswer> {
    return this.#run('read_tasks', args);
  }
  listFiles(args: unknown): Promise<InspectorAnswer> {
    return this.#run('list_files', args);
  }
  readFile(args: unknown): Promise<InspectorAnswer> {
    return this.#run('read_file', args);
  }

  /**
   * The one path every action takes: file access, arguments, visibility,
   * then the action; any fault becomes a refusal that names the action and
   * is itself redacted (fail-closed: nothing half-read leaves).
   */
  async #run(action: InspectorAction, raw: unknown): Promise<InspectorAnswer> {
    let redactor = this.#redactor;
    try {
      // Credentials added to an agent's settings since the start are redacted too.
      redactor = this.#redactor.withLiterals(agentCredentials(this.#data));
      const answer = await this.#answer(action, raw, redactor);
      return answer.ok ? answer : refusal(redactor.redactText(answer.error).text);
    } catch (error) {
      const why = error instanceof Error ? error.message : 'an unexpected fault';
      return refusal(`\`${action}\` failed: ${redactor.redactText(why).text}`);
    }
  }

  async #answer(
    action: InspectorAction,
    raw: unknown,
    redactor: Redactor,
  ): Promise<InspectorAnswer> {
    if (FILE_ACTIONS.has(action) && !this.settings.allowFileAccess)
      return refusal(
        `\`${action}\` is off: supervisor \`${this.supervisor}\` has \`allowFileAccess: false\`, so no file is listed or read (Identity.md and Soul.md included); \`read_audit\`, \`read_receipts\` and \`read_tasks\` still answer`,
      );
    const ctx: ActionContext = {
      store: this.#store,
      settings: this.settings,
      audience: this.#audience,
      fitting: { redactor, maxBytes: this.#maxBytes },
      now: this.#clock(),
    };
    if (action === 'list_agents') {
      const args = parseArgs(action, ACTION_SCHEMAS.list_agents, raw);
      return args.ok ? listAgents(ctx) : refusal(args.error);
    }
    return this.#onAgent(action, raw, ctx);
  }

  async #onAgent(action: AgentAction, raw: unknown, ctx: ActionContext): Promise<InspectorAnswer> {
    switch (action) {
      case 'read_audit': {
        const args = parseArgs(action, ACTION_SCHEMAS.read_audit, raw);
        if (!args.ok) return refusal(args.error);
        return this.#withAgent(args.value.agent, (agent) => readAudit(ctx, agent, args.value));
      }
      case 'read_receipts': {
        const args = parseArgs(action, ACTION_SCHEMAS.read_receipts, raw);
        if (!args.ok) return refusal(args.error);
        return this.#withAgent(args.value.agent, (agent) => readReceipts(ctx, agent, args.value));
      }
      case 'read_tasks': {
        const args = parseArgs(action, ACTION_SCHEMAS.read_tasks, raw);
        if (!args.ok) return refusal(args.error);
        return this.#withAgent(args.value.agent, (agent) => readTasks(ctx, agent, args.value));
      }
      case 'list_files': {
        const args = parseArgs(action, ACTION_SCHEMAS.list_files, raw);
        if (!args.ok) return refusal(args.error);
        return this.#withAgent(args.value.agent, (agent) => listFiles(ctx, agent, args.value));
      }
      case 'read_file': {
        const args = parseArgs(action, ACTION_SCHEMAS.read_file, raw);
        if (!args.ok) return refusal(args.error);
        return this.#withAgent(args.value.agent, (agent) => readFile(ctx, agent, args.value));
      }
    }
  }

  /** Runs `then` on a visible agent; any other id gets the one answer of I8. */
  async #withAgent(
    id: string,
    then: (agent: InstanceAgent) => Promise<InspectorAnswer>,
  ): Promise<InspectorAnswer> {
    const agent = await visibleAgent(this.#audience, id);
    return agent === null ? refusal(unknownAgent(id)) : then(agent);
  }
}
