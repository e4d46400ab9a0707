// One decider behind every adapter (G37): the agent runtimes' hooks, `warden
// exec` and its resident runner, and the MCP gateway all ask through this
// interface, and get the same answers in the same words whether a policy file
// decides here (`local.ts`) or a Warden server does (`remote.ts`). Every way
// of not getting a decision is a deny that says why (fail-closed), and a
// decision is used only once it is recorded (contracts §8).

import type { GateAsk } from '../gate/types.js';
import type { EffectRequests } from '../sandbox/effects.js';
import type { ExecProfile } from '../sandbox/profile.js';
import type { AuditStatus, JsonValue } from '../store/types.js';
import type { CallMatch } from '../gate/completion.js';
import type { PinCheck, ToolDefinition } from '../gateway/pins.js';

/**
 * Who acts, as the adapter was configured (never from a tool argument, I1).
 * Standalone these are the call's identity; connected they are sent along,
 * and the server refuses any that differ from the token's or registration's.
 */
export interface Placement {
  /** The choke point, recorded as the entry's source: `claude-code`, `exec`, `mcp-gateway`, … */
  readonly source: string;
  readonly agent?: string;
  readonly space?: string;
  readonly mode?: string;
}

export interface DecideCall {
  readonly placement: Placement;
  /** The bound worktree relative paths refer to (E10). */
  readonly worktree?: string;
  readonly ask: GateAsk;
  /** With an allowed `command`: a grant to run it once under the sandbox made from the decision. */
  readonly grant?: boolean;
}

/** What the caller can follow while a decision is made. */
export interface DecideHooks {
  /** Aborted: the wait ends as a deny. */
  readonly signal?: AbortSignal;
  /**
   * Called once when the decision waits for a human approval. Given, a
   * remote decider asks to be answered at once and then waits for the
   * approval by itself; without it the server holds the request.
   */
  readonly waiting?: (approvalId: string) => void;
  /**
   * When the caller gives up (epoch ms): a prompt ends just before, so the
   * approver sees the real deadline and an answer is never lost.
   */
  readonly deadlineAt?: number;
}

/** A decision as its adapter uses it. */
export interface Decided {
  /** Only `allow` lets the call run; anything else is a deny, with its reason. */
  readonly allow: boolean;
  readonly reason: string;
  /** The entry that records the decision; null when none was made (then it is a deny). */
  readonly auditId: string | null;
  readonly callId: string | null;
  /** The grant asked for, with an allowed, recorded decision; null otherwise. */
  readonly grant: string | null;
  /** The decision as the gate or the server gave it (for `--json`), or null. */
  readonly answer: unknown;
}

/** A granted run: the decision it runs under and the profile made from it. */
export interface StartedRun {
  readonly auditId: string;
  readonly profile: ExecProfile;
}

/** How a granted run ended. */
export interface RunOutcome {
  readonly status: 'Ok' | 'Error';
  readonly durationMs: number;
  readonly error?: string;
  readonly arguments: unknown;
}

/** The decision on what a transactional run did (E44). */
export interface EffectsAnswer {
  readonly outcome: 'allow' | 'deny';
  readonly reason: string;
  readonly auditIds: readonly string[];
}

/** How a gated call ended, as the gateway reports it. */
export interface Ending {
  readonly tool: string;
  readonly arguments: unknown;
  readonly status: AuditStatus;
  readonly durationMs: number | null;
  readonly error?: string;
}

/** How a call a runtime's hook let through ended, found by the runtime's own id for it. */
export interface HookCompletionReport {
  readonly match: CallMatch;
  readonly tool: string;
  readonly status: 'Ok' | 'Error';
  readonly durationMs?: number;
  readonly error?: string;
  readonly ending: Readonly<Record<string, JsonValue>>;
  readonly input: JsonValue;
  readonly ungated?: string;
}

export interface Decider {
  /** `standalone (policy FILE, audit in DIR)` or `connected to URL`. */
  readonly describe: string;
  decide(call: DecideCall, hooks?: DecideHooks): Promise<Decided>;
  /** Records how a decided call ended (`verdict` null: a read-only call without a decision). */
  complete(
    placement: Placement,
    verdict: { readonly auditId: string | null; readonly callId: string | null } | null,
    ending: Ending,
  ): Promise<void>;
  /** Records how a call a hook let through ended; rejects with why it could not be. */
  completeHook(placement: Placement, report: HookCompletionReport): Promise<void>;
  /**
   * Redeems a grant for exactly this command line and worktree: claims it
   * once, records that the run starts, and gives its profile; or says why not.
   */
  startRun(
    grant: string,
    command: string,
    worktree: string,
  ): Promise<
    | { readonly ok: true; readonly run: StartedRun }
    | { readonly ok: false; readonly problem: string }
  >;
  /** Records how a granted run ended, against its decision; rejects when it cannot. */
  recordRun(run: StartedRun, outcome: RunOutcome): Promise<void>;
  /** Decides what a transactional run did; anything but a recorded allow is a deny. */
  decideEffects(run: StartedRun, requests: EffectRequests): Promise<EffectsAnswer>;
  /** A tool's definition as listed: pinned the first time, refused once it differs. */
  pin(placement: Placement, tool: string, definition: ToolDefinition): Promise<PinCheck>;
  /** The classes every call of which is a hard deny for this agent now; rejects when unknown. */
  outright(placement: Placement): Promise<ReadonlySet<string>>;
  close(): Promise<void>;
}

/** The reason for a decision Warden could not record: denied, and saying so. */
export function notRecorded(failure: string): string {
  return `Warden could not record this decision, so it is denied: ${failure}`;
}

/** A deny the decider concluded itself: nothing was decided or recorded. */
export function refusal(reason: string): Decided {
  return { allow: false, reason, auditId: null, callId: null, grant: null, answer: null };
}
