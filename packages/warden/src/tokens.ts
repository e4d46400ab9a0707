// What a token is, wherever one is made or checked (the server, the command
// line, a capability): its form (`wdn_…`, shown once), the hash kept in its
// place, when it expires, and what a request for one must hold. Who may do
// what with a token is the server's business (`server/auth.ts`).

import { createHash, randomBytes } from 'node:crypto';
import { parseTimestamp } from '@warden/engine';
import type { Role, TokenRecord, TokenStore } from './store/types.js';
import { ROLES } from './store/types.js';
import { newId } from './ids.js';

export const TOKEN_PREFIX = 'wdn_';

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export interface TokenRequest {
  readonly role: string;
  readonly name: string;
  readonly workspace?: string;
  readonly agent?: string;
  readonly space?: string;
  readonly mode?: string;
  /** When the token stops being accepted (epoch ms); none: it does not expire. */
  readonly expiresAt?: number;
  readonly by: string;
  readonly at: number;
}

const SPAN_UNITS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** The longest a token may be made to last: ten years. */
const LONGEST_MS = 3650 * 86_400_000;

/**
 * When a token given `text` expires (epoch ms), from `now`: a span (`90m`,
 * `24h`, `30d`, `2w`) or an ISO 8601 time with a zone; or what is wrong with it.
 */
export function parseExpiry(text: string, now: number): number | { problem: string } {
  const span = /^(\d{1,7})\s*([mhdw])$/.exec(text.trim());
  let at: number;
  if (span !== null) {
    const amount = Number(span[1]);
    if (amount === 0)
      return { problem: `\`${text}\` is no time at all: give e.g. \`24h\` or \`30d\`` };
    at = now + amount * (SPAN_UNITS[span[2] as string] as number);
  } else if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const parsed = parseTimestamp(text.trim());
    if (typeof parsed !== 'number') return parsed;
    at = parsed;
  } else
    return {
      problem: `\`${text}\` is neither a span like \`24h\`, \`30d\` (m, h, d or w) nor a time with a zone like \`2026-12-01T08:00:00Z\``,
    };
  if (at <= now)
    return { problem: `\`${text}\` is not in the future (now is ${new Date(now).toISOString()})` };
  if (at - now > LONGEST_MS)
    return { problem: `\`${text}\` is more than ten years away: a token lasts at most 3650d` };
  return at;
}

/** When a token expired, if it has by `now`; null while it is valid or when it never expires. */
export function expiredAt(token: TokenRecord, now: number): string | null {
  if (token.expiresAt === null) return null;
  return Date.parse(token.expiresAt) <= now ? token.expiresAt : null;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._@:-]{0,99}$/;

/** The problems with a token request, each with the option it concerns. */
export function tokenProblems(request: TokenRequest): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!(ROLES as readonly string[]).includes(request.role))
    problems.push({
      path: '--role',
      message: `unknown role \`${request.role}\`: use ${ROLES.map((r) => `\`${r}\``).join(', ')}`,
    });
  if (!NAME.test(request.name))
    problems.push({
      path: '--name',
      message: `\`${request.name}\` is not a name: letters, digits, space, \`. _ @ : -\`, at most 100`,
    });
  for (const [key, value] of [
    ['--workspace', request.workspace],
    ['--agent', request.agent],
    ['--space', request.space],
    ['--mode', request.mode],
  ] as const) {
    if (value !== undefined && !/^[^\p{Cc}\s][^\p{Cc}]{0,255}$/u.test(value))
      problems.push({ path: key, message: `\`${value}\` is not a valid id` });
  }
  if (request.role === 'agent') {
    if (request.workspace === undefined)
      problems.push({
        path: '--workspace',
        message: 'an agent token acts in one workspace: give `--workspace`',
      });
    if (request.agent === undefined)
      problems.push({ path: '--agent', message: 'an agent token is one agent: give `--agent`' });
  } else {
    for (const [key, value] of [
      ['--agent', request.agent],
      ['--space', request.space],
      ['--mode', request.mode],
    ] as const)
      if (value !== undefined)
        problems.push({
          path: key,
          message: `\`${key}\` binds agent tokens only, not a \`${request.role}\``,
        });
  }
  return problems;
}

/** Makes a token and stores its hash; the token itself is returned once and kept nowhere. */
export async function createToken(
  store: TokenStore,
  request: TokenRequest,
): Promise<
  | { ok: true; token: string; record: TokenRecord }
  | { ok: false; problems: { path: string; message: string }[] }
> {
  const problems = tokenProblems(request);
  if (problems.length > 0) return { ok: false, problems };
  const token = newToken();
  const record: TokenRecord = {
    id: `tok_${newId().toLowerCase()}`,
    name: request.name,
    role: request.role as Role,
    workspace: request.workspace ?? null,
    agent: request.agent ?? null,
    space: request.space ?? null,
    mode: request.mode ?? null,
    createdAt: new Date(request.at).toISOString(),
    createdBy: request.by,
    revokedAt: null,
    expiresAt: request.expiresAt === undefined ? null : new Date(request.expiresAt).toISOString(),
  };
  await store.add(record, tokenHash(token));
  return { ok: true, token, record };
}
