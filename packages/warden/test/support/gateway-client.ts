// The agent's side of `warden gateway` for tests: the real MCP SDK client
// spawning the real binary on stdio, in an environment free of the
// developer's own Warden settings, and the gateway's audit log read back.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, exportedAudit } from '../helpers.js';

/** The MCP SDK's ESM build as a file URL, for the downstream servers tests write as scripts. */
export const SDK = pathToFileURL(
  join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    '..',
    'node_modules',
    '@modelcontextprotocol',
    'sdk',
    'dist',
    'esm',
  ),
).href;

/** This process's environment without any `WARDEN_*` setting or `DATABASE_URL`, logging warnings, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('WARDEN_') && key !== 'DATABASE_URL')
      env[key] = value;
  return { ...env, WARDEN_LOG_LEVEL: 'warn', ...extra };
}

/** Anything a test opens and closes after each test (an MCP client). */
export interface Closable {
  close(): Promise<void>;
}

/** Closes and forgets everything in `open`, ignoring what fails to close. */
export async function closeAll(open: Closable[]): Promise<void> {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
}

/** A downstream MCP server's script (`source`) written as `dir/name`; its path. */
export function writeDownstream(dir: string, name: string, source: string): string {
  const script = join(dir, name);
  writeFileSync(script, source);
  return script;
}

/** A standalone gateway's files in `dir`: its config and policy file, and its data folder (not made). */
export interface GatewayFiles {
  readonly dir: string;
  readonly data: string;
  readonly config: string;
  readonly policy: string;
}

/**
 * Writes a standalone gateway into `dir`: `policy` (YAML) as `policy.yaml`,
 * and `gateway.json` for agent `coder-1` in workspace `acme` with `config`
 * (its servers, tools, …); the data folder is `dir/data`.
 */
export function writeGateway(
  dir: string,
  policy: string,
  config: Record<string, unknown>,
): GatewayFiles {
  const files = {
    dir,
    data: join(dir, 'data'),
    config: join(dir, 'gateway.json'),
    policy: join(dir, 'policy.yaml'),
  };
  writeFileSync(files.policy, policy);
  writeFileSync(files.config, JSON.stringify({ agent: 'coder-1', workspace: 'acme', ...config }));
  return files;
}

/** A standalone gateway's arguments: its config, policy file and data folder. */
export function standalone(s: {
  readonly config: string;
  readonly policy: string;
  readonly data: string;
}): string[] {
  return ['--config', s.config, '--policy', s.policy, '--data', s.data];
}

/** The agent: the SDK client spawning `warden gateway <args>` on stdio, joined to `open`, with the gateway's standard error. */
export async function gatewayAgent(
  args: readonly string[],
  open: Closable[],
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'gateway', ...args],
    env: cleanEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'test-agent', version: '1' });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

/** Calls the tool `name` with `args`. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A tool result's text, its text blocks joined. */
export function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export type Entry = Record<string, unknown>;

/** The audit log of the data folder `data`, read with `warden audit export` in a clean environment. */
export function exported(data: string): Entry[] {
  return exportedAudit<Entry>(data, cleanEnv());
}

/** The entries that record calls of `tool` (not its decisions). */
export function calls(entries: Entry[], tool: string): Entry[] {
  return entries.filter((e) => e.tool === tool && e.kind !== 'decision');
}
