// The profile a granted command runs under (G2), made from its recorded
// decision and the policy: the worktree and the folders the policy lets the
// agent write in, the hosts its command line names (which the decision
// allowed), and no credential folder. A grant that does not verify, a
// decision that is not an allow, and one whose command ran already give none.
// A grant is claimed in the store before its profile is given, once: a
// second run started with it, at the same time or after the first was
// killed, is refused.

import { realpathSync, statSync } from 'node:fs';
import { DEFAULT_CONTROL_PATHS, writableAreas } from '@warden/engine';
import type { Gate } from '../gate/gate.js';
import type { PolicySnapshot } from '../gate/snapshot.js';
import type { AuditReader, GrantStore, SecretStore } from '../store/types.js';
import { AUDIT_STATUSES } from '../store/types.js';
import { commandHosts } from '../tools/builtin/run-command.js';
import { grantKey, verifyGrant } from './grant.js';
import { DEFAULT_DENY_READ } from './runtime.js';

/** What a granted command may do, made from its decision and the policy. */
export interface ExecProfile {
  readonly worktree: string;
  /** Folders beyond the worktree the policy lets this agent write in. */
  readonly write: readonly string[];
  /** Hosts the command line names, which the decision allowed. */
  readonly hosts: readonly string[];
  readonly denyRead: readonly string[];
  /**
   * The decision allowed the command only to run transactionally (E44): it
   * runs over a copy-on-write layer or not at all, and without network.
   */
  readonly transactional: boolean;
  /** The paths that change what later commands run, as the policy and the managed layer say (E44). */
  readonly controlPaths: readonly string[];
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
  readonly grants: GrantStore;
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
  call: {
    command: string;
    worktree: string;
    at: number;
    /** The caller's identity: a grant of another agent's decision is refused before it is claimed. */
    owner?: { readonly workspace: string; readonly agent: string };
  },
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
  if (
    call.owner !== undefined &&
    (String(decision.workspace) !== call.owner.workspace ||
      String(decision.agentId) !== call.owner.agent)
  )
    return { ok: false, problem: `decision \`${auditId}\` is not this agent's` };
  // Claimed before anything runs: one run per grant, however many start with it at once.
  if (!(await sources.grants.claim(auditId, new Date(call.at))))
    return {
      ok: false,
      problem: `the grant of decision \`${auditId}\` was claimed already: a grant runs once`,
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
  // The recorded decision says whether its allow rests on a transactional run (E44).
  const shown = (decision.decision ?? {}) as { transactional?: unknown };
  const transactional = shown.transactional === true;
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
        // A command allowed only to run transactionally reaches no host: what it does is its layer.
        hosts: transactional ? [] : commandHosts(call.command),
        denyRead: [...(sources.denyRead ?? DEFAULT_DENY_READ)],
        transactional,
        controlPaths: [
          ...DEFAULT_CONTROL_PATHS,
          ...(snapshot.compiled.policy.controlPaths ?? []),
          ...(snapshot.managed?.policy.controlPaths ?? []),
        ],
      },
    },
  };
}

/**
 * Records that a granted run starts (a `Staged` call entry against its
 * decision), committed before the command is given its profile. How it ends
 * is recorded after it; a run killed before that keeps this entry.
 */
export async function recordStart(gate: Gate, run: GrantedRun, command: string): Promise<void> {
  await gate.complete(
    { workspace: run.workspace, agent: run.agent, source: 'exec', worktree: run.profile.worktree },
    {
      callId: run.callId,
      decisionId: run.auditId,
      tool: run.tool ?? 'exec',
      arguments: { command, started: true },
      status: 'Staged',
      durationMs: null,
    },
  );
}
