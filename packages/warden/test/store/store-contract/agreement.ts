// What only a comparison shows: SQLite and Postgres answering the same calls
// the same way, where no single backend's answer is wrong on its own terms.
// A difference found is a bug: its test is `it.fails`, naming it, until fixed.

import { expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';
import type { Open } from './fixtures.js';
import { HOUR, T0, iso, message, task } from './fixtures.js';

/** What a call answered, or that it threw: either way, something to compare. */
async function outcome<T>(call: () => Promise<T>): Promise<T | { refused: true }> {
  try {
    return await call();
  } catch {
    return { refused: true };
  }
}

export function agreementCases(sqlite: Open, postgres: Open): void {
  // `tasks.list` orders by `due_at_ms`, and SQL leaves where nulls sort to the
  // database (SQLite first, Postgres last): the store puts tasks without a due
  // date last on both, so a limit (the HTTP API's, the report's evidence)
  // answers the same tasks.
  it('lists one taskboard in one order on both backends, also within a limit', async () => {
    const board = async (store: Store) => {
      await store.tasks.create(task('t-undated'));
      await store.tasks.create(task('t-soon', { dueAt: iso(T0 + HOUR) }));
      await store.tasks.create(task('t-late', { dueAt: iso(T0 + 2 * HOUR) }));
      return {
        all: (await store.tasks.list({ at: T0 })).map((t) => t.id),
        first: (await store.tasks.list({ at: T0, limit: 1 })).map((t) => t.id),
      };
    };
    expect(await board(await sqlite())).toEqual(await board(await postgres()));
  });

  // A Postgres `text` cannot hold U+0000 ("invalid byte sequence for encoding
  // UTF8: 0x00") where SQLite keeps it: the store writes U+FFFD for it on both,
  // so a supervisor's message or a task's note with a NUL reads back alike.
  it('keeps a message whose body holds U+0000 alike on both backends', async () => {
    const keep = async (store: Store) =>
      outcome(async () => {
        await store.reports.add(message('msg-1', { body: 'before\u0000after' }));
        return (await store.reports.get('msg-1'))?.body;
      });
    expect(await keep(await sqlite())).toEqual(await keep(await postgres()));
  });
}
