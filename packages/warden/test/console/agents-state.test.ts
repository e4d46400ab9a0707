// The agents list's state, tested in Node without a browser: the console
// keeps what the list shows in a pure module (`web/pages/agents/state.js`),
// the API's answers in and a new state out, so which agents are listed,
// whose own audit entries are read, what each row says and what could not
// be read are checked here; `web-agents.test.ts` keeps what only a browser
// shows (the list against a real server).

import { describe, expect, it } from 'vitest';
import {
  PER_AGENT,
  SAMPLE,
  SOURCES_TEXT,
  activity,
  agentIds,
  agentRows,
  agentsState,
  firstReadsDone,
  listDone,
  noToolsText,
  problemTexts,
  quietAgents,
  reduce,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/agents/state.js';

type State = ReturnType<typeof agentsState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

const registered = (id: string, more: Record<string, unknown> = {}) => ({
  id,
  name: null,
  role: 'coder',
  model: null,
  space: null,
  mode: null,
  tools: null,
  registered: true,
  lastActivity: null,
  ...more,
});
const call = (agentId: string, tool: string, occurredAt: string) => ({
  id: `${agentId}-${tool}-${occurredAt}`,
  kind: 'call',
  agentId,
  tool,
  occurredAt,
});
const freeze = (agent: string | null) => ({
  agent,
  by: 'alice',
  frozenAt: '2026-12-06T10:00:00.000Z',
  reason: null,
  managed: false,
});

/** The three first reads answered: coder-1 registered, coder-2 active, ghost frozen. */
const read = () =>
  feed(
    agentsState('acme'),
    { type: 'agents-read', agents: [registered('coder-1', { tools: ['web_fetch'] })] },
    {
      type: 'audit-read',
      entries: [
        call('coder-2', 'read_file', '2026-12-06T12:00:00.000Z'),
        call('coder-2', 'write_file', '2026-12-06T11:00:00.000Z'),
        call('coder-2', 'read_file', '2026-12-06T10:00:00.000Z'),
        { id: 'c', kind: 'change', agentId: 'root', occurredAt: '2026-12-06T09:00:00.000Z' },
      ],
    },
    { type: 'freezes-read', freezes: [freeze(null), freeze('ghost')] },
  );

describe('the agents list', () => {
  it('starts with nothing read, and is not done', () => {
    const state = agentsState('acme');
    expect(state.workspace).toBe('acme');
    expect(firstReadsDone(state)).toBe(false);
    expect(listDone(state)).toBe(false);
    expect(agentIds(state)).toEqual([]);
  });

  it('waits for all three first reads, a failure counting as an answer', () => {
    let state = reduce(agentsState('acme'), { type: 'agents-read', agents: [] });
    state = reduce(state, { type: 'read-failed', what: 'audit', message: 'forbidden' });
    expect(firstReadsDone(state)).toBe(false);
    state = reduce(state, { type: 'freezes-read', freezes: [] });
    expect(firstReadsDone(state)).toBe(true);
    expect(listDone(state)).toBe(false);
    expect(problemTexts(state)).toEqual(['Cannot read the audit log: forbidden']);
  });

  it('gathers each agent’s newest time and its tools, leaving policy changes out', () => {
    const seen = activity(read().sample);
    expect(seen).toEqual({
      'coder-2': { last: '2026-12-06T12:00:00.000Z', tools: ['read_file', 'write_file'] },
    });
    expect(activity([call('a', '(none)', 't'), call('a', '', 't')])).toEqual({
      a: { last: 't', tools: [] },
    });
  });

  it('lists registered, active and frozen agents once each, sorted', () => {
    expect(agentIds(read())).toEqual(['coder-1', 'coder-2', 'ghost']);
  });

  it('reads the own entries of the agents the sample does not name', () => {
    const state = read();
    expect(quietAgents(state)).toEqual(['coder-1', 'ghost']);
    const asked = reduce(state, { type: 'own-asked', agents: quietAgents(state) });
    expect(listDone(asked)).toBe(false);
    const one = reduce(asked, {
      type: 'own-read',
      agent: 'ghost',
      entries: [call('ghost', 'rm', '2026-12-01T00:00:00.000Z')],
    });
    expect(listDone(one)).toBe(false);
    const both = reduce(one, { type: 'own-failed', agent: 'coder-1', message: 'timeout' });
    expect(listDone(both)).toBe(true);
    expect(problemTexts(both)).toEqual(['Cannot read the audit log of coder-1: timeout']);
    // An answer for an agent not asked about is ignored.
    expect(reduce(both, { type: 'own-read', agent: 'nobody', entries: [] })).toBe(both);
  });

  it('asks once: a second ask does not reset the list', () => {
    const asked = reduce(read(), { type: 'own-asked', agents: ['ghost'] });
    expect(reduce(asked, { type: 'own-asked', agents: [] })).toBe(asked);
  });

  it('is done at once when no agent is quiet', () => {
    const state = feed(
      agentsState('acme'),
      { type: 'agents-read', agents: [] },
      { type: 'audit-read', entries: [] },
      { type: 'freezes-read', freezes: [] },
      { type: 'own-asked', agents: [] },
    );
    expect(listDone(state)).toBe(true);
    expect(agentRows(state)).toEqual([]);
  });

  it('says per row its freeze, where it comes from, its tools and last activity', () => {
    const state = feed(
      read(),
      { type: 'own-asked', agents: ['coder-1', 'ghost'] },
      {
        type: 'own-read',
        agent: 'ghost',
        entries: [
          call('ghost', 'zip', '2026-12-01T00:00:00.000Z'),
          call('ghost', 'apt', '2026-11-30T00:00:00.000Z'),
        ],
      },
      { type: 'own-read', agent: 'coder-1', entries: [] },
    );
    const rows = agentRows(state);
    expect(rows.map((r: { id: string }) => r.id)).toEqual(['coder-1', 'coder-2', 'ghost']);
    const [one, two, ghost] = rows;
    expect(one).toMatchObject({ freeze: null, note: null, tools: ['web_fetch'], assigned: true });
    expect(one.last).toBeNull();
    expect(two).toMatchObject({
      agent: null,
      note: ' not registered',
      tools: ['read_file', 'write_file'],
      assigned: false,
      last: '2026-12-06T12:00:00.000Z',
    });
    // The tools the audit log names are sorted; the frozen agent carries its freeze.
    expect(ghost.tools).toEqual(['apt', 'zip']);
    expect(ghost.freeze).toEqual(freeze('ghost'));
    expect(ghost.last).toBe('2026-12-01T00:00:00.000Z');
  });

  it('marks an agent of the data folder, and prefers its own last activity', () => {
    const state = feed(
      agentsState('acme'),
      {
        type: 'agents-read',
        agents: [
          registered('df', { registered: false, tools: [], lastActivity: '2026-12-05T00:00:00Z' }),
        ],
      },
      { type: 'audit-read', entries: [call('df', 'x', '2026-12-06T00:00:00Z')] },
      { type: 'freezes-read', freezes: [] },
    );
    const [row] = agentRows(state);
    expect(row.note).toBe(' data folder');
    expect(row.last).toBe('2026-12-05T00:00:00Z');
    expect(row.tools).toEqual([]);
    expect(noToolsText(row)).toBe('none');
    expect(noToolsText({ ...row, assigned: false })).toBe('none seen');
  });

  it('says what could not be read, the first reads first', () => {
    const state = feed(
      agentsState('acme'),
      { type: 'read-failed', what: 'freezes', message: 'no' },
      { type: 'read-failed', what: 'agents', message: 'down' },
      { type: 'audit-read', entries: [call('a', 't', 'x')] },
      { type: 'own-asked', agents: ['b'] },
      { type: 'own-failed', agent: 'b', message: 'gone' },
    );
    expect(problemTexts(state)).toEqual([
      'Cannot read the registered agents: down',
      'Cannot read which agents are frozen: no',
      'Cannot read the audit log of b: gone',
    ]);
  });

  it('says where the tools and last activity come from', () => {
    expect(SAMPLE).toBe(500);
    expect(PER_AGENT).toBe(50);
    expect(SOURCES_TEXT).toContain(
      "the workspace's newest 500 entries, or the agent's own newest 50",
    );
  });
});
