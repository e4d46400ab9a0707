// Sign in with an API token (`warden token create`): the console keeps it for
// this tab only and sends it as any client would; the server's roles decide.
// An agent's token is refused here: the console is for people. Where to go
// next (`?next=`) is a path of this console, with its query; anything else
// is said and ignored.

import { signIn, signOut, tokenProblem } from '../lib/api.js';
import { h, replace } from '../lib/dom.js';

/**
 * Where `next` leads, when it is a page of this console (a same-origin path
 * with its query and fragment); null otherwise.
 * @param {string | null} next
 */
export function nextPath(next) {
  if (next === null || next === '') return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  let url;
  try {
    url = new URL(next, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Why an identity may not use the console, or null when it may.
 * @param {import('../lib/types.js').Identity} me
 */
export function consoleRefusal(me) {
  if (me.role !== 'agent') return null;
  return `This is the token of agent ${me.agent ?? me.name}${me.workspace === null ? '' : ` in workspace ${me.workspace}`}: agents act through the API, and the console is for people. Sign in with a token made for you, e.g. warden token create --role approver --name you.`;
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export function render(main, ctx) {
  const error = h('p', { class: 'error', role: 'alert', id: 'sign-in-error' });
  const asked = new URLSearchParams(window.location.search).get('next');
  const next = nextPath(asked);
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
    placeholder: 'wdn_…',
    'aria-describedby': 'token-help sign-in-error',
  });
  const form = h(
    'form',
    {
      class: 'card narrow',
      onsubmit: async (event) => {
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
          const me = await ctx.signedIn();
          const refusal = consoleRefusal(me);
          if (refusal !== null) {
            await ctx.signedOut();
            replace(error, refusal);
            return;
          }
        } catch (e) {
          signOut();
          replace(error, tokenProblem(e));
          input.focus();
          return;
        }
        ctx.navigate(next ?? '/');
      },
    },
    h('h1', null, 'Sign in to Warden'),
    asked !== null && next === null
      ? h(
          'p',
          { class: 'notice', id: 'next-refused', role: 'status' },
          'The link asked to continue to an address outside this console; after signing in you go to the home page instead.',
        )
      : null,
    h('label', { for: 'token' }, 'API token'),
    input,
    h(
      'p',
      { id: 'token-help', class: 'muted' },
      'A token made with ',
      h('code', null, 'warden token create --role approver --name you'),
      '. It is kept for this browser tab only.',
    ),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
    error,
  );
  replace(main, form);
  input.focus();
}
