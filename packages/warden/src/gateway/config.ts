// The MCP gateway's configuration (contracts §7): who the agent is, which
// downstream MCP servers to reach, and what each exposed tool does — either a
// read (`readOnly: true`) or a set of action classes with the arguments the
// request's attributes are read from. Validated whole, every problem listed.
// Each stdio server starts under the OS sandbox (G2) with the folders it may
// write and the hosts it may reach that its entry names (`sandbox.ts`).

import { isAbsolute, posix } from 'node:path';
import {
  ACTION_CLASSES,
  Globs,
  didYouMean,
  globProblem,
  isActionClass,
  isGlob,
} from '@warden/engine';
import { z } from 'zod';
import { readSettingsFile } from '../policy/load.js';
import type { Problem } from '../policy/problems.js';
import { lowercased, pathOf } from '../policy/problems.js';
import type { SandboxMode } from '../sandbox/runtime.js';
import { SANDBOX_MODES } from '../sandbox/runtime.js';
import type { HostName } from './hosts.js';
import { hostNameProblem, parseHostName } from './hosts.js';

/** Exposed names are `<server>__<tool>`: a server name is one segment without `__`. */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const argPath = z
  .string()
  .regex(
    /^[^.[\]]+(\[\])?(\.[^.[\]]+(\[\])?)*$/,
    'an argument path is keys joined by `.`, with `[]` after a key that holds an array (e.g. `edits[].path`)',
  );

const argPaths = z.array(argPath, 'a list of argument paths');

const stdioServer = z.strictObject({
  command: z.string().min(1, 'give the command that starts the server'),
  args: z.array(z.string(), 'a list of arguments').optional(),
  env: z.record(z.string(), z.string(), 'a mapping of names to values').optional(),
  /** Checked by `parseServerSandbox`: `off`, or `{ write, hosts }`. */
  sandbox: z.unknown().optional(),
});

const httpServer = z.strictObject({
  url: z.url('a URL such as `http://127.0.0.1:9000/mcp`'),
});

const readOnlyTool = z.strictObject({ readOnly: z.literal(true) });

const mappedTool = z.strictObject({
  actions: z.array(z.string(), 'a list of action classes').min(1, 'name at least one class'),
  args: z
    .strictObject({
      paths: argPaths.optional(),
      refs: argPaths.optional(),
      hosts: argPaths.optional(),
      count: argPaths.optional(),
      cents: argPaths.optional(),
    })
    .optional(),
});

