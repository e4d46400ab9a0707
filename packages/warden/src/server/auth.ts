// Identities and roles (contracts §8): every request carries a bearer token;
// the server finds it by its hash and acts as the identity it names — an
// agent token's workspace and agent id are stamped on what it asks, never
// taken from the request body (I1). What a token is and how one is made is
// `../tokens.ts`; here is what each role may do.

import type { ApproverRole, Role, TokenRecord } from '../store/types.js';
import { ROLES } from '../store/types.js';

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
