// Sign in with an API token (`warden token create`): the console keeps it for
// this tab only and sends it as any client would; the server's roles decide.

import { signIn, signOut } from '../lib/api.js';
import { h, replace } from '../lib/dom.js';

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export function render(main, ctx) {
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
  const form = h(
    'form',
    {
      class: 'card narrow',
      onsubmit: async (event) => {
        event.preventDefault();
        replace(error);
        signIn(input.value.trim());
        try {
          await ctx.signedIn();
        } catch (e) {
          signOut();
          replace(error, e instanceof Error ? e.message : String(e));
          return;
        }
        const next = new URLSearchParams(window.location.search).get('next');
        ctx.navigate(next !== null && next.startsWith('/') && !next.startsWith('//') ? next : '/');
      },
    },
    h('h1', null, 'Sign in to Warden'),
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
