// How a call a runtime's hook let through ended (its `PostToolUse`,
// `PostToolUseFailure` or `AfterTool`), recorded against the decision that
// allowed it. The runtime names the call by its own id (Claude Code's and
// Codex's `tool_use_id`, which the hook sent with the decision) or, where it
// sends none (Gemini CLI), by the start and end of the id the hook made for
// it: the newest decision of this agent with such an id whose call has not
// been reported yet is the one. A completion no allowing decision covers is
// recorded all the same, saying why: the call ran by design without one
// (`ungated`: it only read, or wrote inside the worktree), no decision was
// found, or the decision did not allow it — the last two are what a
// supervisor looks for (a choke point that failed open).

import type { AuditEntry, AuditReader, AuditStatus, JsonValue } from '../store/types.js';
import type { Gate } from './gate.js';
import type { CallContext } from './types.js';

/** How the runtime names the call. */
export type CallMatch =
  { readonly callId: string } | { readonly callIdPrefix: string; readonly callIdSuffix: string };

export interface Completion {
  readonly match: CallMatch;
  readonly tool: string;
  readonly status: Extract<AuditStatus, 'Ok' | 'Error'>;
  /** The runtime's own measure; without one, the time since the decision. */
  readonly durationMs?: number;
  readonly error?: string;
  /** What the hook saw of how it ended: output size, exit code, the runtime's event. */
  readonly ending: Readonly<Record<string, JsonValue>>;
  /** The call's arguments, recorded only when no allowing decision covers the call. */
  readonly input?: JsonValue;
  /** Why the hook let the call run without asking the gate, if it did. */
  readonly ungated?: string;
}

export type Recorded =
  | { readonly kind: 'recorded'; readonly entry: AuditEntry }
  /** Every decision the match finds has its call reported: this one is a repeat. */
  | { readonly kind: 'reported'; readonly entry: AuditEntry };

/** How far back a runtime without call ids is matched: a tool call does not run for a day. */
const MATCH_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Decisions looked at per match: one session's repeats of the same call. */
const MATCH_LIMIT = 200;

interface Candidate {
  readonly decisionId: string;
  /** The decision's last entry: after an approval, the approver's outcome. */
  readonly final: AuditEntry;
}

async function candidates(
  audit: AuditReader,
  ctx: CallContext,
  match: CallMatch,
  now: number,
): Promise<Candidate[]> {
  const entries =
    'callId' in match
      ? await audit.query({
          workspace: ctx.workspace,
          agent: ctx.agent,
          kinds: ['decision'],
          callId: match.callId,
          limit: MATCH_LIMIT,
        })
      : (
          await audit.query({
            workspace: ctx.workspace,
            agent: ctx.agent,
            kinds: ['decision'],
            sinceMs: now - MATCH_WINDOW_MS,
            limit: MATCH_LIMIT * 4,
          })
        ).filter((entry) => {
          const id = entry.callId;
          return (
            typeof id === 'string' &&
            id.length >= match.callIdPrefix.length + match.callIdSuffix.length &&
            id.startsWith(match.callIdPrefix) &&
            id.endsWith(match.callIdSuffix)
          );
        });
  // Newest first; the first entry seen of a decision is its last word.
  const seen = new Map<string, Candidate>();
  for (const entry of entries) {
    // A decision's first entry has the decision's id; a later one names it in `decisionId`.
    const decisionId = typeof entry.decisionId === 'string' ? entry.decisionId : entry.id;
    if (seen.has(decisionId)) continue;
    seen.set(decisionId, { decisionId, final: entry });
  }
  return [...seen.values()];
}

/** The report of a decision's call that is already recorded (a held call's `Staged` aside). */
async function reportOf(audit: AuditReader, decisionId: string): Promise<AuditEntry | null> {
  const [entry] = await audit.query({
    decisionId,
    kinds: ['call'],
    statuses: ['Ok', 'Error', 'Denied', 'NotFound'],
    limit: 1,
  });
  return entry ?? null;
}

/** Records how the call ended against the decision the match finds, or as uncovered. */
export async function recordCompletion(
  gate: Gate,
  audit: AuditReader,
  ctx: CallContext,
  completion: Completion,
  now: number,
): Promise<Recorded> {
  const found = await candidates(audit, ctx, completion.match, now);
  let notAllowed: Candidate | null = null;
  let repeat: AuditEntry | null = null;
  for (const candidate of found) {
    if (candidate.final.outcome !== 'allow') {
      notAllowed ??= candidate;
      continue;
    }
    const reported = await reportOf(audit, candidate.decisionId);
    if (reported !== null) {
      repeat ??= reported;
      continue;
    }
    const decidedAt = Date.parse(String(candidate.final.occurredAt));
    const entry = await gate.complete(ctx, {
      callId: String(candidate.final.callId),
      decisionId: candidate.decisionId,
      tool: completion.tool,
      arguments: { ...completion.ending },
      status: completion.status,
      durationMs:
        completion.durationMs ?? (Number.isFinite(decidedAt) ? Math.max(0, now - decidedAt) : null),
      ...(completion.error === undefined ? {} : { error: completion.error }),
    });
    return { kind: 'recorded', entry };
  }
  if (repeat !== null && notAllowed === null) return { kind: 'reported', entry: repeat };
  const uncovered: Record<string, JsonValue> =
    completion.ungated !== undefined
      ? { ungated: completion.ungated }
      : notAllowed !== null
        ? {
            uncovered: `it ran although its decision \`${notAllowed.decisionId}\` was ${String(notAllowed.final.outcome)}`,
            decisionOutcome: String(notAllowed.final.outcome),
            deciding: notAllowed.decisionId,
          }
        : { uncovered: 'no decision of this agent covers it' };
  const callId =
    'callId' in completion.match
      ? completion.match.callId
      : `${completion.match.callIdPrefix}${completion.match.callIdSuffix}`;
  const entry = await gate.complete(ctx, {
    callId,
    decisionId: null,
    tool: completion.tool,
    arguments: {
      ...completion.ending,
      ...uncovered,
      ...(completion.input === undefined ? {} : { input: completion.input }),
    },
    status: completion.status,
    durationMs: completion.durationMs ?? null,
    ...(completion.error === undefined ? {} : { error: completion.error }),
  });
  return { kind: 'recorded', entry };
}
