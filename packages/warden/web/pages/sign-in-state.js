// The sign-in page's state apart from its drawing, so that what it does can
// be tested in Node without a browser: where to go after signing in (a path
// of this console, or home when the link asked for anything else), the
// token asked for and checked, and what is said when it is missing, refused
// or is an agent's. Pure: no DOM, no `fetch`, no `window`; the page
// (`./sign-in.js`) feeds it the address, what is submitted and the server's
// answer, and draws what it returns.

/**
 * @typedef {{
 *   readonly asked: string | null,
 *   readonly next: string | null,
 *   readonly busy: boolean,
 *   readonly error: string | null,
 *   readonly focus: boolean,
 * }} SignInState
 */

/**
 * What reaches the page: a token submitted (as typed), the identity it
 * turned out to be refused for, the server's refusal of it, the focus placed.
 * @typedef {(
 *   | { type: 'submit', typed: string }
 *   | { type: 'refused', message: string }
 *   | { type: 'failed', message: string }
 *   | { type: 'focused' }
 * )} SignInEvent
 */

/** What is said when the token field is empty. */
export const EMPTY_TEXT = 'Paste your API token first: the token field is empty.';

/**
 * Where `next` leads, when it is a page of this console (a same-origin path
 * with its query and fragment); null otherwise.
 * @param {string | null} next @param {string} origin the console's, e.g. `https://warden.example`
 */
export function nextPath(next, origin) {
  if (next === null || next === '') return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  let url;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Why an identity may not use the console, or null when it may.
 * @param {Pick<import('../lib/types.js').Identity, 'role' | 'agent' | 'name' | 'workspace'>} me
 */
export function consoleRefusal(me) {
  if (me.role !== 'agent') return null;
  return `This is the token of agent ${me.agent ?? me.name}${me.workspace === null ? '' : ` in workspace ${me.workspace}`}: agents act through the API, and the console is for people. Sign in with a token made for you, e.g. warden token create --role approver --name you.`;
}

/**
 * The page before a token is submitted: `asked` is the address's `?next=`.
 * @param {{ asked: string | null, origin: string }} where @returns {SignInState}
 */
export function signInState(where) {
  return {
    asked: where.asked,
    next: nextPath(where.asked, where.origin),
    busy: false,
    error: null,
    focus: true,
  };
}

/** Whether the link asked to go somewhere outside the console (and home is where it goes). @param {SignInState} state */
export function nextRefused(state) {
  return state.asked !== null && state.next === null;
}

/** Where the page goes once signed in. @param {SignInState} state */
export function destination(state) {
  return state.next ?? '/';
}

/** The token to sign in with, or null when there is none (or one is being checked). @param {SignInState} state @param {string} typed */
export function tokenOf(state, typed) {
  const token = typed.trim();
  return state.busy || token === '' ? null : token;
}

/**
 * The page after `event`.
 * @param {SignInState} state @param {SignInEvent} event @returns {SignInState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'submit':
      if (state.busy) return state;
      return event.typed.trim() === ''
        ? { ...state, error: EMPTY_TEXT, focus: true }
        : { ...state, busy: true, error: null };
    case 'refused':
      return { ...state, busy: false, error: event.message };
    case 'failed':
      return { ...state, busy: false, error: event.message, focus: true };
    case 'focused':
      return state.focus ? { ...state, focus: false } : state;
    default:
      return state;
  }
}
