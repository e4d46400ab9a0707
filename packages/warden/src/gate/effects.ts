// What a transactional run did, decided before it lands (E44): one more
// request of the same call per class of effect, in order (deletions, writes
// outside the worktree, writes that change what later commands run), each
// with the call's own context and id. What the call's own decision allowed
// already is not asked again (the engine's `observed` fact): the paths its
// command was read to touch, per class, or any path where it was read with
// paths unknown. A deny that the effects meet denies; a prompt waits for a
// human with the effects in view; the first that is not an allow decides.

import type { ActionClass } from '@warden/engine';
import { DEFAULT_TABLE, analyzeCommand } from '@warden/engine';
import type { EffectRequests } from '../sandbox/effects.js';
import { EFFECT_CLASSES } from '../sandbox/effects.js';
import type { AuditReader } from '../store/types.js';
import type { Gate } from './gate.js';
import type { CallContext, DecideOptions, GateDecision } from './types.js';

/** The most paths one request names: more are decided in several requests of the call. */
const PATHS_PER_REQUEST = 1024;

export interface EffectsDecision {
  readonly outcome: 'allow' | 'deny';
  readonly reason: string;
  /** Each request's decision, in order; the last one decided. */
  readonly decisions: readonly GateDecision[];
}

/** The recorded call a run's effects belong to, as its decision was made. */
export interface DecidedCall {
  readonly auditId: string;
  readonly callId: string;
  readonly tool: string | null;
  readonly context: CallContext;
  readonly command: string | null;
  readonly actions: readonly string[];
  readonly paths: readonly string[] | null;
}

/** The call decision `auditId` records, if it was an allow; or why not. */
export async function decidedCall(
  audit: AuditReader,
  auditId: string,
): Promise<{ ok: true; call: DecidedCall } | { ok: false; problem: string }> {
  const [entry] = await audit.query({
    decisionId: auditId,
    kinds: ['decision'],
    order: 'newest',
    limit: 1,
  });
  if (entry === undefined) return { ok: false, problem: `no recorded decision \`${auditId}\`` };
  if (entry.outcome !== 'allow')
    return { ok: false, problem: `decision \`${auditId}\` did not allow its call` };
  const request = (entry.request ?? {}) as {
    workspace?: unknown;
    agent?: unknown;
    space?: unknown;
    mode?: unknown;
    command?: unknown;
    worktree?: unknown;
    actions?: unknown;
    args?: { paths?: unknown };
  };
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : undefined;
  const space = text(request.space);
  const mode = text(request.mode);
  const worktree = text(request.worktree);
  return {
    ok: true,
    call: {
      auditId,
      callId: String(entry.callId),
      tool: text(entry.tool) ?? null,
      context: {
        workspace: String(entry.workspace),
        agent: String(entry.agentId),
        ...(space === undefined ? {} : { space }),
        ...(mode === undefined ? {} : { mode }),
        ...(worktree === undefined ? {} : { worktree }),
        source: 'exec',
      },
      command: text(request.command) ?? null,
      actions: Array.isArray(request.actions)
        ? request.actions.filter((a): a is string => typeof a === 'string')
        : [],
      paths: Array.isArray(request.args?.paths)
        ? request.args.paths.filter((p): p is string => typeof p === 'string')
        : null,
    },
  };
}

/**
 * The paths the call's own decision allowed per class: what its command was
 * read to touch, and what it declared (null: any path, read as unknown).
 */
export function allowedBefore(
  call: DecidedCall,
  gate: Pick<Gate, 'classifier'>,
): Partial<Record<ActionClass, string[] | null>> {
  const allowed: Partial<Record<ActionClass, string[] | null>> = {};
  const add = (cls: ActionClass, paths: readonly string[] | null): void => {
    if (!(EFFECT_CLASSES as readonly string[]).includes(cls)) return;
    const had = allowed[cls];
    if (had === null) return;
    allowed[cls] = paths === null ? null : [...(had ?? []), ...paths];
  };
  for (const action of call.actions) add(action as ActionClass, call.paths);
  if (call.command !== null)
    for (const unit of analyzeCommand(
      call.command,
      gate.classifier ?? DEFAULT_TABLE,
      call.context.worktree ?? null,
    ).units)
      for (const effect of unit.effects) {
        const paths = effect.args.paths;
        add(
          effect.cls,
          Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string') : null,
        );
      }
  return allowed;
}

/** Decides what a run of `call` did; the first request that is not an allow decides. */
export async function decideEffects(
  gate: Gate,
  call: DecidedCall,
  effects: EffectRequests,
  options: DecideOptions = {},
): Promise<EffectsDecision> {
  const allowed = allowedBefore(call, gate);
  const decisions: GateDecision[] = [];
  for (const cls of EFFECT_CLASSES) {
    const effect = effects[cls];
    if (effect === undefined) continue;
    const count = cls === 'fileDelete' ? effects.fileDelete?.count : undefined;
    for (let at = 0; at < effect.paths.length; at += PATHS_PER_REQUEST) {
      const paths = effect.paths.slice(at, at + PATHS_PER_REQUEST);
      const decision = await gate.decide(
        call.context,
        {
          ...(call.tool === null ? {} : { tool: call.tool }),
          callId: call.callId,
          actions: [cls],
          args: { paths, ...(count === undefined || count === null ? {} : { count }) },
          arguments: { effectsOf: call.auditId, class: cls, paths: paths.length },
          observed: { allowed },
        },
        options,
      );
      decisions.push(decision);
      if (decision.outcome !== 'allow')
        return {
          outcome: 'deny',
          reason:
            decision.outcome === 'deny'
              ? decision.reason
              : `the decision on what it did was \`${decision.outcome}\`: ${decision.reason}`,
          decisions,
        };
    }
  }
  return {
    outcome: 'allow',
    reason:
      decisions.length === 0
        ? 'it did nothing that is decided'
        : decisions.map((d) => d.reason).join('; '),
    decisions,
  };
}
