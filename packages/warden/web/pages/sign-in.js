// Sign in with an API token (`warden token create`): the console keeps it for
// this tab only and sends it as any client would; the server's roles decide.
// An agent's token is refused here: the console is for people. Where to go
// next (`?next=`) is a path of this console, with its query; anything else
// is said and ignored.
//
// What the page holds is its state (`sign-in-state.js`): pure, tested in
// Node. `render` is the wiring: it feeds the state what is submitted and the
// server's answer, and draws it.

import { signIn, signOut, tokenProblem } from '../lib/api.js';
import { h, replace } from '../lib/dom.js';
import {
  consoleRefusal,
  destination,
  nextPath as nextPathFrom,
  nextRefused,
  reduce,
  signInState,
  tokenOf,
} from './sign-in-state.js';

export { consoleRefusal };

/**
 * @typedef {import('./sign-in-state.js').SignInState} SignInState
 * @typedef {import('./sign-in-state.js').SignInEvent} SignInEvent
 */

/**
 * Where `next` leads, when it is a page of this console (a same-origin path
 * with its query and fragment); null otherwise.
 * @param {string | null} next
 */
export function nextPath(next) {
  return nextPathFrom(next, window.location.origin);
}

/**
 * The form: its parts that stay (the token field, the alert) made by the
 * caller, the note on a refused `?next=` drawn from the state.
 * @param {SignInState} state @param {HTMLInputElement} input @param {HTMLElement} error @param {(event: SubmitEvent) => void} onsubmit
 */
function signInForm(state, input, error, onsubmit) {
  return h(
    'form',
    { class: 'card narrow', onsubmit },
    h('h1', null, 'Sign in to Warden'),
    nextRefused(state)
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
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export function render(main, ctx) {
  /** @type {SignInState} */
  let state = signInState({
    asked: new URLSearchParams(window.location.search).get('next'),
    origin: window.location.origin,
  });
  const error = h('p', { class: 'error', role: 'alert', id: 'sign-in-error' });
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

  const draw = () => {
    replace(error, state.error);
    if (state.focus) {
      state = reduce(state, { type: 'focused' });
      input.focus();
    }
  };
  /** @param {SignInEvent} event */
  const dispatch = (event) => {
    state = reduce(state, event);
    draw();
  };

  /** Signs in with the token typed: the console's own check, then the page asked for. @param {string} token */
  const check = async (token) => {
    signIn(token);
    try {
      const me = await ctx.signedIn();
      const refusal = consoleRefusal(me);
      if (refusal !== null) {
        await ctx.signedOut();
        dispatch({ type: 'refused', message: refusal });
        return;
      }
    } catch (e) {
      signOut();
      dispatch({ type: 'failed', message: tokenProblem(e) });
      return;
    }
    ctx.navigate(destination(state));
  };

  const form = signInForm(state, input, error, (event) => {
    event.preventDefault();
    const token = tokenOf(state, input.value);
    dispatch({ type: 'submit', typed: input.value });
    if (token !== null) void check(token);
  });
  replace(main, form);
  draw();
}
