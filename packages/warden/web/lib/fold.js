// Long text from agents and admins, folded so that it never breaks a view: a
// 3,000-character command or a 20,000-character rule note shows its first
// part, and a "Show all" button beside it shows it whole (and folds it
// again). Still only text nodes: the full text is put in as text, never
// parsed as markup. Short text is shown as it is, with no control.

import { h, replace } from './dom.js';

/** @typedef {import('./types.js').Child} Child */

let counter = 0;

/**
 * The longest text shown whole for a `limit`: up to half as long again,
 * since folding it would hide too little to be worth a click.
 * @param {number} limit
 */
function whole(limit) {
  return Math.round(limit * 1.5);
}

/** Characters, not UTF-16 halves: a cut never splits an emoji. @param {string} text */
function characters(text) {
  return Array.from(text);
}

/**
 * The control that shows a folded text whole and folds it again: it draws
 * the text with `drawText(open)` on each change, says on itself how long
 * the whole is, and tells `onToggle`.
 * @param {string} id the folded element's id @param {number} length in characters
 * @param {string} what @param {boolean} startOpen
 * @param {(open: boolean) => void} onToggle @param {(open: boolean) => void} drawText
 */
function toggle(id, length, what, startOpen, onToggle, drawText) {
  const count = length.toLocaleString('en-US');
  const button = h('button', {
    type: 'button',
    class: 'fold-toggle',
    'aria-controls': id,
    'aria-expanded': 'false',
  });
  let open = startOpen;
  const draw = () => {
    drawText(open);
    button.setAttribute('aria-expanded', open ? 'true' : 'false');
    replace(
      button,
      open ? 'Show less' : `Show all ${count} characters`,
      h('span', { class: 'visually-hidden' }, ` of ${what}`),
    );
  };
  button.addEventListener('click', () => {
    open = !open;
    draw();
    onToggle(open);
  });
  draw();
  return button;
}

/**
 * `text` drawn by `render` (a text node by default); past `limit` characters,
 * its first `limit` and an expand control that shows the rest.
 * @param {unknown} value the text (anything else is shown as its string)
 * @param {{
 *   limit?: number,
 *   render?: (text: string) => Child,
 *   what?: string,
 *   open?: boolean,
 *   onToggle?: (open: boolean) => void,
 * }} [options] `what` names the text for a screen reader ("the command"); `open`
 * shows it whole from the start, and `onToggle` hears each fold and unfold
 * @returns {Child}
 */
export function folded(value, options = {}) {
  const text = String(value ?? '');
  const { limit = 240, render = (/** @type {string} */ t) => t, what = 'the text' } = options;
  const { onToggle = () => {} } = options;
  // Cheap first: a short text (in UTF-16 units) is short in characters too.
  if (text.length <= whole(limit)) return render(text);
  const chars = characters(text);
  if (chars.length <= whole(limit)) return render(text);
  counter += 1;
  const id = `fold-${counter}`;
  const head = chars.slice(0, limit).join('');
  const body = h('span', { class: 'fold-text', id });
  const button = toggle(id, chars.length, what, options.open === true, onToggle, (open) =>
    replace(body, render(open ? text : head), open ? null : h('span', { class: 'fold-cut' }, '…')),
  );
  return h('span', { class: 'fold', dataset: { length: String(chars.length) } }, body, ' ', button);
}

/**
 * A long block of text (arguments, a definition) in a `<pre>`: past `limit`
 * characters only its beginning, with the same expand control beneath.
 * @param {string} text @param {{ limit?: number, what?: string, attrs?: import('./types.js').Attrs, open?: boolean, onToggle?: (open: boolean) => void }} [options]
 */
export function foldedPre(text, options = {}) {
  const { limit = 600, what = 'the text', attrs = {}, onToggle = () => {} } = options;
  const chars = text.length <= whole(limit) ? null : characters(text);
  if (chars === null || chars.length <= whole(limit)) return h('pre', attrs, text);
  counter += 1;
  const id = typeof attrs.id === 'string' ? attrs.id : `fold-${counter}`;
  const pre = h('pre', { ...attrs, id });
  const head = chars.slice(0, limit).join('');
  const button = toggle(id, chars.length, what, options.open === true, onToggle, (open) => {
    pre.textContent = open ? text : `${head}…`;
  });
  return h(
    'div',
    { class: 'fold fold-block', dataset: { length: String(chars.length) } },
    pre,
    button,
  );
}