export const gatewaySchema = z.strictObject({
  agent: z.string('give the agent id stamped on every call').min(1, 'the agent id is not empty'),
  workspace: z.string('give the workspace').min(1, 'the workspace is not empty'),
  space: z.string().min(1).optional(),
  mode: z.string().min(1).optional(),
  servers: z.record(z.string(), z.unknown(), 'a mapping of server names to servers'),
  tools: z.record(z.string(), z.unknown(), 'a mapping of exposed tool names to mappings'),
  worktree: z.string().min(1).optional(),
  /** Extra `Host` names the Streamable HTTP endpoint (`--http`) accepts besides the loopback ones. */
  allowHosts: z.array(z.string(), 'a list of host names').optional(),
  /** Whether stdio servers start under the OS sandbox (G2): `auto` (default), `required` or `off`. */
  sandbox: z
    .enum(['auto', 'required', 'off'], {
      error: `one of ${SANDBOX_MODES.map((m) => `\`${m}\``).join(', ')}`,
    })
    .optional(),
  /** Leave out of `tools/list` the tools the policy denies outright for this agent. */
  hideDenied: z.boolean('`true` or `false`').optional(),
});

/** What one stdio server may do under the sandbox; both lists are empty unless its entry names some. */
export interface ServerSandbox {
  /** Absolute folders it may write (resolved to real paths at start); never `/`. */
  readonly write: readonly string[];
  /** Hosts it may reach through the sandbox's proxy (`example.com`, `*.example.com`, `host:443`). */
  readonly hosts: readonly string[];
}

export type StdioServer = Omit<z.infer<typeof stdioServer>, 'sandbox'> & {
  /** `off`: this server starts without the sandbox, as the operator said. */
  readonly sandbox: ServerSandbox | 'off';
};
export type HttpServer = z.infer<typeof httpServer>;
export type ServerEntry = { readonly name: string } & (
  ({ readonly kind: 'stdio' } & StdioServer) | ({ readonly kind: 'http' } & HttpServer)
);
export type ArgKey = 'paths' | 'refs' | 'hosts' | 'count' | 'cents';
export type ToolMapping =
  | { readonly readOnly: true }
  | {
      readonly readOnly?: undefined;
      readonly actions: readonly string[];
      readonly args: Partial<Record<ArgKey, readonly string[]>>;
    };

export interface GatewayConfig {
  readonly agent: string;
  readonly workspace: string;
  readonly space?: string;
  readonly mode?: string;
  readonly worktree?: string;
  /** Whether stdio servers start under the OS sandbox (G2); absent means `auto`. */
  readonly sandbox?: SandboxMode;
  /** Extra `Host` names accepted over `--http` (DNS-rebinding protection lets only loopback names in). */
  readonly allowHosts: readonly HostName[];
  /**
   * Leave out of `tools/list` the tools acting in a class every call of which
   * the policy denies for this agent, so the model never plans with them.
   */
  readonly hideDenied?: boolean;
  readonly servers: readonly ServerEntry[];
  /** In the order of the file: the first key that matches a name (exact before glob) maps it. */
  readonly tools: readonly { readonly pattern: string; readonly mapping: ToolMapping }[];
}

export type ConfigLoad =
  | { readonly ok: true; readonly config: GatewayConfig }
  | { readonly ok: false; readonly problems: readonly Problem[] };

function zodProblems(error: z.ZodError, base: string, known: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        problems.push({
          path: pathOf([...issue.path, key], base),
          message: `unknown setting \`${key}\`${
            didYouMean(key, known) ||
            `: the settings are ${known.map((k) => `\`${k}\``).join(', ')}`
          }`,
        });
      continue;
    }
    const path = pathOf(issue.path, base);
    problems.push({ path: path === '' ? '(top level)' : path, message: lowercased(issue.message) });
  }
  return problems;
}

/** A host a sandboxed server may reach: a host name (a leading `*.` covers its subdomains), maybe with `:PORT`. */
function sandboxHostProblem(text: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    return `\`${text}\` is a URL: give the host name alone (optionally with \`:PORT\`)`;
  const bare = text.startsWith('*.') ? text.slice(2) : text;
  return parseHostName(bare) === null
    ? `\`${text}\` is not a host name (\`example.com\`, \`*.example.com\` or \`example.com:443\`)`
    : null;
}

const SANDBOX_SETTINGS = ['write', 'hosts'];

/**
 * A stdio server's `sandbox`: absent (writes nothing, reaches no host), `off`,
 * or `{ write: [folders], hosts: [names] }`. The folders are checked here by
 * their spelling; that they exist, and what they really are, is checked at start.
 */
function parseServerSandbox(
  at: string,
  raw: unknown,
  mode: unknown,
  problems: Problem[],
): ServerSandbox | 'off' {
  const none: ServerSandbox = { write: [], hosts: [] };
  if (raw === undefined) return none;
  if (raw === 'off') {
    if (mode === 'required')
      problems.push({
        path: at,
        message:
          "`off` contradicts the gateway's `sandbox: required`: every stdio server starts under the sandbox",
      });
    return 'off';
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({
      path: at,
      message:
        '`off`, or a mapping with `write` (folders the server may write) and `hosts` (hosts it may reach)',
    });
    return none;
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry))
    if (!SANDBOX_SETTINGS.includes(key))
      problems.push({
        path: `${at}.${key}`,
        message: `unknown setting \`${key}\`${
          didYouMean(key, SANDBOX_SETTINGS) || ': the settings are `write`, `hosts`'
        }`,
      });
  const list = (key: string, check: (value: string) => string | null): string[] => {
    const value = entry[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      problems.push({ path: `${at}.${key}`, message: 'a list' });
      return [];
    }
    const out: string[] = [];
    value.forEach((item: unknown, index) => {
      const problem = typeof item !== 'string' || item === '' ? 'a non-empty string' : check(item);
      if (problem !== null) problems.push({ path: `${at}.${key}[${index}]`, message: problem });
      else out.push(item as string);
    });
    return out;
  };
  return {
    write: list('write', writableRootProblem),
    hosts: list('hosts', sandboxHostProblem),
  };
}

