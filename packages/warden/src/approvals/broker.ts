// The approvals broker (G22, G23, G26): a prompt becomes a pending approval
// that waits for a connected approver; no approver, a timeout, an approver
// who disappears or a caller who gives up all end it as a deny. Answers come
// from any process sharing the store: the waiter hears of them by notice and
// by polling, and exactly one ending wins (the store settles once).

import { hostname } from 'node:os';
import type {
  ApprovalAnswer,
  ApprovalFilter,
  ApprovalRecord,
  ApproverRole,
  NewApproval,
  Store,
} from '../store/types.js';
import type { AnswerRecord, Redact, Stamp } from '../audit/records.js';
import { approvalEntry, changeEntry } from '../audit/records.js';
import type { AuditWriter } from '../audit/writer.js';
import { checkAnswer } from './answer-check.js';
import { materialiseRules } from './remember.js';
import { newId as ulid } from '../ids.js';

export interface BrokerOptions {
  /** How long a prompt waits for an answer (G22: a timeout is a no). */
  readonly timeoutMs?: number;
  /** A channel not seen for this long is gone. */
  readonly presenceTtlMs?: number;
  readonly beatMs?: number;
  /** How often a waiter looks at the store (besides notices). */
  readonly pollMs?: number;
  /** How long a soft deny may be overridden after it happened. */
  readonly overrideWindowMs?: number;
  /** How long a granted override waits for its call to be retried. */
  readonly retryWindowMs?: number;
  /** The longest "approve for N hours". */
  readonly maxHours?: number;
  readonly node?: string;
  readonly clock?: () => number;
}

export interface Approver {
  readonly name: string;
  readonly roles: readonly ApproverRole[];
  /** null or absent: answers for every workspace. */
  readonly workspace?: string | null;
}

export interface AnswerInput {
  readonly kind: ApprovalAnswer['kind'];
  readonly reason?: string;
  readonly hours?: number;
  readonly scope?: string;
}

export type AnswerResult =
  | { readonly ok: true; readonly approval: ApprovalRecord }
  | {
      readonly ok: false;
      readonly code: 'not-found' | 'not-pending' | 'forbidden' | 'invalid';
      readonly message: string;
    };

/** A live channel of one approver: while it is open, prompts may wait for it. */
export interface ApproverChannel {
  readonly id: string;
  readonly approver: Approver;
  pending(): Promise<ApprovalRecord[]>;
  /** Called with each approval created while the channel is open (and pending then). */
  onApproval(listener: (approval: ApprovalRecord) => void): () => void;
  answer(id: string, answer: AnswerInput): Promise<AnswerResult>;
  close(): Promise<void>;
}

export function stampOf(approval: ApprovalRecord): Stamp {
  return {
    workspace: approval.workspace,
    agentId: approval.agent,
    runId: approval.stamp.runId,
    model: approval.stamp.model,
    source: approval.stamp.source,
  };
}

export class ApprovalBroker {
  readonly timeoutMs: number;
  readonly overrideWindowMs: number;
  readonly retryWindowMs: number;
  private readonly presenceTtlMs: number;
  private readonly beatMs: number;
  private readonly pollMs: number;
  private readonly maxHours: number;
  private readonly node: string;
  private readonly clock: () => number;
  private readonly local = new Map<string, Approver>();
  private readonly channels = new Set<ApproverChannel>();

  constructor(
    private readonly store: Store,
    private readonly writer: AuditWriter,
    private readonly redact: Redact,
    options: BrokerOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.presenceTtlMs = options.presenceTtlMs ?? 5000;
    this.beatMs = options.beatMs ?? 1500;
    this.pollMs = options.pollMs ?? 500;
    this.overrideWindowMs = options.overrideWindowMs ?? 3_600_000;
    this.retryWindowMs = options.retryWindowMs ?? 900_000;
    this.maxHours = options.maxHours ?? 168;
    this.node = options.node ?? `${hostname()}:${process.pid}`;
    this.clock = options.clock ?? Date.now;
  }

  /** Whether someone who may answer in `role` holds a live channel for `workspace` (G22). */
  async connected(workspace: string, role: ApproverRole = 'approver'): Promise<boolean> {
    for (const approver of this.local.values()) {
      const forWorkspace = approver.workspace == null || approver.workspace === workspace;
      if (forWorkspace && approver.roles.includes(role)) return true;
    }
    const live = await this.store.presence.live(workspace, role, this.clock() - this.presenceTtlMs);
    return live.length > 0;
  }

