// The server's configuration: a file (YAML or JSON), then the environment,
// then flags, each overriding the one before; validated whole at start, with
// every problem listed, before anything listens.

import { didYouMean } from '@warden/engine';
import { z } from 'zod';
import { readSettingsFile } from '../policy/load.js';
import type { Problem } from '../policy/problems.js';
import { lowercased } from '../policy/problems.js';
import { hostNameProblem } from '../gateway/hosts.js';
import { ReportsSettingsSchema } from '../report/settings.js';
import { DEFAULT_DATA } from '../store/open.js';

export const DEFAULT_PORT = 8787;

/**
 * How long a client may take to send its headers and its whole request, how
 * long an idle kept-alive connection stays open, and how many connections
 * are held at once. A response may take as long as it needs (an approver's
 * channel, a decision waiting for an answer): these limits are on the client.
 */
export const HttpSettingsSchema = z
  .strictObject({
    headersTimeoutSeconds: z
      .number()
      .positive('a timeout is more than 0 seconds')
      .max(600)
      .default(20)
      .describe("a client that has not sent a request's headers by then is disconnected"),
    requestTimeoutSeconds: z
      .number()
      .positive('a timeout is more than 0 seconds')
      .max(3600)
      .default(60)
      .describe(
        'a client that has not sent its whole request (headers and body) by then is disconnected',
      ),
    keepAliveTimeoutSeconds: z
      .number()
      .positive('a timeout is more than 0 seconds')
      .max(600)
      .default(5)
      .describe('an idle connection between two requests is closed after this'),
    maxConnections: z
      .number()
      .int('a number of connections is a whole number')
      .min(1)
      .max(1_000_000)
      .default(1024)
      .describe('connections beyond this many are closed at once'),
  })
  .refine((h) => h.headersTimeoutSeconds <= h.requestTimeoutSeconds, {
    message:
      'the headers of a request cannot take longer than the whole request: give `headersTimeoutSeconds` at most `requestTimeoutSeconds`',
    path: ['headersTimeoutSeconds'],
  })
  .prefault({});

export const configSchema = z.strictObject({
  host: z.string().min(1, 'give an address to listen on, such as `127.0.0.1`').default('127.0.0.1'),
  port: z
    .number()
    .int('a port is a whole number')
    .min(0, 'a port is 0 to 65535 (0 picks a free one)')
    .max(65535, 'a port is 0 to 65535 (0 picks a free one)')
    .default(DEFAULT_PORT),
  data: z.string().min(1).default(DEFAULT_DATA),
  allowHosts: z
    .array(
      z.string().superRefine((name, check) => {
        const problem = hostNameProblem(name);
        if (problem !== null) check.addIssue({ code: 'custom', message: problem });
      }),
      'a list of host names',
    )
    .default([])
    .describe(
      '`Host` names accepted besides the loopback names and the address listened on (a reverse proxy, a LAN name); default: WARDEN_ALLOW_HOSTS',
    ),
  databaseUrl: z.string().min(1).optional().describe('Postgres; default: DATABASE_URL'),
  databaseSchema: z.string().min(1).optional().describe('default: WARDEN_DB_SCHEMA, else public'),
  managedPolicy: z
    .string()
    .min(1)
    .optional()
    .describe('a managed policy file; default: WARDEN_MANAGED_POLICY'),
  approvalTimeoutSeconds: z.number().positive().max(3600).default(60),
  overrideWindowSeconds: z
    .number()
    .positive()
    .max(7 * 86400)
    .default(3600),
  shutdownGraceSeconds: z.number().min(0).max(600).default(10),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The deterministic supervisor report on a schedule (I11); off unless `schedule` is set. */
  reports: ReportsSettingsSchema,
  /** Slow and idle connections are closed, and their number is capped (see `HttpSettingsSchema`). */
  http: HttpSettingsSchema,
  /** What the commands this server grants (`warden exec --grant`) may not read. */
  sandbox: z
    .strictObject({
      denyRead: z
        .array(z.string().min(1))
        .optional()
        .describe(
          'paths a granted command may not read (`~` is the home folder); replaces the credential folders (`~/.ssh`, `~/.aws`, …); the data folder is always added',
        ),
    })
    .prefault({}),
});

