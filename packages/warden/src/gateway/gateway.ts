// The gateway's core: a client to each downstream MCP server, their tools
// exposed as `<server>__<tool>`, and every call either recorded (a read) or
// decided first (a mapped tool). The ratchet (G5) runs at start: a downstream
// tool with neither a mapping nor `readOnly: true` stops the gateway. A
// downstream error, a crashed server and a timeout each end the call as a tool
// error with an audit entry; nothing waits forever.
//
// A stdio server that exited is started again at the next call to one of its
// tools — at most RESTARTS_PER_MINUTE times a minute, and after a failed
// start not before a backoff — and its tools are listed again. While it cannot
// start, its calls are refused (a tool error and an `Error` entry). The
// ratchet holds across a restart: a tool the restarted server offers that no
// mapping covers is not exposed, and a call to it is refused.
//
// Every stdio server, at each start, runs under the OS sandbox (G2) its entry
// describes (`sandbox.ts`); what the sandbox refused it is logged.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Globs, isGlob } from '@warden/engine';
import type { HostFacts } from '../honesty/host.js';
import { closeSandbox } from '../sandbox/runtime.js';
import type { AuditStatus } from '../store/types.js';
import type { GatewayConfig, ServerEntry, ToolMapping } from './config.js';
import { mappingMatcher } from './config.js';
import type { Decider, Verdict } from './decider.js';
import { extractArgs } from './extract.js';
import { toolDefinition } from './pins.js';
import type { SandboxPlan, ServerProcess } from './sandbox.js';
import { planSandboxes, serverProcess, violationReporter } from './sandbox.js';

export const DEFAULT_TIMEOUT_SECONDS = 60;
/** A crashed stdio server is started again at most this often in a minute. */
export const RESTARTS_PER_MINUTE = 5;
/** After a failed start, the next try waits this long, doubling up to BACKOFF_MAX_MS. */
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** While a call waits for a human approval, the agent gets a progress notification this often. */
export const PROGRESS_INTERVAL_MS = 10_000;
const MINUTE_MS = 60_000;
/**
 * A server started under the sandbox gets this long on top of the timeout to
 * answer its first request: the sandbox's own start (namespaces, proxy
 * bridges) is no part of the server's time.
 */
export const SANDBOX_START_MS = 5_000;

interface Downstream {
  readonly entry: ServerEntry;
  /** The live client; null while the server is down. */
  client: Client | null;
  /** Logs what the sandbox refused the live server since the last look (a no-op unsandboxed). */
  violations: () => void;
  /** Set once the connection closed: why calls to it fail until it is back. */
  gone: string | null;
  /** When restarts were tried, within the last minute. */
  attempts: number[];
  /** Failed starts in a row, and when the next may be tried. */
  failures: number;
  nextTryAt: number;
  lastFailure: string | null;
  /** The restart under way, shared by the calls that wait for it: null when it is up. */
  restarting: Promise<string | null> | null;
}

interface Exposed {
  readonly name: string;
  readonly server: Downstream;
  readonly tool: Tool;
  readonly mapping: ToolMapping;
}

/** A name a restarted server offers that is not exposed, and why. */
interface Refused {
  readonly server: Downstream;
  readonly status: AuditStatus;
  readonly reason: string;
  /** Refused because its definition changed since it was pinned: exposed again once accepted. */
  readonly repin?: { readonly tool: Tool; readonly mapping: ToolMapping };
}

export class GatewayStartError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'GatewayStartError';
  }
}

function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a server's calls fail now: it closed its connection, and what the sandbox refused it before. */
function closedWords(name: string, refused: readonly string[]): string {
  const said = `the downstream server \`${name}\` closed its connection`;
  if (refused.length === 0) return said;
  const last = refused.slice(-3);
  return `${said} after the sandbox refused it ${refused.length === 1 ? 'something' : `${refused.length} things`} (its configuration's \`sandbox\` settings do not allow them): ${last.join('; ')}${refused.length > last.length ? '; …' : ''}`;
}

function where(entry: ServerEntry): string {
  return entry.kind === 'stdio' ? `\`${entry.command}\`` : entry.url;
}

interface Connected {
  readonly client: Client;
  /** Logs what the sandbox refused since the last look, and answers it. */
  readonly violations: () => readonly string[];
}

/**
 * Starts (stdio, under its sandbox plan) or reaches (URL) one server; throws
 * with why it cannot. `closed` is told when the connection ends, from the
 * first moment on; the sandbox launch is released then.
 */
