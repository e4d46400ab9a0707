// The taskboard: tasks created open (or done), changed field by field, and
// read at a moment, when overdue is derived from the due date and that moment.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { HOUR, T0, iso, task } from './fixtures.js';

export function taskCases(open: Open): void {
  it('derives overdue from the due date and the time of reading', async () => {
    const store = await open();
    await store.tasks.create(task('t-1', { title: 'fix login', dueAt: iso(T0 + HOUR) }));
    await store.tasks.create(task('t-2', { title: 'docs' }));
    expect(
      (await store.tasks.list({ agent: 'coder-1', state: 'overdue', at: T0 })).map((t) => t.id),
    ).toEqual([]);
    const later = T0 + 2 * HOUR;
    expect(
      (await store.tasks.list({ agent: 'coder-1', state: 'overdue', at: later })).map((t) => t.id),
    ).toEqual(['t-1']);
    expect((await store.tasks.get('t-1', later))?.overdue).toBe(true);
    await store.tasks.update('t-1', { state: 'done' }, later);
    expect((await store.tasks.get('t-1', later))?.overdue).toBe(false);
    expect(
      (await store.tasks.list({ agent: 'coder-1', state: 'done', at: later })).map((t) => t.doneAt),
    ).toEqual([iso(later)]);
    expect(
      (await store.tasks.list({ agent: 'coder-1', state: 'open', at: later })).map((t) => t.id),
    ).toEqual(['t-2']);
  });

  it('is not overdue at the very instant it is due, only after', async () => {
    const store = await open();
    await store.tasks.create(task('t-1', { dueAt: iso(T0 + HOUR) }));
    expect((await store.tasks.get('t-1', T0 + HOUR))?.overdue).toBe(false);
    expect(await store.tasks.list({ state: 'overdue', at: T0 + HOUR })).toEqual([]);
    expect((await store.tasks.get('t-1', T0 + HOUR + 1))?.overdue).toBe(true);
  });

  it('creates a task open unless told, and answers it as created', async () => {
    const store = await open();
    const given = task('t-1', { dueAt: iso(T0 + HOUR), note: 'see the issue' });
    const made = await store.tasks.create(given);
    expect(made).toEqual({ ...given, state: 'open', doneAt: null });
    expect(await store.tasks.get('t-1', T0)).toEqual({ ...made, overdue: false });
    expect(await store.tasks.get('t-9', T0)).toBeNull();
  });

  it('creates a task done, with its creation time as the time it was done', async () => {
    const store = await open();
    const made = await store.tasks.create({
      ...task('t-1', { dueAt: iso(T0 - HOUR) }),
      state: 'done',
    });
    expect(made).toMatchObject({ state: 'done', doneAt: iso(T0) });
    expect((await store.tasks.get('t-1', T0 + HOUR))?.overdue).toBe(false);
  });

  it('changes only what it is given: null clears a field, a field left out stays', async () => {
    const store = await open();
    await store.tasks.create(task('t-1', { dueAt: iso(T0 + HOUR), note: 'first' }));
    const renamed = await store.tasks.update('t-1', { title: 'fix login' }, T0 + 1);
    expect(renamed).toMatchObject({
      title: 'fix login',
      note: 'first',
      dueAt: iso(T0 + HOUR),
      state: 'open',
    });
    const cleared = await store.tasks.update('t-1', { note: null, dueAt: null }, T0 + 2);
    expect(cleared).toMatchObject({ title: 'fix login', note: null, dueAt: null });
    expect((await store.tasks.get('t-1', T0 + 10 * HOUR))?.overdue).toBe(false);
    const due = await store.tasks.update('t-1', { dueAt: iso(T0 + 3) }, T0 + 3);
    expect(due?.dueAt).toBe(iso(T0 + 3));
    expect((await store.tasks.get('t-1', T0 + 4))?.overdue).toBe(true);
    expect(await store.tasks.update('t-1', {}, T0 + 5)).toEqual(due);
  });

  it('opens a done task again without its done time; an unknown task is null', async () => {
    const store = await open();
    await store.tasks.create(task('t-1'));
    expect((await store.tasks.update('t-1', { state: 'done' }, T0 + 1))?.doneAt).toBe(iso(T0 + 1));
    const reopened = await store.tasks.update('t-1', { state: 'open' }, T0 + 2);
    expect(reopened).toMatchObject({ state: 'open', doneAt: null });
    expect(await store.tasks.update('t-9', { state: 'done' }, T0)).toBeNull();
    expect(await store.tasks.get('t-9', T0)).toBeNull();
  });

  it('lists by workspace, agent and state, within a limit', async () => {
    const store = await open();
    await store.tasks.create(task('t-1', { dueAt: iso(T0 + 1) }));
    await store.tasks.create(task('t-2', { dueAt: iso(T0 + 2), agent: 'coder-2' }));
    await store.tasks.create(task('t-3', { dueAt: iso(T0 + 3), workspace: 'beta' }));
    await store.tasks.create({ ...task('t-4', { dueAt: iso(T0 + 4) }), state: 'done' });
    const ids = async (filter: Parameters<typeof store.tasks.list>[0]) =>
      (await store.tasks.list(filter)).map((t) => t.id).sort();
    expect(await ids({ at: T0 })).toEqual(['t-1', 't-2', 't-3', 't-4']);
    expect(await ids({ workspace: 'acme', at: T0 })).toEqual(['t-1', 't-2', 't-4']);
    expect(await ids({ workspace: 'acme', agent: 'coder-1', at: T0 })).toEqual(['t-1', 't-4']);
    expect(await ids({ state: 'open', at: T0 })).toEqual(['t-1', 't-2', 't-3']);
    expect(await ids({ state: 'done', at: T0 })).toEqual(['t-4']);
    expect(await ids({ state: 'overdue', at: T0 + 3 })).toEqual(['t-1', 't-2']);
    expect(await store.tasks.list({ limit: 2, at: T0 })).toHaveLength(2);
    expect(await store.tasks.list({ workspace: 'gamma', at: T0 })).toEqual([]);
  });

  it('shows a task changed on one store instance to another', async () => {
    const store = await open();
    const other = await open();
    await store.tasks.create(task('t-1'));
    await other.tasks.update('t-1', { state: 'done' }, T0 + 1);
    expect((await store.tasks.get('t-1', T0 + 2))?.state).toBe('done');
  });
}
