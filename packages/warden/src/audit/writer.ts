// Group commit for the audit log: entries that arrive while a batch is being
// written go into the next batch, so recording costs one transaction per
// batch instead of one per decision, and nothing waits when the log is idle.
// `append` resolves only once its entries are committed: an acknowledged
// entry is a durable entry.

import type { AuditDraft, AuditEntry, AuditStore } from '../store/types.js';

interface Pending {
  readonly drafts: readonly AuditDraft[];
  readonly resolve: (entries: AuditEntry[]) => void;
  readonly reject: (error: unknown) => void;
}

export interface AuditWriterOptions {
  /** At most this many entries per transaction. */
  readonly maxBatch?: number;
}

export class AuditWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private flushing: Promise<void> | null = null;
  private readonly maxBatch: number;
  private closed = false;

  constructor(
    private readonly store: AuditStore,
    options: AuditWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 2000;
  }

  /** Writes the drafts (in order, in one transaction) and resolves with the chained entries. */
  append(drafts: readonly AuditDraft[]): Promise<AuditEntry[]> {
    if (this.closed) return Promise.reject(new Error('the audit log is closed'));
    if (drafts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ drafts, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing !== null) return;
    this.scheduled = true;
    // The next turn of the event loop: whatever arrives meanwhile joins the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        if (this.queue.length > 0) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch: Pending[] = [];
      let size = 0;
      while (this.queue.length > 0) {
        const next = this.queue[0] as Pending;
        if (batch.length > 0 && size + next.drafts.length > this.maxBatch) break;
        batch.push(next);
        size += next.drafts.length;
        this.queue.shift();
      }
      try {
        const entries = await this.store.append(batch.flatMap((p) => p.drafts));
        let offset = 0;
        for (const pending of batch) {
          pending.resolve(entries.slice(offset, offset + pending.drafts.length));
          offset += pending.drafts.length;
        }
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
  }

  /** Resolves when everything appended so far is written (or has failed). */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.scheduled || this.flushing !== null) {
      if (this.flushing !== null) await this.flushing;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Refuses new entries and waits for the queued ones. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }
}