async function connectClient(
  entry: ServerEntry,
  plan: SandboxPlan | undefined,
  timeoutMs: number,
  closed: (client: Client, refused: readonly string[]) => void,
  log: (line: string) => void,
): Promise<Connected> {
  let started: ServerProcess | null;
  try {
    started = entry.kind === 'stdio' ? await serverProcess(entry, plan) : null;
  } catch (error) {
    throw new Error(`cannot start ${where(entry)}: ${describeError(error)}`);
  }
  const launch = started?.launch ?? null;
  const violations: () => readonly string[] =
    launch === null ? () => [] : violationReporter(entry.name, launch, log);
  // Everything the sandbox refused this server: when it dies, that is likely why.
  const refused: string[] = [];
  const client = new Client({ name: 'warden-gateway', version: '1' });
  client.onclose = () => {
    if (launch !== null) {
      refused.push(...violations());
      launch.release();
    }
    closed(client, refused);
  };
  const transport =
    entry.kind === 'stdio'
      ? new StdioClientTransport({
          command: started?.command ?? entry.command,
          args: [...(started?.args ?? [])],
          env: { ...getDefaultEnvironment(), ...entry.env },
          stderr: 'inherit',
        })
      : new StreamableHTTPClientTransport(new URL(entry.url));
  try {
    await client.connect(transport, {
      timeout: launch === null ? timeoutMs : timeoutMs + SANDBOX_START_MS,
    });
  } catch (error) {
    await client.close().catch(() => undefined);
    launch?.release();
    throw new Error(`cannot connect to ${where(entry)}: ${describeError(error)}`);
  }
  return {
    client,
    violations: () => {
      const fresh = violations();
      refused.push(...fresh);
      return fresh;
    },
  };
}

async function listAll(client: Client, timeoutMs: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
      timeout: timeoutMs,
    });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** The unmapped tool's message: the server's annotations as a hint, never trusted in place of the configuration. */
function unmappedHint(tool: Tool): string {
  return tool.annotations?.readOnlyHint === true
    ? ' (the server marks it `readOnlyHint`; only the configuration counts)'
    : tool.annotations?.destructiveHint === true
      ? ' (the server marks it `destructiveHint`)'
      : '';
}

export interface GatewayOptions {
  readonly timeoutMs: number;
  readonly log: (line: string) => void;
  /** How often a call waiting for a human sends the agent progress (default PROGRESS_INTERVAL_MS). */
  readonly progressMs?: number;
  /** Restarts of one crashed stdio server in a minute (default RESTARTS_PER_MINUTE). */
  readonly restartsPerMinute?: number;
  readonly clock?: () => number;
  /** The host the stdio servers' sandbox is chosen for (default: this one, read from the PATH). */
  readonly sandboxHost?: HostFacts;
  /** Paths no sandboxed server may read, beyond the credential folders (the data folder). */
  readonly denyRead?: readonly string[];
}

/** What the agent's side of a call offers: its cancel, and a channel for progress. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Sends the agent an MCP progress notification; absent when it sent no `progressToken`. */
  readonly progress?: (message: string) => void;
}

export class Gateway {
  private readonly exposed = new Map<string, Exposed>();
  private readonly refused = new Map<string, Refused>();
  private downstreams: Downstream[] = [];
  private readonly mappingOf: (name: string) => ToolMapping | null;
  private readonly progressMs: number;
  private readonly restartsPerMinute: number;
  private readonly clock: () => number;
  private readonly closedClients = new WeakSet<Client>();
  private closing = false;
  /** Completions being recorded: a call's result does not wait for its record, closing does. */
  private readonly recording = new Set<Promise<void>>();
  private plans: ReadonlyMap<string, SandboxPlan> = new Map();
  /** The tools `tools/list` left out last, to log when that changes. */
  private hiddenKey = '';

  private constructor(
    private readonly config: GatewayConfig,
    private readonly decider: Decider,
    private readonly timeoutMs: number,
    private readonly log: (line: string) => void,
    options: GatewayOptions,
  ) {
    this.mappingOf = mappingMatcher(config);
    this.progressMs = options.progressMs ?? PROGRESS_INTERVAL_MS;
    this.restartsPerMinute = options.restartsPerMinute ?? RESTARTS_PER_MINUTE;
    this.clock = options.clock ?? Date.now;
  }