export type ServerConfig = z.infer<typeof configSchema>;

/** The setting names of the object at `path` (through defaults and optionals), for "did you mean". */
function keysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType | undefined = configSchema;
  for (let i = 0; ; i += 1) {
    while (schema !== undefined && 'innerType' in schema._zod.def)
      schema = schema._zod.def.innerType as z.ZodType;
    if (!(schema instanceof z.ZodObject)) return [];
    if (i === path.length) return Object.keys(schema.shape);
    schema = (schema.shape as Record<string, z.ZodType | undefined>)[String(path[i])];
  }
}

export interface ConfigFlags {
  readonly config?: string;
  readonly data?: string;
  readonly port?: string;
  readonly host?: string;
  /** `--allow-host`, repeatable: replaces the environment's and the file's list. */
  readonly allowHost?: readonly string[];
}

export type ConfigResult =
  | { readonly ok: true; readonly config: ServerConfig }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/** The configuration from a file, the environment and flags, or every problem with it. */
export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): ConfigResult {
  const problems: Problem[] = [];
  let fromFile: Record<string, unknown> = {};
  if (flags.config !== undefined) {
    const parsed = readSettingsFile(flags.config);
    if (!parsed.ok) return parsed;
    if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
      return {
        ok: false,
        problems: [{ path: flags.config, message: 'expected a mapping of settings' }],
      };
    fromFile = parsed.value as Record<string, unknown>;
  }
  const merged: Record<string, unknown> = { ...fromFile };
  const fromEnv: [string, string | undefined][] = [
    ['databaseUrl', env.DATABASE_URL],
    ['databaseSchema', env.WARDEN_DB_SCHEMA],
    ['managedPolicy', env.WARDEN_MANAGED_POLICY],
    ['logLevel', env.WARDEN_LOG_LEVEL],
  ];
  for (const [key, value] of fromEnv) if (value !== undefined && value !== '') merged[key] = value;
  // Names from the environment and from flags are checked where they come from, to say so.
  const hostList = (where: string, names: readonly string[]): string[] =>
    names.filter((name) => {
      const problem = hostNameProblem(name);
      if (problem !== null) problems.push({ path: where, message: problem });
      return problem === null;
    });
  if (env.WARDEN_ALLOW_HOSTS !== undefined && env.WARDEN_ALLOW_HOSTS.trim() !== '')
    merged.allowHosts = hostList(
      'WARDEN_ALLOW_HOSTS',
      env.WARDEN_ALLOW_HOSTS.split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    );
  if (flags.allowHost !== undefined && flags.allowHost.length > 0)
    merged.allowHosts = hostList('--allow-host', flags.allowHost);
  if (flags.data !== undefined) merged.data = flags.data;
  if (flags.host !== undefined) merged.host = flags.host;
  if (flags.port !== undefined) {
    const port = Number(flags.port);
    if (!Number.isInteger(port))
      problems.push({ path: '--port', message: `\`${flags.port}\` is not a port number` });
    else merged.port = port;
  }
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        // Nested sections (`reports`, `reports.thresholds.…`) suggest from their own keys.
        const known = keysAt(issue.path);
        const at = issue.path.map(String).join('.');
        for (const unknown of issue.keys)
          problems.push({
            path: at === '' ? unknown : `${at}.${unknown}`,
            message: `unknown setting \`${unknown}\`${
              didYouMean(unknown, known) ||
              `: the settings${at === '' ? '' : ` of \`${at}\``} are ${known
                .map((k) => `\`${k}\``)
                .join(', ')}`
            }`,
          });
        continue;
      }
      const key = issue.path.join('.');
      problems.push({
        path: key === '' ? (flags.config ?? 'config') : key,
        message: lowercased(issue.message),
      });
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, config: parsed.data };
}
