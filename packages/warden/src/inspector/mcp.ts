// The inspector as an MCP server (contracts §5): six read-only tools whose
// input schemas are the zod schemas the inspector validates with. It is the
// SDK's low-level `Server`, as the gateway's is, so that the inspector's own
// validation answers every call: a bad argument, an unknown tool and a
// refusal are all a tool error (`isError: true`) in the same words the
// in-process tools use, never a protocol error or a stack trace.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { INSPECTOR_INSTRUCTIONS, inspectorDescriptions } from './descriptions.js';
import type { InspectorSettings } from '../instance/index.js';
import { ACTION_SCHEMAS, INSPECTOR_ACTIONS } from './schemas.js';
import { illFormedProblem } from '../well-formed.js';

/**
 * What the MCP server answers from: the local `Inspector`, or the server's
 * inspector reached over HTTP (`warden inspector --server URL`).
 */
export interface InspectorService {
  readonly settings: InspectorSettings;
  call(
    action: string,
    args: unknown,
  ): Promise<
    { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string }
  >;
}

/** A tool's JSON schema, from the same zod schema that validates its calls. */
function inputSchema(schema: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

/** The six tools as `tools/list` shows them. */
export function inspectorToolList(inspector: InspectorService): Tool[] {
  const descriptions = inspectorDescriptions(inspector.settings);
  return INSPECTOR_ACTIONS.map((name) => ({
    name,
    description: descriptions[name],
    inputSchema: inputSchema(ACTION_SCHEMAS[name]),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  }));
}

/** The inspector's MCP server; exported for tests that connect to it in memory. */
export function inspectorMcpServer(inspector: InspectorService, version: string): Server {
  const server = new Server(
    { name: 'warden-inspector', version },
    { capabilities: { tools: {} }, instructions: INSPECTOR_INSTRUCTIONS },
  );
  const tools = inspectorToolList(inspector);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const broken = illFormedProblem(request.params.arguments, 'the arguments');
    if (broken !== null) return { content: [{ type: 'text', text: broken }], isError: true };
    const answer = await inspector.call(request.params.name, request.params.arguments);
    return answer.ok
      ? { content: [{ type: 'text', text: answer.text }] }
      : { content: [{ type: 'text', text: answer.error }], isError: true };
  });
  return server;
}

/** Serves on standard input/output (standard output is the MCP channel); resolves when the client closes it. */
export async function serveInspectorStdio(
  inspector: InspectorService,
  version: string,
): Promise<void> {
  const server = inspectorMcpServer(inspector, version);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close().catch(() => undefined);
}
