// Grants for `warden exec --grant` (G2): when a hook allows a shell command,
// it hands the runtime a command that runs the original one under Warden's
// sandbox, and names the decision by a grant: the decision's audit id, an
// expiry and a MAC over both, the command's hash and the worktree, made with a
// key this deployment keeps in its store. The runner accepts only a grant that
// verifies, for exactly that command and worktree, whose decision is a
// recorded allow that has not run yet (`profile.ts` makes the profile it runs
// under from that decision and the policy, never from what the caller says).

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretStore } from '../store/types.js';

/** How long a grant stays good: the runtime starts the command right after the hook answers. */
export const GRANT_TTL_MS = 5 * 60_000;
const VERSION = 'wg1';
const SECRET_NAME = 'exec-grant-key';
/** A grant is short; a longer one is not Warden's. */
const MAX_GRANT_LENGTH = 512;

/** The key grants are signed with, made on first use and shared by every node. */
export async function grantKey(secrets: SecretStore): Promise<Buffer> {
  const value = await secrets.ensure(SECRET_NAME, () => randomBytes(32).toString('base64url'));
  return Buffer.from(value, 'base64url');
}

function mac(key: Buffer, auditId: string, expires: string, command: string, worktree: string) {
  const digest = createHash('sha256').update(command, 'utf8').digest('hex');
  return createHmac('sha256', key)
    .update([VERSION, auditId, expires, digest, worktree].join('\n'), 'utf8')
    .digest();
}

/** A grant for running `command` in `worktree` under the decision `auditId`. */
export function issueGrant(
  key: Buffer,
  grant: { auditId: string; command: string; worktree: string; at: number },
): string {
  const expires = (grant.at + GRANT_TTL_MS).toString(36);
  const signature = mac(key, grant.auditId, expires, grant.command, grant.worktree);
  return `${VERSION}.${grant.auditId}.${expires}.${signature.toString('base64url')}`;
}

export type GrantCheck =
  | { readonly ok: true; readonly auditId: string }
  | { readonly ok: false; readonly problem: string };

/** Whether `grant` was made by this deployment for this command and worktree, and is still good. */
export function verifyGrant(
  key: Buffer,
  grant: string,
  call: { command: string; worktree: string; at: number },
): GrantCheck {
  const parts = grant.length > MAX_GRANT_LENGTH ? [] : grant.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION)
    return { ok: false, problem: 'the grant is not one Warden made' };
  const [, auditId, expires, signature] = parts as [string, string, string, string];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, auditId, expires, call.command, call.worktree);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return {
      ok: false,
      problem:
        'the grant does not verify: it was not made by this deployment for this command line in this worktree',
    };
  const until = Number.parseInt(expires, 36);
  if (!Number.isFinite(until) || call.at >= until)
    return { ok: false, problem: 'the grant has expired: ask for the command again' };
  return { ok: true, auditId };
}