  /** Connects every downstream server and checks every tool against the configuration (G5). */
  static async start(
    config: GatewayConfig,
    decider: Decider,
    options: GatewayOptions,
  ): Promise<Gateway> {
    const gateway = new Gateway(config, decider, options.timeoutMs, options.log, options);
    try {
      const planned = await planSandboxes(config, options.sandboxHost, options.denyRead);
      if (!planned.ok) throw new GatewayStartError(planned.problems);
      gateway.plans = planned.plans;
      for (const note of planned.notes) options.log(note);
      await gateway.connectAll();
    } catch (error) {
      await gateway.close();
      throw error;
    }
    return gateway;
  }

  /** A connection ended: its server's calls fail (a stdio one is started again at the next call). */
  private readonly clientClosed = (client: Client, refused: readonly string[]): void => {
    this.closedClients.add(client);
    const downstream = this.downstreams.find((d) => d.client === client);
    if (downstream === undefined || downstream.gone !== null) return;
    downstream.client = null;
    downstream.gone = closedWords(downstream.entry.name, refused);
    if (this.closing) return;
    this.log(
      downstream.entry.kind === 'stdio'
        ? `${downstream.gone}; it is started again at the next call to one of its tools`
        : `${downstream.gone}; its tools answer with an error from now on`,
    );
  };

  private async connectAll(): Promise<void> {
    const settled = await Promise.allSettled(
      this.config.servers.map((entry) =>
        connectClient(
          entry,
          this.plans.get(entry.name),
          this.timeoutMs,
          this.clientClosed,
          this.log,
        ),
      ),
    );
    const problems: string[] = [];
    settled.forEach((result, index) => {
      const entry = this.config.servers[index] as ServerEntry;
      if (result.status === 'rejected') {
        problems.push(`servers.${entry.name}: ${describeError(result.reason)}`);
        return;
      }
      const exited = this.closedClients.has(result.value.client);
      this.downstreams.push({
        entry,
        client: exited ? null : result.value.client,
        violations: result.value.violations,
        gone: exited ? closedWords(entry.name, result.value.violations()) : null,
        attempts: [],
        failures: 0,
        nextTryAt: 0,
        lastFailure: null,
        restarting: null,
      });
    });
    if (problems.length > 0) throw new GatewayStartError(problems);
    const unmapped: string[] = [];
    for (const downstream of this.downstreams) {
      let tools: Tool[];
      try {
        if (downstream.client === null) throw new Error('it exited right after it started');
        tools = await listAll(downstream.client, this.timeoutMs);
      } catch (error) {
        problems.push(
          `servers.${downstream.entry.name}: cannot list its tools: ${describeError(error)}`,
        );
        continue;
      }
      for (const tool of tools) {
        const name = `${downstream.entry.name}__${tool.name}`;
        if (this.exposed.has(name)) {
          problems.push(
            `tools: \`${name}\` is listed twice by the downstream server \`${downstream.entry.name}\`: exposed names must be unique`,
          );
          continue;
        }
        const mapping = this.mappingOf(name);
        if (mapping === null) {
          unmapped.push(
            `tools.${name}: not mapped: give it \`actions\` (with \`args\`) or mark it \`readOnly: true\`${unmappedHint(tool)}`,
          );
          continue;
        }
        if (!(await this.pinned(downstream, name, tool, mapping))) continue;
        this.exposed.set(name, { name, server: downstream, tool, mapping });
      }
    }
    if (unmapped.length > 0)
      problems.push(
        `${unmapped.length} downstream tool${unmapped.length === 1 ? ' has' : 's have'} no mapping, so the gateway does not start (the ratchet):`,
        ...unmapped,
      );
    if (problems.length > 0) throw new GatewayStartError(problems);
    const matchers = new Globs();
    for (const { pattern } of this.config.tools) {
      const test = isGlob(pattern) ? matchers.matcher(pattern) : (n: string) => n === pattern;
      if (![...this.exposed.keys()].some((n) => test(n)))
        this.log(`tools.${pattern}: matches no downstream tool`);
    }
  }

  /**
   * Whether a mapped tool's definition is the pinned one (pinned now if it is
   * new); a changed one is refused, logged and kept to be checked again.
   */
  private async pinned(
    downstream: Downstream,
    name: string,
    tool: Tool,
    mapping: ToolMapping,
  ): Promise<boolean> {
    const check = await this.decider.pin(name, toolDefinition(tool));
    if (check.ok) return true;
    this.refused.set(name, {
      server: downstream,
      status: 'Denied',
      reason: check.reason,
      repin: { tool, mapping },
    });
    this.log(`tools.${name}: ${check.reason}`);
    return false;
  }