/** Why `path` cannot be a writable root by its spelling, or null. */
export function writableRootProblem(path: string): string | null {
  if (!isAbsolute(path)) return `is an absolute path, not \`${path}\``;
  if (posix.resolve(path) === '/') return ROOT_NOT_WRITABLE;
  return null;
}

export const ROOT_NOT_WRITABLE =
  '`/` cannot be a writable root: the server could write anywhere this user can; name the folders it needs';

function parseServer(
  name: string,
  raw: unknown,
  mode: unknown,
  problems: Problem[],
): ServerEntry | null {
  const at = `servers.${name}`;
  if (!SERVER_NAME.test(name) || name.includes('__'))
    problems.push({
      path: at,
      message: `a server name is letters, digits, \`-\` and \`_\` without \`__\` (tools are exposed as \`<server>__<tool>\`)`,
    });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({ path: at, message: 'give `command` (stdio) or `url` (Streamable HTTP)' });
    return null;
  }
  const hasUrl = 'url' in raw;
  const hasCommand = 'command' in raw;
  if (hasUrl === hasCommand) {
    problems.push({
      path: at,
      message: hasUrl
        ? 'give either `command` (stdio) or `url` (Streamable HTTP), not both'
        : 'give `command` (stdio) or `url` (Streamable HTTP)',
    });
    return null;
  }
  if (hasUrl) {
    if ('sandbox' in raw) {
      problems.push({
        path: `${at}.sandbox`,
        message:
          'a server reached by URL runs elsewhere: only the stdio servers the gateway starts run under its sandbox',
      });
      return null;
    }
    const parsed = httpServer.safeParse(raw);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, at, ['url']));
      return null;
    }
    const protocol = new URL(parsed.data.url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      problems.push({ path: `${at}.url`, message: 'a Streamable HTTP server has an http(s) URL' });
      return null;
    }
    return { name, kind: 'http', ...parsed.data };
  }
  const parsed = stdioServer.safeParse(raw);
  if (!parsed.success) {
    problems.push(...zodProblems(parsed.error, at, ['command', 'args', 'env', 'sandbox']));
    return null;
  }
  const sandbox = parseServerSandbox(`${at}.sandbox`, parsed.data.sandbox, mode, problems);
  return { name, kind: 'stdio', ...parsed.data, sandbox };
}

function parseTool(name: string, raw: unknown, problems: Problem[]): ToolMapping | null {
  const at = `tools.${name}`;
  if (typeof raw === 'object' && raw !== null && 'readOnly' in raw) {
    const parsed = readOnlyTool.safeParse(raw);
    if (!parsed.success) {
      const only = Object.keys(raw).length === 1;
      problems.push(
        only
          ? { path: `${at}.readOnly`, message: 'is `true`; a tool that mutates names `actions`' }
          : {
              path: at,
              message: 'either `{ readOnly: true }` or `{ actions: [...], args: {...} }`, not both',
            },
      );
      return null;
    }
    return { readOnly: true };
  }
  const parsed = mappedTool.safeParse(raw);
  // Unknown classes are named even when something else in the entry is wrong too.
  const actions = (raw as { actions?: unknown } | null)?.actions;
  let ok = parsed.success;
  if (Array.isArray(actions))
    actions.forEach((action: unknown, index) => {
      if (typeof action === 'string' && !isActionClass(action)) {
        ok = false;
        problems.push({
          path: `${at}.actions[${index}]`,
          message: `unknown action class \`${action}\`${
            didYouMean(action, ACTION_CLASSES) ||
            `: the classes are ${ACTION_CLASSES.map((c) => `\`${c}\``).join(', ')}`
          }`,
        });
      }
    });
  if (!parsed.success)
    problems.push(...zodProblems(parsed.error, at, ['actions', 'args', 'readOnly']));
  if (!ok || !parsed.success) return null;
  const args: Partial<Record<ArgKey, readonly string[]>> = {};
  for (const [key, paths] of Object.entries(parsed.data.args ?? {}))
    if (paths !== undefined) args[key as ArgKey] = paths;
  return { actions: parsed.data.actions, args };
}

