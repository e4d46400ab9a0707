// The gateway's core: a client to each downstream MCP server, their tools
// exposed as `<server>__<tool>`, and every call either recorded (a read) or
// decided first (a mapped tool). The ratchet (G5) runs at start: a downstream
// tool with neither a mapping nor `readOnly: true` stops the gateway. A
// downstream error, a crashed server and a timeout each end the call as a tool
// error with an audit entry; nothing waits forever.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import picomatch from 'picomatch';
import type { GatewayConfig, ServerEntry, ToolMapping } from './config.js';
import type { Decider, Verdict } from './decider.js';
import { extractArgs } from './extract.js';

export const DEFAULT_TIMEOUT_SECONDS = 60;

interface Downstream {
  readonly entry: ServerEntry;
  readonly client: Client;
  /** Set once the connection closed: why calls to it fail from then on. */
  gone: string | null;
}

interface Exposed {
  readonly name: string;
  readonly server: Downstream;
  readonly tool: Tool;
  readonly mapping: ToolMapping;
}

export class GatewayStartError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'GatewayStartError';
  }
}

function matcherFor(config: GatewayConfig): (name: string) => ToolMapping | null {
  const exact = new Map<string, ToolMapping>();
  const globs: { test: (name: string) => boolean; mapping: ToolMapping }[] = [];
  for (const { pattern, mapping } of config.tools) {
    if (picomatch.scan(pattern).isGlob)
      globs.push({ test: picomatch(pattern, { dot: true }), mapping });
    else exact.set(pattern, mapping);
  }
  return (name) => exact.get(name) ?? globs.find((g) => g.test(name))?.mapping ?? null;
}

function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function connect(
  entry: ServerEntry,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<Downstream> {
  const client = new Client({ name: 'warden-gateway', version: '1' });
  const transport =
    entry.kind === 'stdio'
      ? new StdioClientTransport({
          command: entry.command,
          args: [...(entry.args ?? [])],
          env: { ...getDefaultEnvironment(), ...entry.env },
          stderr: 'inherit',
        })
      : new StreamableHTTPClientTransport(new URL(entry.url));
  const downstream: Downstream = { entry, client, gone: null };
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    const where = entry.kind === 'stdio' ? `\`${entry.command}\`` : entry.url;
    throw new GatewayStartError([
      `servers.${entry.name}: cannot connect to ${where}: ${describeError(error)}`,
    ]);
  }
  client.onclose = () => {
    if (downstream.gone === null) {
      downstream.gone = `the downstream server \`${entry.name}\` closed its connection`;
      log(`${downstream.gone}; its tools answer with an error from now on`);
    }
  };
  return downstream;
}

