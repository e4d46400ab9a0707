// Group commit for the audit log: entries that arrive within one turn of the
// event loop go into one batch, a batch is one transaction, and while a few
// batches are being written the next ones gather — so recording costs a
// fraction of a transaction per decision, and nothing waits when the log is
// idle. `append` resolves only once its entries are committed: an
// acknowledged entry is a durable entry. Batches are handed to the store in
// order, and each links itself after the chain's head under the write lock.
//
// A batch that fails is refused to every caller in it — none is told its entry
// is written — and the next batch reads the chain's head from the database
// again: the chain goes on from the last committed entry, never from one that
// failed. Only when the database refused an entry for its content is the
// batch retried entry by entry, so one bad entry does not fail the rest.

import { GateFault } from '../gate/fault.js';
import { entrySpecific } from '../store/faults.js';
import type { AuditDraft, AuditEntry, AuditStore } from '../store/types.js';

/** Why an append failed, as the one fault every caller reports (a deny, a 503). */
export function auditFault(error: unknown): GateFault {
  if (error instanceof GateFault) return error;
  const cause = error instanceof Error ? error.message : String(error);
  return new GateFault('audit', `the audit log could not be written: ${cause}`);
}

interface Pending {
  readonly drafts: readonly AuditDraft[];
  readonly resolve: (entries: AuditEntry[]) => void;
  readonly reject: (error: unknown) => void;
}

export interface AuditWriterOptions {
  /** At most this many entries per transaction. */
  readonly maxBatch?: number;
  /** Batches handed to the store and not yet committed, at most. */
  readonly maxInFlight?: number;
}

export class AuditWriter {
  private queue: Pending[] = [];
  /** Entries in the queue. */
  private queued = 0;
  private scheduled = false;
  private inFlight = 0;
  private readonly settled = new Set<() => void>();
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private closed = false;

  constructor(
    private readonly store: AuditStore,
    options: AuditWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 64;
    this.maxInFlight = options.maxInFlight ?? 32;
  }

  /** Writes the drafts (in order, in one transaction) and resolves with the chained entries. */
  append(drafts: readonly AuditDraft[]): Promise<AuditEntry[]> {
    if (this.closed) return Promise.reject(new GateFault('audit', 'the audit log is closed'));
    if (drafts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ drafts, resolve, reject });
      this.queued += drafts.length;
      // A full batch goes at once, so the store starts writing while more decisions are made.
      if (this.queued >= this.maxBatch && this.inFlight < this.maxInFlight) this.dispatch();
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // The next turn of the event loop: whatever arrives meanwhile joins the batch.
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.inFlight < this.maxInFlight) this.dispatch();
    });
  }

  private dispatch(): void {
    const batch: Pending[] = [];
    let size = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0] as Pending;
      if (batch.length > 0 && size + next.drafts.length > this.maxBatch) break;
      batch.push(next);
      size += next.drafts.length;
      this.queue.shift();
    }
    this.queued -= size;
    this.inFlight += 1;
    this.store
      .append(batch.flatMap((p) => p.drafts))
      .then(
        (entries) => {
          let offset = 0;
          for (const pending of batch) {
            pending.resolve(entries.slice(offset, offset + pending.drafts.length));
            offset += pending.drafts.length;
          }
        },
        async (error: unknown) => {
          if (batch.length === 1 || !entrySpecific(error)) {
            const fault = auditFault(error);
            for (const pending of batch) pending.reject(fault);
            return;
          }
          // One bad entry must not fail the calls that merely shared its batch: each
          // part is written on its own, and only what fails again is refused.
          for (const pending of batch) {
            try {
              pending.resolve(await this.store.append(pending.drafts));
            } catch (alone) {
              pending.reject(auditFault(alone));
            }
          }
        },
      )
      // Whatever happens, every caller of the batch has been answered: nothing hangs.
      .catch((unexpected: unknown) => {
        const fault = auditFault(unexpected);
        for (const pending of batch) pending.reject(fault);
      })
      .finally(() => {
        this.inFlight -= 1;
        for (const wake of this.settled) wake();
        this.schedule();
      });
  }

  /** Resolves when everything appended so far is written (or has failed). */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.scheduled || this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.settled.delete(wake);
          resolve();
        };
        this.settled.add(wake);
        if (this.inFlight === 0) setImmediate(wake);
      });
    }
  }

  /** Refuses new entries and waits for the queued ones. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }
}