/** Validates a parsed configuration document; `base` prefixes nothing (paths are the document's). */
export function validateGatewayConfig(raw: unknown): ConfigLoad {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return {
      ok: false,
      problems: [{ path: '(top level)', message: 'expected a mapping of settings' }],
    };
  const problems: Problem[] = [];
  const top = gatewaySchema.safeParse(raw);
  if (!top.success) problems.push(...zodProblems(top.error, '', Object.keys(gatewaySchema.shape)));
  const doc = raw as Record<string, unknown>;
  const servers: ServerEntry[] = [];
  const rawServers = doc.servers;
  if (typeof rawServers === 'object' && rawServers !== null && !Array.isArray(rawServers)) {
    if (Object.keys(rawServers).length === 0)
      problems.push({ path: 'servers', message: 'name at least one downstream server' });
    for (const [name, value] of Object.entries(rawServers)) {
      const entry = parseServer(name, value, doc.sandbox, problems);
      if (entry !== null) servers.push(entry);
    }
  }
  const tools: { pattern: string; mapping: ToolMapping }[] = [];
  const rawTools = doc.tools;
  if (typeof rawTools === 'object' && rawTools !== null && !Array.isArray(rawTools)) {
    for (const [name, value] of Object.entries(rawTools)) {
      const glob = isGlob(name) ? globProblem(name) : null;
      if (glob !== null) {
        problems.push({ path: `tools.${name}`, message: `is not a usable pattern: ${glob}` });
        continue;
      }
      const mapping = parseTool(name, value, problems);
      if (mapping !== null) tools.push({ pattern: name, mapping });
    }
  }
  const worktree = doc.worktree;
  if (typeof worktree === 'string' && worktree !== '' && !isAbsolute(worktree))
    problems.push({ path: 'worktree', message: `is an absolute path, not \`${worktree}\`` });
  const allowHosts: HostName[] = [];
  if (Array.isArray(doc.allowHosts))
    doc.allowHosts.forEach((value: unknown, index) => {
      if (typeof value !== 'string') return; // reported by the schema
      const problem = hostNameProblem(value);
      if (problem !== null) problems.push({ path: `allowHosts[${index}]`, message: problem });
      else allowHosts.push(parseHostName(value) as HostName);
    });
  if (problems.length > 0 || !top.success) return { ok: false, problems };
  const data = top.data;
  return {
    ok: true,
    config: {
      agent: data.agent,
      workspace: data.workspace,
      ...(data.space === undefined ? {} : { space: data.space }),
      ...(data.mode === undefined ? {} : { mode: data.mode }),
      ...(data.worktree === undefined ? {} : { worktree: data.worktree }),
      ...(data.sandbox === undefined ? {} : { sandbox: data.sandbox }),
      ...(data.hideDenied === true ? { hideDenied: true } : {}),
      allowHosts,
      servers,
      tools,
    },
  };
}

/**
 * The mapping of an exposed name (`<server>__<tool>`): an exact key before a
 * glob, globs in the order of the file; null when none maps it. The gateway
 * and the Claude Code hook (for servers Claude Code reaches directly) both
 * read mappings through this one function.
 */
export function mappingMatcher(config: GatewayConfig): (name: string) => ToolMapping | null {
  const exact = new Map<string, ToolMapping>();
  const globs: { test: (name: string) => boolean; mapping: ToolMapping }[] = [];
  // Tool names come from downstream servers: matched in linear time, never by a regex.
  const matchers = new Globs();
  for (const { pattern, mapping } of config.tools) {
    if (isGlob(pattern)) globs.push({ test: matchers.matcher(pattern), mapping });
    else exact.set(pattern, mapping);
  }
  return (name) => exact.get(name) ?? globs.find((g) => g.test(name))?.mapping ?? null;
}

/** Reads and validates a configuration file (YAML or JSON). */
export function loadGatewayConfig(file: string): ConfigLoad {
  const read = readSettingsFile(file);
  if (!read.ok) return read;
  return validateGatewayConfig(read.value);
}