  /** Opens a live channel: the approver counts as connected until it closes or stops beating. */
  async connect(approver: Approver): Promise<ApproverChannel> {
    const id = `p-${ulid()}`;
    const beat = () =>
      this.store.presence.beat({
        id,
        workspace: approver.workspace ?? null,
        name: approver.name,
        roles: approver.roles,
        node: this.node,
        lastSeenMs: this.clock(),
      });
    await beat();
    this.local.set(id, approver);
    const timer = setInterval(() => {
      beat().catch(() => undefined);
    }, this.beatMs);
    timer.unref();
    const listeners = new Set<(approval: ApprovalRecord) => void>();
    const unsubscribe = this.store.events.subscribe((event) => {
      if (event.topic !== 'approval' || event.id === undefined || listeners.size === 0) return;
      if (approver.workspace != null && event.workspace !== approver.workspace) return;
      this.store.approvals
        .get(event.id)
        .then((approval) => {
          if (approval?.state !== 'pending') return;
          for (const listener of listeners) listener(approval);
        })
        .catch(() => undefined);
    });
    let closed = false;
    const channel: ApproverChannel = {
      id,
      approver,
      pending: () =>
        this.list({
          state: 'pending',
          ...(approver.workspace == null ? {} : { workspace: approver.workspace }),
        }),
      onApproval: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      answer: (approvalId, answer) => this.answer(approvalId, answer, approver),
      close: async () => {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        unsubscribe();
        this.local.delete(id);
        this.channels.delete(channel);
        await this.store.presence.remove(id).catch(() => undefined);
      },
    };
    this.channels.add(channel);
    return channel;
  }

  /** One approval as stored; null when there is no such approval. */
  get(id: string): Promise<ApprovalRecord | null> {
    return this.store.approvals.get(id);
  }

  /**
   * Hears approvals settle: `listener` is given each approval of `workspace`
   * (null: of every workspace) that a store event says changed and that is
   * no longer pending — possibly more than once. Answers how to stop.
   */
  onSettled(workspace: string | null, listener: (approval: ApprovalRecord) => void): () => void {
    return this.store.events.subscribe((event) => {
      if (event.topic !== 'approval' || event.id === undefined) return;
      if (workspace !== null && event.workspace !== workspace) return;
      this.store.approvals
        .get(event.id)
        .then((approval) => {
          if (approval === null || approval.state === 'pending') return;
          listener(approval);
        })
        .catch(() => undefined);
    });
  }

  /** Approvals, newest first; a pending one past its time is ended as it is seen. */
  async list(filter: ApprovalFilter = {}): Promise<ApprovalRecord[]> {
    const found = await this.store.approvals.list(filter);
    const now = this.clock();
    const listed: ApprovalRecord[] = [];
    for (const approval of found) {
      if (approval.state === 'pending' && now >= approval.expiresAtMs) {
        const ended =
          (await this.expire(approval)) ?? (await this.store.approvals.get(approval.id));
        if (ended !== null && (filter.state === undefined || ended.state === filter.state))
          listed.push(ended);
        continue;
      }
      listed.push(approval);
    }
    return listed;
  }

  /**
   * Ends the approvals nobody can answer any more: those past their time,
   * and prompts whose last approver went away, also when no caller waits on
   * them (`?wait=0`). An override stays open for its window whoever is
   * connected: it is answered later, and used by retrying the call. A server
   * runs this every few seconds, so a prompt never outlives its approvers.
   * Answers how many it ended.
   */
  async sweep(): Promise<number> {
    const pending = await this.store.approvals.list({ state: 'pending', limit: 1000 });
    const now = this.clock();
    const answered = new Map<string, boolean>();
    let ended = 0;
    for (const approval of pending) {
      if (now >= approval.expiresAtMs) {
        if ((await this.expire(approval)) !== null) ended += 1;
        continue;
      }
      if (approval.kind !== 'prompt') continue;
      let someone = answered.get(approval.workspace);
      if (someone === undefined) {
        someone = await this.connected(approval.workspace, 'approver');
        answered.set(approval.workspace, someone);
      }
      if (someone) continue;
      const settled = await this.end(
        approval,
        'approver-gone',
        'no approver is connected any more',
      );
      if (settled !== null) ended += 1;
    }
    return ended;
  }

  /** Ends an approval whose time is up; null when someone settled it first. */
  private expire(approval: ApprovalRecord): Promise<ApprovalRecord | null> {
    const seconds = Math.round((approval.expiresAtMs - Date.parse(approval.createdAt)) / 1000);
    const what = approval.kind === 'override' ? 'no override' : 'no answer';
    return this.end(approval, 'timeout', `${what} within ${seconds} s`);
  }

  async open(approval: NewApproval): Promise<void> {
    await this.store.approvals.create(approval);
  }