async function listAll(downstream: Downstream, timeoutMs: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await downstream.client.listTools(cursor === undefined ? {} : { cursor }, {
      timeout: timeoutMs,
    });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

export class Gateway {
  private readonly exposed = new Map<string, Exposed>();
  private downstreams: Downstream[] = [];

  private constructor(
    private readonly config: GatewayConfig,
    private readonly decider: Decider,
    private readonly timeoutMs: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Connects every downstream server and checks every tool against the configuration (G5). */
  static async start(
    config: GatewayConfig,
    decider: Decider,
    options: { readonly timeoutMs: number; readonly log: (line: string) => void },
  ): Promise<Gateway> {
    const gateway = new Gateway(config, decider, options.timeoutMs, options.log);
    try {
      await gateway.connectAll();
    } catch (error) {
      await gateway.close();
      throw error;
    }
    return gateway;
  }

  private async connectAll(): Promise<void> {
    const settled = await Promise.allSettled(
      this.config.servers.map((entry) => connect(entry, this.timeoutMs, this.log)),
    );
    const problems: string[] = [];
    for (const result of settled) {
      if (result.status === 'fulfilled') this.downstreams.push(result.value);
      else
        problems.push(
          ...(result.reason instanceof GatewayStartError
            ? result.reason.problems
            : [describeError(result.reason)]),
        );
    }
    if (problems.length > 0) throw new GatewayStartError(problems);
    const mappingOf = matcherFor(this.config);
    const unmapped: string[] = [];
    for (const downstream of this.downstreams) {
      let tools: Tool[];
      try {
        tools = await listAll(downstream, this.timeoutMs);
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
        const mapping = mappingOf(name);
        if (mapping === null) {
          // The server's own annotations are shown as a hint, never trusted in place of the configuration.
          const hint =
            tool.annotations?.readOnlyHint === true
              ? ' (the server marks it `readOnlyHint`; only the configuration counts)'
              : tool.annotations?.destructiveHint === true
                ? ' (the server marks it `destructiveHint`)'
                : '';
          unmapped.push(
            `tools.${name}: not mapped: give it \`actions\` (with \`args\`) or mark it \`readOnly: true\`${hint}`,
          );
          continue;
        }
        this.exposed.set(name, { name, server: downstream, tool, mapping });
      }
    }
    if (unmapped.length > 0)
      problems.push(
        `${unmapped.length} downstream tool${unmapped.length === 1 ? ' has' : 's have'} no mapping, so the gateway does not start (the ratchet):`,
        ...unmapped,
      );
    if (problems.length > 0) throw new GatewayStartError(problems);
    for (const { pattern } of this.config.tools) {
      const isGlob = picomatch.scan(pattern).isGlob;
      const test = isGlob ? picomatch(pattern, { dot: true }) : (n: string) => n === pattern;
      if (![...this.exposed.keys()].some((n) => test(n)))
        this.log(`tools.${pattern}: matches no downstream tool`);
    }
  }

  /** The aggregated tools as the agent sees them. */
  tools(): Tool[] {
    return [...this.exposed.values()].map(({ name, tool }) => ({ ...tool, name }));
  }

  get counts(): { readonly servers: number; readonly tools: number } {
    return { servers: this.downstreams.length, tools: this.exposed.size };
  }

  async call(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const exposed = this.exposed.get(name);
    if (exposed === undefined) {
      await this.decider
        .complete(null, {
          tool: name,
          arguments: args ?? null,
          status: 'NotFound',
          durationMs: null,
          error: 'no such tool',
        })
        .catch((error: unknown) => this.log(`cannot record \`${name}\`: ${describeError(error)}`));
      return textResult(`Warden: no tool \`${name}\` behind this gateway`);
    }
    const { mapping } = exposed;
    let verdict: Verdict | null = null;
    if (mapping.readOnly !== true) {
      const extracted = extractArgs(mapping.args, args ?? {}, this.config.worktree);
      if (!extracted.ok) {
        await this.decider
          .complete(null, {
            tool: name,
            arguments: args ?? null,
            status: 'Denied',
            durationMs: null,
            error: extracted.problem,
          })
          .catch((error: unknown) =>
            this.log(`cannot record \`${name}\`: ${describeError(error)}`),
          );
        return textResult(`Warden: ${extracted.problem}: denied`);
      }
      try {
        verdict = await this.decider.decide({
          tool: name,
          actions: mapping.actions,
          args: extracted.args,
          arguments: args ?? {},
        });
      } catch (error) {
        return textResult(`Warden: no decision (${describeError(error)}): denied, fail-closed`);
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
    if (exposed.server.gone !== null) {
      error = exposed.server.gone;
      result = textResult(`Warden: ${error}`);
    } else {
      try {
        result = (await exposed.server.client.callTool(
          { name: exposed.tool.name, ...(args === undefined ? {} : { arguments: args }) },
          undefined,
          { timeout: this.timeoutMs, maxTotalTimeout: this.timeoutMs },
        )) as CallToolResult;
        if (result.isError === true) error = 'the downstream tool answered with an error';
      } catch (thrown) {
        error = exposed.server.gone ?? `the downstream call failed: ${describeError(thrown)}`;
        result = textResult(`Warden: ${error}`);
      }
    }
    const durationMs = Math.round(performance.now() - started);
    await this.decider
      .complete(verdict, {
        tool: exposed.name,
        arguments: args ?? null,
        status: error === undefined ? 'Ok' : 'Error',
        durationMs,
        ...(error === undefined ? {} : { error }),
      })
      .catch((thrown: unknown) =>
        this.log(`cannot record \`${exposed.name}\`: ${describeError(thrown)}`),
      );
    return result;
  }

  async close(): Promise<void> {
    const downstreams = this.downstreams;
    this.downstreams = [];
    for (const d of downstreams) d.gone ??= 'the gateway is stopping';
    await Promise.allSettled(downstreams.map((d) => d.client.close()));
    await this.decider.close().catch(() => undefined);
  }
}
