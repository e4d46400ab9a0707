// The console's shell: who is signed in, the navigation, and which page a
// path shows. Pages are modules under `pages/`, each exporting
// `render(main, ctx)`; `ctx` holds the identity (`/v1/me`: role, bindings and
// the permissions the role grants) and the route's parameters. A page may
// return a function that is called when the page is left. A token that stops
// working (revoked, expired) does not take the page away: a banner says why
// and signs in again over it, so an unsaved edit is kept.

import { api, signIn, signOut, token, tokenProblem } from './lib/api.js';
import { h, replace } from './lib/dom.js';
import { renderHeader } from './lib/header.js';

/**
 * Paths → page modules; `:name` parts become `ctx.params.name`; `nav` is the
 * header's link the page is under.
 * @type {{ path: string, page: string, title: string, open?: boolean, nav: import('./lib/header.js').NavKey | null }[]}
 */
const ROUTES = [
  { path: '/sign-in', page: 'sign-in', title: 'Sign in', open: true, nav: null },
  { path: '/', page: 'home', title: 'Workspaces', nav: 'workspaces' },
  { path: '/approvals', page: 'approvals', title: 'Approvals', nav: 'approvals' },
  { path: '/agents', page: 'agents', title: 'Agents', nav: 'agents' },
  { path: '/agents/:agent', page: 'agent', title: 'Agent', nav: 'agents' },
  {
    path: '/workspaces/:workspace/settings/workspace/permissions',
    page: 'permissions',
    title: 'Permissions',
    nav: 'permissions',
  },
  { path: '/workspaces/:workspace/tools', page: 'tools', title: 'Pinned tools', nav: 'tools' },
];

/** @param {string} pattern @param {string} path @returns {Record<string, string> | null} */
function match(pattern, path) {
  const want = pattern.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  if (pattern === '/') return path === '/' ? {} : null;
  if (want.length !== got.length) return null;
  /** @type {Record<string, string>} */
  const params = {};
  for (let i = 0; i < want.length; i += 1) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}

/** Every page's modules, as the server lists them in the page (`#page-modules`). */
const PAGE_MODULES = (() => {
  try {
    return /** @type {Record<string, string[]>} */ (
      JSON.parse(document.getElementById('page-modules')?.textContent ?? '{}')
    );
  } catch {
    return {};
  }
})();

/**
 * Asks the browser for all of a page's modules at once, before the page is
 * imported: it would otherwise find them one level of imports at a time.
 * @param {string} page
 */
function preloadModules(page) {
  for (const path of PAGE_MODULES[page] ?? []) {
    const href = `/ui/${path}`;
    if (document.head.querySelector(`link[rel="modulepreload"][href="${CSS.escape(href)}"]`))
      continue;
    document.head.append(h('link', { rel: 'modulepreload', href }));
  }
}

let leave = () => undefined;
/** @type {import('./lib/types.js').Identity | null} */
let identity = null;

/** Goes to `path` without reloading the page. @param {string} path */
export function navigate(path) {
  window.history.pushState({}, '', path);
  void show();
}

/** The workspace the console works in: the token's, the last one chosen, or none. */
export function currentWorkspace() {
  return identity?.workspace ?? window.sessionStorage.getItem('warden.workspace');
}

/** The header's link of the page shown: set by `show`, read whenever the header is drawn again. @type {import('./lib/header.js').NavKey | null} */
let current = null;

/** Draws the one header (lib/header.js) for the page shown and who is signed in. */
function renderNav() {
  renderHeader({
    identity,
    workspace: identity === null ? null : currentWorkspace(),
    current,
    onSignOut: () => {
      signOut();
      identity = null;
      navigate('/sign-in');
    },
  });
}

/** The route of a path given as text (`?next=`); undefined when it names none. @param {string | null} path */
function routeOf(path) {
  if (path === null) return undefined;
  try {
    const { pathname } = new URL(path, window.location.origin);
    return ROUTES.find((r) => match(r.path, pathname) !== null);
  } catch {
    return undefined;
  }
}

