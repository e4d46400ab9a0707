// `warden token create|list|revoke`: identities for humans and for agents'
// adapters (contracts §8). Writes to the store directly (the data folder, or
// the Postgres of DATABASE_URL), so the first admin token needs no server.
// A token is shown once; only its hash is kept. A token may expire
// (`--expires`); the server refuses it from then on. The store loads when a
// subcommand runs.

import { userInfo } from 'node:os';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { InputIssue } from '../../policy/load.js';
import type { Store, TokenRecord } from '../../store/types.js';
import { dataOptions } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, fail, printJson, printListing, style, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { handler } from '../registration.js';

function create(token: CommandUnknownOpts) {
  return dataOptions(
    token
      .command('create')
      .description('make a token and print it once')
      .option('--role <role>', '`admin`, `approver`, `overrider`, `viewer` or `agent`')
      .option('--name <name>', 'who or what holds it')
      .option('--workspace <id>', 'bind it to one workspace (required for `agent`)')
      .option('--agent <id>', 'the agent an `agent` token is')
      .option('--space <id>', 'bind an `agent` token to a space')
      .option('--mode <name>', 'bind an `agent` token to a mode')
      .option(
        '--expires <when>',
        'refuse it after a span (`90m`, `24h`, `30d`, `2w`) or at a time with a zone (`2026-12-01T08:00:00Z`); default: never',
      ),
  );
}

function list(token: CommandUnknownOpts) {
  return dataOptions(
    token
      .command('list')
      .description('the tokens: names, roles, bindings and expiry, never the secrets')
      .option('--all', 'include revoked tokens'),
  );
}

function revoke(token: CommandUnknownOpts) {
  return dataOptions(
    token
      .command('revoke')
      .description('revoke a token (servers refuse it within a second)')
      .argument('<id>', 'the token id (or its name, when only one live token has it)'),
  );
}

export type TokenCreateOptions = OptionsOf<typeof create>;
export type TokenListOptions = OptionsOf<typeof list>;
export type TokenRevokeOptions = OptionsOf<typeof revoke>;

export function registerToken(program: CommandUnknownOpts, cli: Cli): void {
  const token = program
    .command('token')
    .description("API tokens for people and for agents' adapters (shown once, kept as a hash)");
  create(token).action(handler(cli, runTokenCreate));
  list(token).action(handler(cli, runTokenList));
  revoke(token).action(handler(cli, runTokenRevoke));
}