  /**
   * Waits until the approval is settled and answers it settled. A timeout, the
   * last approver leaving, or `signal` aborting settle it as a deny.
   */
  async wait(approval: ApprovalRecord, signal?: AbortSignal): Promise<ApprovalRecord> {
    const { id } = approval;
    let wake: (() => void) | null = null;
    const unsubscribe = this.store.events.subscribe((event) => {
      if (event.topic === 'approval' && event.id === id) wake?.();
    });
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        const current = await this.store.approvals.get(id);
        if (current === null) throw new Error(`approval \`${id}\` vanished from the store`);
        if (current.state !== 'pending') return current;
        const now = this.clock();
        let ending: { answer: AnswerRecord['answer']; reason: string } | null = null;
        if (signal?.aborted === true) {
          ending = { answer: 'cancelled', reason: 'the caller stopped waiting' };
        } else if (now >= current.expiresAtMs) {
          const settled = await this.expire(current);
          if (settled !== null) return settled;
          continue; // someone answered first: read their answer
        } else if (
          !(await this.connected(
            current.workspace,
            current.kind === 'override' ? 'overrider' : 'approver',
          ))
        ) {
          ending = { answer: 'approver-gone', reason: 'no approver is connected any more' };
        }
        if (ending !== null) {
          const settled = await this.end(current, ending.answer, ending.reason);
          if (settled !== null) return settled;
          continue; // someone answered first: read their answer
        }
        const delay = Math.max(1, Math.min(this.pollMs, current.expiresAtMs - now));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Ends a pending approval without an answer, and records why. */
  private async end(
    approval: ApprovalRecord,
    answer: AnswerRecord['answer'],
    reason: string,
  ): Promise<ApprovalRecord | null> {
    const at = this.clock();
    const settled = await this.store.approvals.settle(approval.id, {
      state: answer === 'cancelled' ? 'cancelled' : 'expired',
      answer: null,
      closedReason: reason,
      at,
    });
    if (settled === null) return null;
    await this.writer.append([
      approvalEntry(
        stampOf(approval),
        {
          id: ulid(),
          approvalId: approval.id,
          decisionId: approval.decisionId,
          callId: approval.callId,
          tool: approval.tool,
          answer,
          by: null,
          reason,
          outcome: 'deny',
          occurredAt: new Date(at).toISOString(),
        },
        this.redact,
      ),
    ]);
    return settled;
  }

  /** An approver's answer (G23, G26). Every answer is audited with who and why. */
  async answer(id: string, input: AnswerInput, approver: Approver): Promise<AnswerResult> {
    const approval = await this.store.approvals.get(id);
    if (
      approval === null ||
      (approver.workspace != null && approval.workspace !== approver.workspace)
    )
      return { ok: false, code: 'not-found', message: `no approval \`${id}\`` };
    if (approval.state !== 'pending') {
      const who = approval.answer === null ? '' : ` by ${approval.answer.by}`;
      return {
        ok: false,
        code: 'not-pending',
        message: `approval \`${id}\` is already ${approval.state}${who}`,
      };
    }
    const checked = checkAnswer(approval, input, approver, this.maxHours);
    if (checked !== null) return checked;
    const at = this.clock();
    if (at >= approval.expiresAtMs) {
      await this.expire(approval);
      return { ok: false, code: 'not-pending', message: `approval \`${id}\` has expired` };
    }
    const given = input.reason?.trim() ?? '';
    // An answer's reason is stored and shown to the agent: it is redacted like everything else.
    const reason = given === '' ? null : (this.redact(given, 'reason').value as string);
    const remember =
      input.kind === 'remember'
        ? materialiseRules(approval, input, approver.name, at, () => ulid())
        : null;
    const answer: ApprovalAnswer = {
      kind: input.kind,
      by: approver.name,
      reason,
      ...(remember === null
        ? {}
        : {
            hours: input.hours as number,
            scope: input.scope as string,
            rules: remember.map((r) => r.id),
          }),
    };
    // The remembered rules come into force in the same transaction that settles the
    // approval: never before it, and never for an answer that lost the race.
    const settled = await this.store.approvals.settle(id, {
      state: input.kind === 'deny' ? 'denied' : 'approved',
      answer,
      closedReason: null,
      at,
      beforeExpiry: true,
      ...(remember === null ? {} : { rules: remember }),
    });
    if (settled === null) {
      const now = await this.store.approvals.get(id);
      const by = now?.answer === null || now?.answer === undefined ? '' : ` by ${now.answer.by}`;
      return {
        ok: false,
        code: 'not-pending',
        message: `approval \`${id}\` was ${now?.state === 'pending' ? 'expiring' : `settled meanwhile${by}`}`,
      };
    }
    const occurredAt = new Date(at).toISOString();
    const entries = [
      approvalEntry(
        stampOf(approval),
        {
          id: ulid(),
          approvalId: id,
          decisionId: approval.decisionId,
          callId: approval.callId,
          tool: approval.tool,
          answer: input.kind,
          by: approver.name,
          reason,
          outcome: input.kind === 'deny' ? 'deny' : 'allow',
          ...(remember === null
            ? {}
            : {
                hours: input.hours as number,
                scope: input.scope as string,
                rules: remember.map((r) => r.id),
              }),
          occurredAt,
        },
        this.redact,
      ),
    ];
    if (remember !== null) {
      entries.push(
        changeEntry({
          id: ulid(),
          workspace: approval.workspace,
          change: 'rules-remembered',
          by: approver.name,
          details: { approvalId: id, rules: remember.map((r) => r.rule) },
          occurredAt,
        }),
      );
    }
    // The caller released by this answer records its own decision before it acts (the
    // gate does); this entry says who answered and why, and a failure to write it is the answerer's.
    await this.writer.append(entries);
    return { ok: true, approval: settled };
  }

  /** Closes this process's channels. */
  async close(): Promise<void> {
    await Promise.all([...this.channels].map((c) => c.close()));
  }
}