  /**
   * Tools refused for a changed definition are checked again (an admin may
   * have accepted it since); those accepted are exposed. Whether any was.
   */
  private async repin(only?: string): Promise<boolean> {
    let changed = false;
    for (const [name, refused] of [...this.refused]) {
      if (refused.repin === undefined || (only !== undefined && name !== only)) continue;
      const check = await this.decider.pin(name, toolDefinition(refused.repin.tool));
      if (!check.ok || this.refused.get(name) !== refused) continue;
      this.refused.delete(name);
      this.exposed.set(name, { name, server: refused.server, ...refused.repin });
      this.log(`tools.${name}: its new definition was accepted; exposed again`);
      changed = true;
    }
    return changed;
  }

  /** The tools as the agent sees them, after checking again the ones refused for a changed definition. */
  async listTools(): Promise<Tool[]> {
    if (await this.repin()) for (const listener of this.toolListeners) listener();
    const tools = this.tools();
    if (this.config.hideDenied !== true) return tools;
    let denied: ReadonlySet<string>;
    try {
      denied = await this.decider.outright();
    } catch (error) {
      // Hiding only spares the model a plan: every call is still decided.
      this.log(
        `cannot tell which tools the policy denies outright (${describeError(error)}): all are listed, and each call is decided as usual`,
      );
      return tools;
    }
    const hidden: string[] = [];
    const shown = tools.filter((tool) => {
      const mapping = this.exposed.get(tool.name)?.mapping;
      if (mapping === undefined || mapping.readOnly === true) return true;
      if (!mapping.actions.some((action) => denied.has(action))) return true;
      hidden.push(tool.name);
      return false;
    });
    const key = hidden.join('\n');
    if (key !== this.hiddenKey) {
      this.hiddenKey = key;
      this.log(
        hidden.length === 0
          ? 'no tool is hidden: the policy denies none outright for this agent'
          : `hidden from tools/list, as the policy denies every call of them for this agent: ${hidden.map((n) => `\`${n}\``).join(', ')}`,
      );
    }
    return shown;
  }

  /**
   * Null when the server is up (started again if it had exited and may be);
   * else why its calls are refused now.
   */
  private ensureUp(downstream: Downstream): Promise<string | null> {
    if (downstream.gone === null) return Promise.resolve(null);
    if (this.closing) return Promise.resolve(downstream.gone);
    if (downstream.entry.kind !== 'stdio') return Promise.resolve(downstream.gone);
    if (downstream.restarting !== null) return downstream.restarting;
    const now = this.clock();
    downstream.attempts = downstream.attempts.filter((t) => now - t < MINUTE_MS);
    if (downstream.attempts.length >= this.restartsPerMinute) {
      const wait = Math.ceil(((downstream.attempts[0] as number) + MINUTE_MS - now) / 1000);
      return Promise.resolve(
        `${downstream.gone}; it was started again ${downstream.attempts.length} times in the last minute, so the next try is in ${wait} s`,
      );
    }
    if (now < downstream.nextTryAt) {
      const wait = Math.ceil((downstream.nextTryAt - now) / 1000);
      return Promise.resolve(
        `${downstream.gone} and cannot be started again (${downstream.lastFailure ?? 'it failed'}); the next try is in ${wait} s`,
      );
    }
    downstream.attempts.push(now);
    const restarting = this.restart(downstream).finally(() => {
      downstream.restarting = null;
    });
    downstream.restarting = restarting;
    return restarting;
  }

  private async restart(downstream: Downstream): Promise<string | null> {
    const { entry } = downstream;
    let client: Client | null = null;
    let violations: () => void = () => undefined;
    let tools: Tool[];
    try {
      ({ client, violations } = await connectClient(
        entry,
        this.plans.get(entry.name),
        this.timeoutMs,
        this.clientClosed,
        this.log,
      ));
      tools = await listAll(client, this.timeoutMs);
      if (this.closedClients.has(client)) throw new Error('it exited right after it started');
    } catch (error) {
      await client?.close().catch(() => undefined);
      downstream.failures += 1;
      downstream.lastFailure = describeError(error);
      const backoff = Math.min(BACKOFF_FIRST_MS * 2 ** (downstream.failures - 1), BACKOFF_MAX_MS);
      downstream.nextTryAt = this.clock() + backoff;
      const why = `${downstream.gone ?? `the downstream server \`${entry.name}\` is down`} and cannot be started again (${downstream.lastFailure}); the next try is in ${Math.ceil(backoff / 1000)} s`;
      this.log(why);
      return why;
    }
    if (this.closing) {
      await client.close().catch(() => undefined);
      return 'the gateway is stopping';
    }
    downstream.failures = 0;
    downstream.lastFailure = null;
    downstream.nextTryAt = 0;
    downstream.client = client;
    downstream.violations = violations;
    downstream.gone = null;
    await this.relist(downstream, tools);
    return null;
  }

  private readonly toolListeners = new Set<() => void>();

  /** Calls `listener` whenever the exposed tools change (a restarted downstream); returns how to stop. */
  onToolsChanged(listener: () => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  /** The tools of a restarted server, exposed again; the ratchet (G5) holds for what is new. */
  private async relist(downstream: Downstream, tools: readonly Tool[]): Promise<void> {
    const server = downstream.entry.name;
    const before = new Set<string>();
    for (const [name, exposed] of this.exposed)
      if (exposed.server === downstream) {
        before.add(name);
        this.exposed.delete(name);
      }
    for (const [name, refused] of this.refused)
      if (refused.server === downstream) this.refused.delete(name);
    const seen = new Set<string>();
    const refusedNow: string[] = [];
    const changedNow: string[] = [];
    for (const tool of tools) {
      const name = `${server}__${tool.name}`;
      if (seen.has(name)) {
        this.exposed.delete(name);
        this.refused.set(name, {
          server: downstream,
          status: 'Denied',
          reason: `\`${name}\` is listed twice by the downstream server \`${server}\` since it started again: refused`,
        });
        refusedNow.push(name);
        continue;
      }
      seen.add(name);
      const mapping = this.mappingOf(name);
      if (mapping === null) {
        this.refused.set(name, {
          server: downstream,
          status: 'Denied',
          reason: `\`${name}\` appeared when \`${server}\` started again and has no mapping, so it is refused (the ratchet): give \`tools.${name}\` \`actions\` (with \`args\`) or mark it \`readOnly: true\`, then restart the gateway${unmappedHint(tool)}`,
        });
        refusedNow.push(name);
        continue;
      }
      if (!(await this.pinned(downstream, name, tool, mapping))) {
        changedNow.push(name);
        continue;
      }
      this.exposed.set(name, { name, server: downstream, tool, mapping });
    }
    for (const name of before)
      if (!seen.has(name))
        this.refused.set(name, {
          server: downstream,
          status: 'NotFound',
          reason: `\`${name}\` is no longer offered by \`${server}\` since it started again`,
        });
    const gone = [...before].filter((n) => !seen.has(n));
    const exposedNow = [...this.exposed.values()]
      .filter((e) => e.server === downstream)
      .map((e) => e.name);
    if (exposedNow.length !== before.size || exposedNow.some((n) => !before.has(n)))
      for (const listener of this.toolListeners) listener();
    this.log(
      `started \`${server}\` again: ${this.exposedOf(downstream)} tools` +
        (refusedNow.length > 0
          ? `; refused as not mapped (the ratchet): ${refusedNow.map((n) => `\`${n}\``).join(', ')}`
          : '') +
        (changedNow.length > 0
          ? `; refused as changed since pinned: ${changedNow.map((n) => `\`${n}\``).join(', ')}`
          : '') +
        (gone.length > 0 ? `; gone: ${gone.map((n) => `\`${n}\``).join(', ')}` : ''),
    );
  }

  private exposedOf(downstream: Downstream): number {
    let n = 0;
    for (const exposed of this.exposed.values()) if (exposed.server === downstream) n += 1;
    return n;
  }

  /** The aggregated tools as the agent sees them. */
  tools(): Tool[] {
    return [...this.exposed.values()].map(({ name, tool }) => ({ ...tool, name }));
  }

  get counts(): { readonly servers: number; readonly tools: number } {
    return { servers: this.downstreams.length, tools: this.exposed.size };
  }

  private async record(
    verdict: Verdict | null,
    name: string,
    args: Record<string, unknown> | undefined,
    status: AuditStatus,
    durationMs: number | null,
    error?: string,
  ): Promise<void> {
    await this.decider
      .complete(verdict, {
        tool: name,
        arguments: args ?? null,
        status,
        durationMs,
        ...(error === undefined ? {} : { error }),
      })
      .catch((thrown: unknown) => this.log(`cannot record \`${name}\`: ${describeError(thrown)}`));
  }

  /** A name that is not exposed: refused since a restart, or never there. */
  private async notExposed(
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    const refused = this.refused.get(name);
    if (refused !== undefined) {
      await this.record(null, name, args, refused.status, null, refused.reason);
      return textResult(`Warden: ${refused.reason}`);
    }
    await this.record(null, name, args, 'NotFound', null, 'no such tool');
    return textResult(`Warden: no tool \`${name}\` behind this gateway`);
  }

  async call(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    if (!this.exposed.has(name) && this.refused.get(name)?.repin !== undefined)
      if (await this.repin(name)) for (const listener of this.toolListeners) listener();
    const known = this.exposed.get(name);
    if (known === undefined) return this.notExposed(name, args);
    // A server that exited is started again first: its tools may have changed.
    const down = await this.ensureUp(known.server);
    if (down !== null) {
      await this.record(null, name, args, 'Error', null, down);
      return textResult(`Warden: ${down}`);
    }
    const exposed = this.exposed.get(name);
    if (exposed === undefined) return this.notExposed(name, args);
    const { mapping } = exposed;
    let verdict: Verdict | null = null;
    if (mapping.readOnly !== true) {
      const extracted = extractArgs(mapping.args, args ?? {}, this.config.worktree);
      if (!extracted.ok) {
        await this.record(null, name, args, 'Denied', null, extracted.problem);
        return textResult(`Warden: ${extracted.problem}: denied`);
      }
      let timer: NodeJS.Timeout | undefined;
      const { progress } = options;
      try {
        verdict = await this.decider.decide(
          { tool: name, actions: mapping.actions, args: extracted.args, arguments: args ?? {} },
          {
            ...(options.signal === undefined ? {} : { signal: options.signal }),
            waiting: (approvalId) => {
              if (progress === undefined) return;
              const started = this.clock();
              const say = () =>
                progress(
                  `Warden: \`${name}\` waits for a human approval (${approvalId}), ${Math.round((this.clock() - started) / 1000)} s so far`,
                );
              say();
              timer = setInterval(say, this.progressMs);
            },
          },
        );
      } catch (error) {
        return textResult(`Warden: no decision (${describeError(error)}): denied, fail-closed`);
      } finally {
        if (timer !== undefined) clearInterval(timer);
      }
      if (!verdict.allow) return textResult(verdict.reason);
    }
    return this.forward(exposed, args, verdict);
  }

  private async forward(
    exposed: Exposed,
    args: Record<string, unknown> | undefined,
    verdict: Verdict | null,
  ): Promise<CallToolResult> {
    const started = performance.now();
    let result: CallToolResult;
    let error: string | undefined;
    const { server } = exposed;
    const client = server.client;
    if (server.gone !== null || client === null) {
      error = server.gone ?? `the downstream server \`${server.entry.name}\` is down`;
      result = textResult(`Warden: ${error}`);
    } else {
      try {
        result = (await client.callTool(
          { name: exposed.tool.name, ...(args === undefined ? {} : { arguments: args }) },
          undefined,
          { timeout: this.timeoutMs, maxTotalTimeout: this.timeoutMs },
        )) as CallToolResult;
        if (result.isError === true) error = 'the downstream tool answered with an error';
      } catch (thrown) {
        error = server.gone ?? `the downstream call failed: ${describeError(thrown)}`;
        result = textResult(`Warden: ${error}`);
      }
    }
    const durationMs = Math.round(performance.now() - started);
    server.violations();
    // The call was decided, and its decision recorded, before it went out; what it did is
    // recorded in order (the record is queued now) while the result goes back — connected,
    // once the server has it (`answerAfterRecord`).
    const recorded = this.record(
      verdict,
      exposed.name,
      args,
      error === undefined ? 'Ok' : 'Error',
      durationMs,
      error,
    );
    this.recording.add(recorded);
    void recorded.finally(() => this.recording.delete(recorded));
    if (this.decider.answerAfterRecord) await recorded;
    return result;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.recording]);
    const downstreams = this.downstreams;
    this.downstreams = [];
    for (const d of downstreams) d.gone ??= 'the gateway is stopping';
    await Promise.allSettled(downstreams.map((d) => d.restarting));
    await Promise.allSettled(downstreams.map((d) => d.client?.close()));
    // The sandbox's proxies would otherwise listen a few idle seconds more.
    if ([...this.plans.values()].some((p) => p.kind === 'sandboxed'))
      await closeSandbox().catch(() => undefined);
    await this.decider.close().catch(() => undefined);
  }
}
