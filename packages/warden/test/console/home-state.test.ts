// The start page's state, tested in Node without a browser: the console
// keeps what the page shows in a pure module (`web/pages/home-state.js`), so
// where a bound token lands and what each workspace's line says (its links,
// its revision, its changed tools) are checked here; the browser tests keep
// what only a browser shows (the page against a real server).

import { describe, expect, it } from 'vitest';
import {
  homeRows,
  homeState,
  landing,
  permissionsHref,
  reduce,
  toolsHref,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/home-state.js';

describe('the start page', () => {
  it('sends a token bound to a workspace to its permissions screen', () => {
    expect(landing('acme')).toBe('/workspaces/acme/settings/workspace/permissions');
    expect(landing(null)).toBeNull();
    expect(permissionsHref('a b/c')).toBe('/workspaces/a%20b%2Fc/settings/workspace/permissions');
    expect(toolsHref('a b/c')).toBe('/workspaces/a%20b%2Fc/tools');
  });

  it('lists nothing before the workspaces are read', () => {
    expect(homeRows(homeState())).toEqual([]);
  });

  it('says per workspace its revision and how many of its tools changed', () => {
    const state = [
      {
        type: 'read',
        workspaces: [
          { workspace: 'acme', revision: 3 },
          { workspace: 'beta', revision: null },
        ],
      },
      { type: 'counted', workspace: 'acme', changed: 2 },
      { type: 'counted', workspace: 'beta', changed: 0 },
    ].reduce((s, e) => reduce(s, e), homeState());
    expect(homeRows(state)).toEqual([
      {
        workspace: 'acme',
        permissions: '/workspaces/acme/settings/workspace/permissions',
        tools: '/workspaces/acme/tools',
        revision: ' revision 3 · ',
        changed: '2 changed',
      },
      {
        workspace: 'beta',
        permissions: '/workspaces/beta/settings/workspace/permissions',
        tools: '/workspaces/beta/tools',
        revision: ' revision — · ',
        changed: null,
      },
    ]);
  });

  it('shows no count for a workspace whose pins were not counted', () => {
    const state = reduce(homeState(), { type: 'read', workspaces: [{ workspace: 'acme' }] });
    expect(homeRows(state)[0].changed).toBeNull();
    expect(reduce(state, { type: 'other' })).toBe(state);
  });
});