async function withStore<T>(
  io: Io,
  options: Pick<TokenListOptions, 'data' | 'json'>,
  use: (store: Store) => Promise<T>,
): Promise<T> {
  const { openStoreFor } = await import('../open.js');
  const store = await openStoreFor(io, options.data, { json: options.json === true });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

function binding(record: TokenRecord): string {
  const parts = [
    record.workspace === null ? null : `workspace ${record.workspace}`,
    record.agent === null ? null : `agent ${record.agent}`,
    record.space === null ? null : `space ${record.space}`,
    record.mode === null ? null : `mode ${record.mode}`,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? 'every workspace' : parts.join(', ');
}

/** `  expires …`, or `  expired …` once that time has passed; empty for a token that never expires. */
function expiry(record: TokenRecord, now: number, red: (text: string) => string): string {
  if (record.expiresAt === null) return '';
  return Date.parse(record.expiresAt) <= now
    ? red(`  expired ${record.expiresAt}`)
    : `  expires ${record.expiresAt}`;
}

/** Where an agent token acts when it binds no space or mode (contracts §8); empty for other tokens. */
function placement(record: TokenRecord): string {
  if (record.role !== 'agent') return '';
  const free = [
    record.space === null ? 'space' : null,
    record.mode === null ? 'mode' : null,
  ].filter((k): k is string => k !== null);
  if (free.length === 0) return '';
  const what = free.join(' and ');
  return `it binds no ${what}: the agent acts in the ${what} it is registered in (\`PUT /v1/agents/${record.agent ?? ''}\`), else in none, and a request may not name another\n`;
}

export async function runTokenCreate(io: Io, options: TokenCreateOptions): Promise<number> {
  const { createToken, parseExpiry } = await import('../../tokens.js');
  const json = options.json === true;
  const missing: InputIssue[] = [
    ...(options.role === undefined
      ? [
          {
            code: 'missing_field' as const,
            path: '--role',
            message: 'give a role: `admin`, `approver`, `overrider`, `viewer` or `agent`',
          },
        ]
      : []),
    ...(options.name === undefined
      ? [
          {
            code: 'missing_field' as const,
            path: '--name',
            message: 'give the token a name: who or what holds it',
          },
        ]
      : []),
  ];
  let expiresAt: number | undefined;
  if (options.expires !== undefined) {
    const at = parseExpiry(options.expires, io.now());
    if (typeof at === 'number') expiresAt = at;
    else missing.push({ code: 'bad_timestamp' as const, path: '--expires', message: at.problem });
  }
  if (missing.length > 0) return fail(io, json, missing);
  let by = 'cli';
  try {
    by = `cli:${userInfo().username}`;
  } catch {
    // No user name on this host: `cli` it is.
  }
  return withStore(io, options, async (store) => {
    const made = await createToken(store.tokens, {
      role: options.role as string,
      name: options.name as string,
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
      ...(options.agent === undefined ? {} : { agent: options.agent }),
      ...(options.space === undefined ? {} : { space: options.space }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(expiresAt === undefined ? {} : { expiresAt }),
      by,
      at: io.now(),
    });
    if (!made.ok)
      return fail(
        io,
        json,
        made.problems.map((p) => ({ code: 'invalid_value' as const, ...p })),
      );
    if (json) {
      printJson(io, { token: made.token, record: made.record });
      return EXIT.ok;
    }
    const s = style(io.color);
    io.err(
      `${s.bold(`token for ${made.record.name}`)} (${made.record.role}; ${binding(made.record)}), id ${made.record.id}\n` +
        (made.record.expiresAt === null ? '' : `it expires at ${made.record.expiresAt}\n`) +
        placement(made.record) +
        'it is shown once and kept nowhere: store it now. Use it as `Authorization: Bearer <token>` or `WARDEN_TOKEN`\n',
    );
    io.out(`${made.token}\n`);
    return EXIT.ok;
  });
}

export async function runTokenList(io: Io, options: TokenListOptions): Promise<number> {
  return withStore(io, options, async (store) => {
    const all = await store.tokens.list();
    const tokens = options.all === true ? all : all.filter((t) => t.revokedAt === null);
    const now = io.now();
    return printListing(io, options.json === true, {
      value: { tokens },
      empty: tokens.length === 0,
      none: 'no tokens yet: `warden token create --role admin --name <you>`\n',
      text: (s) =>
        tokens
          .map(
            (t) =>
              `${t.id}  ${s.bold(t.name)}  ${t.role}  ${binding(t)}  created ${t.createdAt} by ${t.createdBy}${expiry(t, now, s.red)}${t.revokedAt === null ? '' : s.red(`  revoked ${t.revokedAt}`)}\n`,
          )
          .join(''),
    });
  });
}

export async function runTokenRevoke(
  io: Io,
  id: string,
  options: TokenRevokeOptions,
): Promise<number> {
  const json = options.json === true;
  return withStore(io, options, async (store) => {
    const all = await store.tokens.list();
    const byName = all.filter((t) => t.name === id && t.revokedAt === null);
    const known = all.find((t) => t.id === id) ?? (byName.length === 1 ? byName[0] : undefined);
    if (known === undefined)
      return usage(
        io,
        json,
        'id',
        byName.length > 1
          ? `${byName.length} tokens are named \`${id}\`: give the id (${byName.map((t) => `\`${t.id}\``).join(', ')})`
          : `no token \`${id}\`: \`warden token list\` shows them`,
      );
    if (known.revokedAt !== null)
      return usage(io, json, 'id', `\`${known.id}\` was revoked already, at ${known.revokedAt}`);
    const revoked = await store.tokens.revoke(known.id, io.now());
    if (revoked === null) return usage(io, json, 'id', `\`${known.id}\` was revoked already`);
    if (json) printJson(io, { revoked });
    else io.out(`revoked ${revoked.id} (${revoked.name}): servers refuse it within a second\n`);
    return EXIT.ok;
  });
}
