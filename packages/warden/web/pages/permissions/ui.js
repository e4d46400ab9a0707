// Small pieces the permissions screen's parts share: form fields with their
// labels and help, error boxes that say what failed in the server's words,
// scope names in plain words, lists typed one per line.

import { h, replace, rich } from '../../lib/dom.js';

/** Lists typed one per line, scope names, times for a `datetime-local` input (pure: `text.js`). */
export { lines, localInput, scopeName } from './text.js';

/** Text as the server writes it, with `back-quoted` parts as code (one helper for every page). */
export { rich };

let counter = 0;

/** A fresh element id with a readable prefix. @param {string} prefix */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** An empty alert that `fail` fills; hidden while empty (`.error:empty`). */
export function alertBox() {
  return h('p', { class: 'error', role: 'alert' });
}

/**
 * Shows what failed and why in `box` (an `alertBox`).
 * @param {HTMLElement} box @param {string} what @param {unknown} error
 */
export function fail(box, what, error) {
  const message = error instanceof Error ? error.message : String(error);
  replace(box, `${what}: ${message}`);
}

/** Clears an alert box. @param {HTMLElement} box */
export function clear(box) {
  replace(box);
}

/**
 * A labelled control with optional help, linked by `aria-describedby`.
 * @param {string} label @param {HTMLElement} control @param {string | Node | null} [help]
 */
export function field(label, control, help = null) {
  if (control.id === '') control.id = uid('f');
  let helpEl = null;
  if (help !== null) {
    helpEl = h(
      'p',
      { class: 'help muted', id: `${control.id}-help` },
      typeof help === 'string' ? rich(help) : help,
    );
    control.setAttribute('aria-describedby', helpEl.id);
  }
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, helpEl);
}

/** A `<select>` of `[value, label]` pairs. @param {[string, string][]} options @param {string} [selected] @param {Record<string, unknown>} [attrs] */
export function select(options, selected, attrs = {}) {
  return h(
    'select',
    attrs,
    options.map(([value, label]) =>
      h('option', { value, selected: value === selected ? true : undefined }, label),
    ),
  );
}

/**
 * A whole, non-negative number field (a count, cents).
 * @param {string} name @param {Record<string, unknown>} [attrs]
 */
export function wholeNumber(name, attrs = {}) {
  return h('input', { type: 'number', name, min: '0', step: '1', inputmode: 'numeric', ...attrs });
}

/** What a decision means to the agent, in words. @param {string | null | undefined} d */
export function decisionWords(d) {
  if (d === 'allow') return 'allowed';
  if (d === 'prompt') return 'asks a human';
  if (d === 'deny') return 'denied';
  return 'no opinion';
}

/** An origin as a small label. @param {string} origin */
export function originTag(origin) {
  return h('span', { class: `tag tag-${origin}` }, origin);
}

/** Wires a tab list: buttons with `role="tab"`, arrow keys move between them. @param {HTMLElement} list @param {(id: string) => void} onSelect */
export function tabKeys(list, onSelect) {
  list.addEventListener('keydown', (event) => {
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    const at = tabs.indexOf(/** @type {Element} */ (document.activeElement));
    if (at < 0) return;
    let next = -1;
    if (event.key === 'ArrowRight') next = (at + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (at - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    const tab = /** @type {HTMLElement} */ (tabs[next]);
    tab.focus();
    onSelect(tab.dataset.tab ?? '');
  });
}
