// One agent's page, its state tested in Node without a browser: the console
// keeps what each part of the page does in a pure module
// (`web/pages/agents/agent-state.js`) — the overview, the place control, the
// kill switch, the audit timeline, the run receipts, the tasks and the search
// for a supervisor report — events in and a new state out, so every
// transition and every derived text is checked here; the browser tests
// (`web-agents`, `web-freeze`, `web-placement`) keep what only a browser shows.

import { describe, expect, it } from 'vitest';
import {
  AUDIT_PAGE,
  REPORTS_SEARCHED,
  RUNS_LIMIT,
  auditCountText,
  auditLoading,
  auditRequest,
  auditState,
  callsText,
  freezeAction,
  freezeBody,
  freezeFormOpen,
  freezeOf,
  freezeReadOnlyText,
  freezeState,
  freezeTitle,
  freezesShown,
  mentions,
  nextReport,
  noReportText,
  overviewState,
  placeAlertText,
  placeChoices,
  placeReady,
  placeSaidText,
  placeState,
  placeTarget,
  placeableOf,
  placementBody,
  placementWords,
  receiptsState,
  reduceAudit,
  reduceFreeze,
  reduceOverview,
  reducePlace,
  reduceReceipts,
  reduceReport,
  reduceTasks,
  reportAbout,
  reportDone,
  reportState,
  runKind,
  runTotals,
  runsCaption,
  sentence,
  shownTasks,
  taskFilters,
  taskStateOf,
  tasksShownText,
  tasksState,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/agents/agent-state.js';

const feed = <S>(reducer: (state: S, event: unknown) => S, state: S, ...events: unknown[]): S =>
  events.reduce((s: S, e: unknown) => reducer(s, e), state);

const where = { workspace: 'acme', agent: 'coder-1' };
const coder = {
  id: 'coder-1',
  name: 'Coder One',
  role: 'coder',
  model: 'm-1',
  space: 'infra',
  mode: null,
};

describe('the overview', () => {
  it('finds the agent among those read, or says it is not registered', () => {
    const start = overviewState(where);
    expect(start).toEqual({
      where,
      read: false,
      agent: null,
      readError: null,
      unregistered: false,
    });
    const found = reduceOverview(start, { type: 'read', agents: [{ ...coder, id: 'x' }, coder] });
    expect(found).toMatchObject({ read: true, agent: coder, unregistered: false });
    const missing = reduceOverview(start, { type: 'read', agents: [] });
    expect(missing).toMatchObject({ read: true, agent: null, unregistered: true });
    expect(placeableOf(missing)).toEqual({
      id: 'coder-1',
      name: null,
      role: null,
      model: null,
      space: null,
      mode: null,
    });
    expect(placeableOf(found)).toBe(coder);
  });

  it('registers the agent once it is placed, and says why it could not be read', () => {
    const missing = reduceOverview(overviewState(where), { type: 'read', agents: [] });
    const placed = reduceOverview(missing, {
      type: 'placed',
      record: { ...coder, mode: 'review' },
    });
    expect(placed.unregistered).toBe(false);
    expect(placed.agent.mode).toBe('review');
    const failed = reduceOverview(overviewState(where), { type: 'read-failed', message: 'nope' });
    expect(failed).toMatchObject({ read: false, readError: 'nope' });
  });
});

describe('the place control', () => {
  const matrix = {
    columns: [
      { kind: 'space', id: 'infra' },
      { kind: 'space', id: 'web' },
      { kind: 'mode', id: 'review' },
      { kind: 'agent', id: 'coder-1' },
      { kind: 'space', id: null },
    ],
    modes: ['review', 'yolo'],
  };

  it('offers the matrix’s spaces and modes once each, keeping the agent’s own', () => {
    expect(placeChoices(matrix, { space: 'old', mode: null })).toEqual({
      spaces: ['infra', 'web', 'old'],
      modes: ['review', 'yolo'],
    });
  });

  it('says a placement in the matrix’s words', () => {
    expect(placementWords({ space: null, mode: null })).toBe('in no space and no mode');
    expect(placementWords({ space: 'a', mode: null })).toBe('in space `a` and no mode');
    expect(placementWords({ space: null, mode: 'm' })).toBe('in no space and mode `m`');
    expect(placementWords({ space: 'a', mode: 'm' })).toBe('in space `a` and mode `m`');
  });

  it('sends the name, role and model back as they are', () => {
    expect(placementBody(coder, { space: null, mode: 'review' })).toEqual({
      name: 'Coder One',
      role: 'coder',
      space: null,
      mode: 'review',
      model: 'm-1',
    });
  });

  it('waits for its choices before it places', () => {
    const start = placeState(coder);
    expect(start).toMatchObject({ space: 'infra', mode: '', choices: null, busy: false });
    expect(placeReady(start)).toBe(false);
    expect(reducePlace(start, { type: 'place' })).toBe(start);
    const ready = reducePlace(start, { type: 'choices-read', matrix });
    expect(ready.choices.spaces).toEqual(['infra', 'web']);
    expect(placeReady(ready)).toBe(true);
  });

  it('places where picked, one placement at a time, and says where it placed', () => {
    const picked = feed(
      reducePlace,
      placeState(coder),
      { type: 'choices-read', matrix },
      { type: 'picked', field: 'space', value: '' },
      { type: 'picked', field: 'mode', value: 'review' },
    );
    expect(placeTarget(picked)).toEqual({ space: null, mode: 'review' });
    const busy = reducePlace(picked, { type: 'place' });
    expect(busy.busy).toBe(true);
    expect(placeReady(busy)).toBe(false);
    expect(placeSaidText(busy)).toBe('Placing…');
    expect(reducePlace(busy, { type: 'place' })).toBe(busy);
    const done = reducePlace(busy, {
      type: 'placed',
      record: { ...coder, space: null, mode: 'review' },
    });
    expect(done).toMatchObject({ busy: false, space: '', mode: 'review', failed: null });
    expect(done.current.mode).toBe('review');
    expect(placeSaidText(done)).toBe('Placed in no space and mode `review`.');
    expect(placeAlertText(done)).toBeNull();
  });

  it('says a refusal as a sentence, and a failed read of the choices', () => {
    const refused = feed(
      reducePlace,
      placeState(coder),
      { type: 'choices-read', matrix },
      { type: 'place' },
      { type: 'place-refused', message: 'mode `x` is not in the policy' },
    );
    expect(refused.busy).toBe(false);
    expect(placeAlertText(refused)).toBe('Not placed. Mode `x` is not in the policy.');
    expect(placeSaidText(refused)).toBeNull();
    const unread = reducePlace(placeState(coder), { type: 'choices-failed', message: 'denied' });
    expect(placeAlertText(unread)).toBe('Cannot read the spaces and modes of the policy: denied');
    expect(sentence('  done!  ')).toBe('Done!');
    expect(sentence('')).toBe('');
  });
});

describe('the kill switch', () => {
  const frozen = (agent: string | null, more: Record<string, unknown> = {}) => ({
    agent,
    by: 'alice',
    frozenAt: '2026-12-06T10:00:00.000Z',
    reason: 'runaway',
    managed: false,
    ...more,
  });
  const admin = (agent: string | null) =>
    freezeState({ workspace: 'acme', agent, role: 'admin', mayChange: true });

  it('finds a freeze, the managed policy’s first, and titles it', () => {
    const managed = frozen('a', { managed: true, by: 'operator' });
    expect(freezeOf([managed, frozen('a')], 'a')).toBe(managed);
    expect(freezeOf([frozen('a')], null)).toBeNull();
    expect(freezeTitle(frozen('a'))).toBe('Frozen by alice at 2026-12-06T10:00:00.000Z: runaway');
    expect(freezeTitle(frozen('a', { frozenAt: null, reason: null }))).toBe('Frozen by alice');
  });

  it('shows an agent’s own freeze and its workspace’s', () => {
    const state = reduceFreeze(admin('a'), {
      type: 'loaded',
      freezes: [frozen(null), frozen('b')],
    });
    expect(freezesShown(state)).toEqual({ own: null, ws: frozen(null) });
    const whole = reduceFreeze(admin(null), { type: 'loaded', freezes: [frozen(null)] });
    expect(freezesShown(whole)).toEqual({ own: frozen(null), ws: null });
    expect(callsText(state)).toBe('every call of agent a');
    expect(callsText(whole)).toBe('every call of every agent in workspace acme');
  });

  it('offers Freeze, Thaw, nothing on a managed freeze, and the state only to others', () => {
    expect(freezeAction(admin('a'))).toBe('none');
    expect(freezeAction(reduceFreeze(admin('a'), { type: 'loaded', freezes: [] }))).toBe('freeze');
    expect(freezeAction(reduceFreeze(admin('a'), { type: 'loaded', freezes: [frozen('a')] }))).toBe(
      'thaw',
    );
    expect(
      freezeAction(
        reduceFreeze(admin('a'), { type: 'loaded', freezes: [frozen('a', { managed: true })] }),
      ),
    ).toBe('managed');
    const viewer = freezeState({ workspace: 'acme', agent: 'a', role: 'viewer', mayChange: false });
    const read = reduceFreeze(viewer, { type: 'loaded', freezes: [] });
    expect(freezeAction(read)).toBe('read-only');
    expect(freezeReadOnlyText(read)).toBe(
      'Freezing and thawing take an admin token; a `viewer` token may only see the state.',
    );
    expect(freezeReadOnlyText({ ...read, role: 'approver' })).toContain('an `approver` token');
    expect(reduceFreeze(read, { type: 'change', method: 'PUT' })).toBe(read);
  });

  it('freezes with the reason typed, one change at a time, and clears the reason', () => {
    const typed = feed(
      reduceFreeze,
      admin('a'),
      { type: 'loaded', freezes: [] },
      { type: 'typed', reason: '  loops  ' },
    );
    expect(freezeBody(typed)).toEqual({ reason: 'loops' });
    expect(freezeBody({ ...typed, reason: '   ' })).toEqual({});
    const busy = reduceFreeze(typed, { type: 'change', method: 'PUT' });
    expect(busy).toMatchObject({ busy: true, failed: null, said: null });
    expect(reduceFreeze(busy, { type: 'change', method: 'DELETE' })).toBe(busy);
    const done = reduceFreeze(busy, { type: 'frozen', denied: 2 });
    expect(done).toMatchObject({ busy: false, reason: '' });
    expect(done.said).toBe(
      'Frozen: every call of agent a is denied from now on; 2 waiting approvals were denied.',
    );
    expect(reduceFreeze(busy, { type: 'frozen', denied: 1 }).said).toContain(
      '1 waiting approval was denied.',
    );
    expect(reduceFreeze(busy, { type: 'frozen', denied: 0 }).said).toBe(
      'Frozen: every call of agent a is denied from now on.',
    );
  });

  it('says a thaw, and a refusal in the server’s words with the form open', () => {
    const whole = feed(reduceFreeze, admin(null), { type: 'loaded', freezes: [frozen(null)] });
    const thawed = feed(
      reduceFreeze,
      whole,
      { type: 'change', method: 'DELETE' },
      { type: 'thawed' },
    );
    expect(thawed.said).toBe(
      'Thawed: the policy decides the calls in workspace acme again (an agent frozen on its own stays frozen).',
    );
    expect(
      feed(reduceFreeze, admin('a'), { type: 'change', method: 'DELETE' }, { type: 'thawed' }).said,
    ).toBe('Thawed: the policy decides the calls of agent a again.');
    const refused = feed(
      reduceFreeze,
      whole,
      { type: 'change', method: 'PUT' },
      { type: 'change-refused', method: 'PUT', message: 'managed' },
    );
    expect(refused).toMatchObject({ busy: false, failed: 'Cannot freeze: managed' });
    expect(freezeFormOpen(refused)).toBe(true);
    expect(freezeFormOpen(whole)).toBe(false);
    expect(
      reduceFreeze(whole, { type: 'change-refused', method: 'DELETE', message: 'x' }).failed,
    ).toBe('Cannot thaw: x');
  });

  it('keeps what was typed when the freezes cannot be read', () => {
    const state = feed(
      reduceFreeze,
      admin('a'),
      { type: 'typed', reason: 'why' },
      { type: 'load-failed', message: 'expired' },
    );
    expect(state).toMatchObject({ freezes: null, readError: 'expired', reason: 'why' });
    expect(freezeAction(state)).toBe('none');
  });
});

describe('the audit timeline', () => {
  const entry = (id: string, occurredAt: string) => ({ id, kind: 'call', occurredAt });

  it('reads a first page, then the page before the oldest entry shown', () => {
    const start = auditState();
    expect(auditRequest(start, false)).toEqual({ limit: AUDIT_PAGE, until: undefined });
    const loading = reduceAudit(start, { type: 'load', more: false });
    expect(auditLoading(loading)).toBe(true);
    expect(loading.generation).toBe(1);
    const shown = reduceAudit(loading, {
      type: 'read',
      generation: 1,
      entries: [
        entry('a', '2026-12-06T12:00:00.000Z'),
        entry('b', '2026-12-06T11:00:00.000Z'),
        entry('c', '2026-12-06T11:00:00.000Z'),
      ],
    });
    expect(auditLoading(shown)).toBe(false);
    expect(shown.count).toBe('Showing 3 entries, newest first.');
    // Fewer than a page: there is nothing older.
    expect(shown.older).toBe(false);
    // The oldest millisecond is read again, as many more entries as it shows.
    expect(auditRequest(shown, true)).toEqual({
      limit: AUDIT_PAGE + 2,
      until: '2026-12-06T11:00:00.001Z',
    });
  });

  it('adds only the entries not shown yet, and offers older ones after a full page', () => {
    const page = Array.from({ length: AUDIT_PAGE }, (_, i) =>
      entry(`e${i}`, new Date(Date.UTC(2026, 11, 6, 12, 0, 0) - i * 1000).toISOString()),
    );
    const first = feed(
      reduceAudit,
      auditState(),
      { type: 'load', more: false },
      { type: 'read', generation: 1, entries: page },
    );
    expect(first.older).toBe(true);
    const more = reduceAudit(first, { type: 'load', more: true });
    const after = reduceAudit(more, {
      type: 'read',
      generation: 2,
      entries: [page[AUDIT_PAGE - 1], entry('old', '2026-12-01T00:00:00.000Z')],
    });
    expect(after.shown.map((e: { id: string }) => e.id)).toEqual([...page.map((e) => e.id), 'old']);
    expect(after.older).toBe(false);
  });

  it('starts over on a filter, and drops an answer to an older read', () => {
    const first = feed(
      reduceAudit,
      auditState(),
      { type: 'load', more: false },
      { type: 'read', generation: 1, entries: [entry('a', '2026-12-06T12:00:00.000Z')] },
    );
    const filtered = reduceAudit(first, { type: 'filter', status: 'Error', kind: '' });
    expect(filtered).toMatchObject({ status: 'Error', shown: [], generation: 2 });
    expect(filtered.count).toBe('Showing 1 entry, newest first.');
    expect(filtered.asked).toEqual({ limit: AUDIT_PAGE, until: undefined });
    const late = { type: 'read', generation: 1, entries: [entry('z', 'x')] };
    expect(reduceAudit(filtered, late)).toBe(filtered);
    expect(reduceAudit(filtered, { type: 'read-failed', generation: 1, message: 'x' })).toBe(
      filtered,
    );
    const none = reduceAudit(filtered, { type: 'read', generation: 2, entries: [] });
    expect(none.count).toBe('No entry matches the filter.');
  });

  it('says an empty timeline and a failed read', () => {
    expect(auditCountText(0, false)).toBe('No audit entry for this agent yet.');
    expect(auditCountText(0, true)).toBe('No entry matches the filter.');
    const failed = feed(
      reduceAudit,
      auditState(),
      { type: 'load', more: false },
      { type: 'read-failed', generation: 1, message: 'forbidden' },
    );
    expect(failed).toMatchObject({ error: 'Cannot read the audit log: forbidden', asked: null });
    expect(failed.older).toBe(true);
    expect(reduceAudit(failed, { type: 'load', more: true }).error).toBeNull();
  });
});

describe('the run receipts', () => {
  const run = (id: string, status: string, n: number | null) => ({
    id,
    status,
    steps: n,
    tokensIn: n,
    tokensOut: n === null ? null : n * 2,
    costCents: n,
  });

  it('totals the runs, a missing number counting as none', () => {
    const state = reduceReceipts(receiptsState(), {
      type: 'read',
      runs: [run('r1', 'done', 3), run('r2', 'failed', null), run('r3', 'running', 10)],
    });
    expect(runTotals(state.runs)).toEqual([
      ['Runs', 3],
      ['Steps', 13],
      ['Tokens in', 13],
      ['Tokens out', 26],
      ['Cost (cents)', 13],
    ]);
    expect(runsCaption(state.runs)).toBe('Every run of this agent.');
    expect(runsCaption(Array.from({ length: RUNS_LIMIT }, () => run('r', 'done', 1)))).toBe(
      `The newest ${RUNS_LIMIT} runs.`,
    );
  });

  it('badges each status, and says why the runs could not be read', () => {
    expect(['done', 'failed', 'running', 'queued'].map(runKind)).toEqual([
      'allow',
      'deny',
      'prompt',
      'none',
    ]);
    expect(reduceReceipts(receiptsState(), { type: 'read-failed', message: 'x' })).toEqual({
      runs: null,
      readError: 'x',
    });
  });
});

describe('the tasks', () => {
  const tasks = [
    { id: 't1', state: 'open', overdue: true },
    { id: 't2', state: 'open', overdue: false },
    { id: 't3', state: 'done', overdue: false },
  ];
  const read = () => reduceTasks(tasksState(), { type: 'read', tasks });

  it('counts each filter, and shows all at first', () => {
    expect(taskFilters(tasks)).toEqual([
      { key: 'all', label: 'All', count: 3 },
      { key: 'open', label: 'Open', count: 2 },
      { key: 'overdue', label: 'Overdue', count: 1 },
      { key: 'done', label: 'Done', count: 1 },
    ]);
    expect(tasksShownText(read())).toBe('All: 3 tasks.');
  });

  it('shows the tasks a filter keeps, and ignores an unknown filter', () => {
    const overdue = reduceTasks(read(), { type: 'filter', key: 'overdue' });
    expect(shownTasks(overdue).tasks.map((t: { id: string }) => t.id)).toEqual(['t1']);
    expect(tasksShownText(overdue)).toBe('Overdue: 1 task.');
    const done = reduceTasks(overdue, { type: 'filter', key: 'done' });
    expect(shownTasks(done).tasks.map((t: { id: string }) => t.id)).toEqual(['t3']);
    expect(reduceTasks(done, { type: 'filter', key: 'later' })).toBe(done);
  });

  it('badges a task overdue before done or open', () => {
    expect(tasks.map(taskStateOf)).toEqual(['overdue', 'open', 'done']);
    expect(taskStateOf({ state: 'done', overdue: true })).toBe('overdue');
    expect(reduceTasks(tasksState(), { type: 'read-failed', message: 'no' }).readError).toBe('no');
  });
});

describe('the supervisor report', () => {
  const listed = (id: string, workspace: string | null) => ({ id, workspace });
  const report = (id: string, data: unknown) => ({ id, workspace: 'acme', title: id, data });
  const finding = (agent: string) => ({ agent, kind: 'errorStreak', statement: 's' });

  it('searches the reports of its workspace, and those of none', () => {
    const state = reduceReport(reportState(where), {
      type: 'listed',
      reports: [listed('r1', 'other'), listed('r2', null), listed('r3', 'acme')],
    });
    expect(state.candidates.map((r: { id: string }) => r.id)).toEqual(['r2', 'r3']);
    expect(nextReport(state)).toBe('r2');
    expect(reportDone(state)).toBe(false);
    expect(REPORTS_SEARCHED).toBe(20);
  });

  it('tells whether a report mentions the agent, in its workspace', () => {
    expect(mentions(null, where)).toBe(false);
    expect(mentions({ findings: [finding('coder-1')] }, where)).toBe(true);
    expect(mentions({ agents: [{ agent: 'coder-1' }] }, where)).toBe(true);
    expect(mentions({ agents: [{ agent: 'coder-1', workspace: 'other' }] }, where)).toBe(false);
    expect(mentions({ agents: [{ agent: 'x' }], findings: [finding('y')] }, where)).toBe(false);
  });

  it('reads one report after another until one mentions the agent', () => {
    const state = feed(
      reduceReport,
      reportState(where),
      {
        type: 'listed',
        reports: [listed('r1', 'acme'), listed('r2', 'acme'), listed('r3', 'acme')],
      },
      { type: 'read', id: 'r1', report: report('r1', { findings: [finding('other')] }) },
      { type: 'read-failed', id: 'r2', message: 'gone' },
    );
    expect(nextReport(state)).toBe('r3');
    const found = reduceReport(state, {
      type: 'read',
      id: 'r3',
      report: report('r3', {
        findings: [finding('coder-1'), finding('other')],
        agents: [{ agent: 'other' }, { agent: 'coder-1', calls: 4 }],
        notes: ['a note'],
      }),
    });
    expect(found.found.id).toBe('r3');
    expect(nextReport(found)).toBeNull();
    expect(reportDone(found)).toBe(true);
    expect(found.problems).toEqual(['Cannot read report r2: gone']);
    const about = reportAbout(found);
    expect(about.findings).toEqual([finding('coder-1')]);
    expect(about.row).toEqual({ agent: 'coder-1', calls: 4 });
    expect(about.notes).toEqual(['a note']);
    // A report read twice, or after one was found, changes nothing.
    expect(reduceReport(found, { type: 'read', id: 'r9', report: report('r9', {}) })).toBe(found);
  });

  it('says when no report is stored, none mentions the agent, or the list failed', () => {
    const none = reduceReport(reportState(where), { type: 'listed', reports: [] });
    expect(reportDone(none)).toBe(true);
    expect(noReportText(none)).toBe('No supervisor report is stored yet.');
    const unmentioned = feed(
      reduceReport,
      reportState(where),
      { type: 'listed', reports: [listed('r1', 'acme')] },
      { type: 'read', id: 'r1', report: report('r1', {}) },
    );
    expect(reportDone(unmentioned)).toBe(true);
    expect(noReportText(unmentioned)).toBe(
      'None of the newest 1 supervisor reports mentions this agent.',
    );
    const failed = reduceReport(reportState(where), { type: 'list-failed', message: 'denied' });
    expect(reportDone(failed)).toBe(true);
    expect(failed.listError).toBe('Cannot read the supervisor reports: denied');
  });
});