async function show() {
  leave();
  leave = () => undefined;
  const main = document.getElementById('main');
  if (main === null) return;
  const path = window.location.pathname;
  let route = ROUTES.find((r) => match(r.path, path) !== null);
  if (route === undefined) {
    // The console's own not-found page, with the header as on every page.
    if (identity === null && token() !== null) {
      try {
        identity = await api('GET', '/v1/me');
      } catch {
        identity = null;
      }
    }
    current = null;
    renderNav();
    document.title = 'Not found · Warden';
    replace(
      main,
      h('h1', null, 'Not found'),
      h('p', null, 'No page here. ', h('a', { href: '/' }, 'Home')),
    );
    return;
  }
  // The page asked for, with its query, is where signing in leads back to.
  const here = `${path}${window.location.search}`;
  if (!route.open && token() === null) {
    window.history.replaceState({}, '', `/sign-in?next=${encodeURIComponent(here)}`);
    route = ROUTES[0];
  }
  if (!route.open && identity === null) {
    try {
      identity = await api('GET', '/v1/me');
    } catch {
      signOut();
      window.history.replaceState({}, '', `/sign-in?next=${encodeURIComponent(here)}`);
      route = ROUTES[0];
    }
  }
  const params = match(route.path, window.location.pathname) ?? {};
  // The workspace a page is about — in its path or its `?workspace=` — is the one the header names.
  const shownWorkspace =
    params.workspace ?? new URLSearchParams(window.location.search).get('workspace');
  if (shownWorkspace !== undefined && shownWorkspace !== null && shownWorkspace !== '')
    window.sessionStorage.setItem('warden.workspace', shownWorkspace);
  current = route.nav;
  renderNav();
  document.title = `${route.title} · Warden`;
  replace(main, h('p', { class: 'muted' }, 'Loading…'));
  preloadModules(route.page);
  // While the token is typed, the page signing in leads to loads its modules.
  if (route.open) {
    const then = routeOf(new URLSearchParams(window.location.search).get('next'));
    if (then !== undefined) preloadModules(then.page);
  }
  try {
    const mod = await import(`./pages/${route.page}.js`);
    /** @type {import('./lib/types.js').PageContext} */
    const ctx = {
      // Every route but the open sign-in page is shown signed in (above), and sign-in reads no identity.
      identity: /** @type {import('./lib/types.js').Identity} */ (identity),
      params,
      navigate,
      /** @param {string} permission */
      can: (permission) => identity?.permissions?.some((p) => p === permission) === true,
      workspace: currentWorkspace,
      signedIn: async () => {
        const me = /** @type {import('./lib/types.js').Identity} */ (await api('GET', '/v1/me'));
        identity = me;
        return me;
      },
      signedOut: async () => {
        signOut();
        identity = null;
      },
    };
    const done = await mod.render(main, ctx);
    if (typeof done === 'function') leave = done;
  } catch (error) {
    replace(
      main,
      h('h1', null, route.title),
      h(
        'p',
        { class: 'error', role: 'alert' },
        error instanceof Error ? error.message : String(error),
      ),
    );
  }
  main.focus({ preventScroll: true });
}

// Links inside the console change the page without a reload.
document.addEventListener('click', (event) => {
  const a = event.target instanceof Element ? event.target.closest('a') : null;
  if (a === null || a.target !== '' || a.origin !== window.location.origin) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  if (a.pathname.startsWith('/v1/') || a.pathname.startsWith('/ui/')) return;
  event.preventDefault();
  navigate(a.pathname + a.search);
});
window.addEventListener('popstate', () => void show());
/**
 * The token stopped working while a page was open: the page stays, with
 * whatever was typed in it, and a banner above it says why and signs in
 * again in place. Signed in with another role, the page is shown anew for it;
 * with the same role it stays, and is told (`warden:session-restored`) to read
 * what it shows again.
 * @param {string} reason the server's words
 */
function sessionEnded(reason) {
  // Asked once: the calls that fail after the first find the banner there.
  if (document.getElementById('session-ended') !== null) return;
  const was = identity;
  identity = null;
  renderNav();
  let banner = document.getElementById('session-ended');
  if (banner === null) {
    banner = h('section', {
      id: 'session-ended',
      class: 'session-ended',
      role: 'alertdialog',
      'aria-labelledby': 'session-ended-title',
    });
    document.getElementById('main')?.before(banner);
  }
  const error = h('p', { class: 'error', role: 'alert' });
  const input = h('input', {
    id: 'session-token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    placeholder: 'wdn_…',
  });
  const el = banner;
  replace(
    el,
    h('h2', { id: 'session-ended-title' }, 'Sign in again to go on'),
    h(
      'p',
      null,
      'The server no longer accepts the token of this tab: ',
      /expired at/.test(reason) ? 'it expired' : 'it was revoked or it expired',
      '. What you were editing stays on this page; sign in again, then save it.',
    ),
    h(
      'form',
      {
        class: 'row',
        onsubmit: async (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          replace(error);
          const typed = input.value.trim();
          if (typed === '') {
            replace(error, 'Paste your API token first: the token field is empty.');
            input.focus();
            return;
          }
          signIn(typed);
          try {
            const me = /** @type {import('./lib/types.js').Identity} */ (
              await api('GET', '/v1/me')
            );
            if (me.role === 'agent') {
              signOut();
              replace(
                error,
                'An agent’s token cannot sign in to the console: use a token made for you.',
              );
              return;
            }
            identity = me;
          } catch (e) {
            signOut();
            replace(error, tokenProblem(e));
            return;
          }
          el.remove();
          renderNav();
          // The same role sees the same page: it stays, edits and all, and reads again.
          if (was === null || was.role !== identity.role || was.workspace !== identity.workspace)
            void show();
          else window.dispatchEvent(new CustomEvent('warden:session-restored'));
        },
      },
      h('label', { for: 'session-token' }, 'API token'),
      input,
      h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
    ),
    error,
  );
  input.focus();
}

window.addEventListener('warden:signed-out', (event) => {
  const detail = /** @type {CustomEvent<{ reason?: string }>} */ (event).detail;
  // The sign-in page itself shows its own errors.
  if (window.location.pathname === '/sign-in') return;
  sessionEnded(detail?.reason ?? '');
});

void show();
