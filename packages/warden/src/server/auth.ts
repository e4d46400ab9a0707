// Identities and roles (contracts §8): every request carries a bearer token;
// the server finds it by its hash and acts as the identity it names — an
// agent token's workspace and agent id are stamped on what it asks, never
// taken from the request body (I1).

import { createHash, randomBytes } from 'node:crypto';
import type { ApproverRole, Role, TokenRecord, TokenStore } from '../store/types.js';
import { ROLES } from '../store/types.js';
import { newId } from '../ids.js';

export const TOKEN_PREFIX = 'wdn_';

export type Identity = TokenRecord;

/** What a role may do. Admin is the superuser of an installation: policy, answers, overrides. */
export type Permission =
  'decide' | 'report' | 'inspect' | 'read' | 'policy' | 'answer' | 'override' | 'tokens';

const GRANTS: Readonly<Record<Role, readonly Permission[]>> = {
  admin: ['read', 'policy', 'answer', 'override', 'tokens'],
  approver: ['read', 'answer'],
  overrider: ['read', 'override'],
  viewer: ['read'],
  agent: ['decide', 'report', 'inspect'],
};

export function can(identity: Identity, permission: Permission): boolean {
  return GRANTS[identity.role].includes(permission);
}

/** `an \`agent\` token`, `a \`viewer\` token`: a role's token, with the article English wants. */
export function roleToken(role: string): string {
  return `${/^[aeiou]/i.test(role) ? 'an' : 'a'} \`${role}\` token`;
}

const DOES: Readonly<Record<Permission, string>> = {
  decide: 'ask for decisions or act as an agent',
  report: 'report how calls ended',
  inspect: 'use the inspector',
  read: 'read the records of a workspace',
  policy: 'change policies, agents or tasks',
  answer: 'answer approvals',
  override: 'override soft denies',
  tokens: 'manage tokens',
};

/** The sentence a role's refusal says: what it may not do, and which roles may. */
export function refusal(role: Role, permission: Permission): string {
  const may = ROLES.filter((r) => GRANTS[r].includes(permission)).map((r) => `\`${r}\``);
  const list = may.length < 2 ? may.join('') : `${may.slice(0, -1).join(', ')} or ${may.at(-1)}`;
  return `${roleToken(role)} may not ${DOES[permission]}: that takes ${/^`[aeiou]/i.test(list) ? 'an' : 'a'} ${list} token`;
}

/** The approver roles a live channel of this identity holds (G22 reads them). */
export function approverRoles(identity: Identity): ApproverRole[] {
  const roles: ApproverRole[] = [];
  if (can(identity, 'answer')) roles.push('approver');
  if (can(identity, 'override')) roles.push('overrider');
  return roles;
}

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
  readonly by: string;
  readonly at: number;
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
  };
  await store.add(record, tokenHash(token));
  return { ok: true, token, record };
}
