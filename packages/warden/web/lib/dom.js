// Building the page from data without ever parsing data as markup: every
// value becomes a text node or an attribute, so text an agent wrote cannot
// turn into elements or scripts. (The content security policy is the second
// wall.)

/** @typedef {import('./types.js').Child} Child @typedef {import('./types.js').Attrs} Attrs */

/**
 * `h('button', { class: 'primary', onclick: fn }, 'Save')`: an element with
 * attributes, event handlers (`on…` functions) and children. Typed by tag:
 * `h('input', …)` is an `HTMLInputElement`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (key === 'dataset' && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

/** @param {Node} parent @param {readonly Child[]} children */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces the children of `el`. @param {Element} el @param {...Child} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * The value of the input, select or textarea an event came from: what an
 * input's own handler writes into its state.
 * @param {Event} event
 */
export function valueOf(event) {
  return /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */ (
    event.currentTarget
  ).value;
}

/** Whether the checkbox an event came from is ticked. @param {Event} event */
export function checkedOf(event) {
  return /** @type {HTMLInputElement} */ (event.currentTarget).checked;
}

/** `<code>` for a value shown as it is. @param {unknown} text */
export function code(text) {
  return h('code', null, String(text));
}

/**
 * Text as the server writes it, with `back-quoted` parts shown as code: a
 * list of text nodes and `<code>` elements, never parsed as markup.
 * @param {unknown} text
 */
export function rich(text) {
  return String(text ?? '')
    .split('`')
    .map((part, i) => (i % 2 === 1 ? code(part) : part))
    .filter((part) => part !== '');
}

/** A decision as a coloured badge: allow, prompt (ask), deny. @param {string | null | undefined} decision */
export function badge(decision) {
  const d = decision ?? 'none';
  const label = d === 'prompt' ? 'ask' : d;
  return h('span', { class: `badge badge-${d}`, title: d }, label);
}

/** A short time, with the full ISO time on hover. @param {string | null | undefined} iso */
export function time(iso) {
  if (iso === null || iso === undefined) return h('span', { class: 'muted' }, '—');
  const d = new Date(iso);
  const shown = Number.isNaN(d.getTime())
    ? iso
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
  return h('time', { datetime: iso, title: iso }, shown);
}

/** Shows a short message at the bottom of the page. @param {string} text @param {'ok'|'error'} [kind] */
export function toast(text, kind = 'ok') {
  const el = document.getElementById('toast');
  if (el === null) return;
  el.className = `toast toast-${kind} show`;
  el.textContent = text;
  window.clearTimeout(Number(el.dataset.timer ?? 0));
  el.dataset.timer = String(window.setTimeout(() => el.classList.remove('show'), 4000));
}

/** A section with a heading. @param {string} title @param {...Child} children */
export function section(title, ...children) {
  const id = `s-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': id },
    h('h2', { id }, title),
    ...children,
  );
}
