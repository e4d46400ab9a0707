// Grants for `warden exec --grant` (G2): when a hook allows a shell command,
// it hands the runtime a command that runs the original one under Warden's
// sandbox, and names the decision by a grant: the decision's audit id, an
// expiry and a MAC over both, the command's hash and the worktree, made with a
// key this deployment keeps in its store. The runner accepts only a grant that
// verifies, for exactly that command and worktree, whose decision is a
// recorded allow that has not run yet; the profile it runs under is made here
// from that decision and the policy, never from what the caller says.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { writableAreas } from '@warden/engine';
import type { PolicySnapshot } from '../gate/snapshot.js';
import type { AuditReader, SecretStore } from '../store/types.js';
import { AUDIT_STATUSES } from '../store/types.js';
import { commandHosts } from '../tools/builtin/run-command.js';
import { DEFAULT_DENY_READ } from './runtime.js';

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

/** What a granted command may do, made from its decision and the policy. */
export interface ExecProfile {
  readonly worktree: string;
  /** Folders beyond the worktree the policy lets this agent write in. */
  readonly write: readonly string[];
  /** Hosts the command line names, which the decision allowed. */
  readonly hosts: readonly string[];
  readonly denyRead: readonly string[];
}

export interface GrantedRun {
  readonly auditId: string;
  readonly callId: string;
  readonly tool: string | null;
  readonly workspace: string;
  readonly agent: string;
  readonly profile: ExecProfile;
}

export interface GrantSources {
  readonly secrets: SecretStore;
  readonly audit: AuditReader;
  snapshot(workspace: string): Promise<PolicySnapshot>;
  /** Paths no granted command may read (default: the credential folders). */
  readonly denyRead?: readonly string[];
}

function isFolder(path: string): string | null {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/**
 * The run a grant stands for, or why there is none: the grant verifies, its
 * decision is recorded as an allow, and no run was reported against it yet.
 */
export async function grantedRun(
  sources: GrantSources,
  grant: string,
  call: { command: string; worktree: string; at: number },
): Promise<{ ok: true; run: GrantedRun } | { ok: false; problem: string }> {
  const checked = verifyGrant(await grantKey(sources.secrets), grant, call);
  if (!checked.ok) return checked;
  const { auditId } = checked;
  const [decision] = await sources.audit.query({
    decisionId: auditId,
    kinds: ['decision'],
    // A prompt is recorded first as `ask`, then as what the human's answer made it.
    order: 'newest',
    limit: 1,
  });
  if (decision === undefined)
    return { ok: false, problem: `no recorded decision \`${auditId}\` for this grant` };
  if (decision.outcome !== 'allow')
    return { ok: false, problem: `decision \`${auditId}\` did not allow this command` };
  const [ran] = await sources.audit.query({
    decisionId: auditId,
    kinds: ['call'],
    statuses: AUDIT_STATUSES.filter((s) => s !== 'Staged'),
    limit: 1,
  });
  if (ran !== undefined)
    return {
      ok: false,
      problem: `the command of decision \`${auditId}\` ran already (entry \`${String(ran.id)}\`): a grant runs once`,
    };
  const workspace = String(decision.workspace);
  const agent = String(decision.agentId);
  const request = (decision.request ?? {}) as { space?: unknown; mode?: unknown };
  const snapshot = await sources.snapshot(workspace);
  const areas = writableAreas({
    policy: snapshot.compiled,
    managed: snapshot.managed,
    workspace,
    agent,
    ...(typeof request.space === 'string' ? { space: request.space } : {}),
    ...(typeof request.mode === 'string' ? { mode: request.mode } : {}),
    at: call.at,
  });
  const write = areas.map(isFolder).filter((p): p is string => p !== null);
  return {
    ok: true,
    run: {
      auditId,
      callId: String(decision.callId),
      tool: typeof decision.tool === 'string' ? decision.tool : null,
      workspace,
      agent,
      profile: {
        worktree: call.worktree,
        write,
        hosts: commandHosts(call.command),
        denyRead: [...(sources.denyRead ?? DEFAULT_DENY_READ)],
      },
    },
  };
}
