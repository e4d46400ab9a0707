// Placeholder until the page is built.
import { h, replace } from '../lib/dom.js';

export function render(main) {
  replace(main, h('h1', null, 'agent'), h('p', { class: 'muted' }, 'Not built yet.'));
}
