// Words the permissions screen's parts read and write that need no page:
// lists typed one per line, scope names in plain words, a time as a
// `datetime-local` input holds it. Pure, so the state modules
// (`editor-state.js`, `matrix-state.js`) use them in Node as the drawing does
// in the browser; `ui.js` offers them with the rest of the shared pieces.

/** The non-empty lines of a textarea. @param {string} text */
export function lines(text) {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** A scope in words: `Workspace`, `Agent coder-1`, `Space payments`, `Mode review`. @param {string} scope @returns {string} */
export function scopeName(scope) {
  if (scope === 'workspace') return 'Workspace';
  if (scope === 'default') return 'built-in default';
  if (scope.startsWith('managed:')) return `${scopeName(scope.slice('managed:'.length))} (managed)`;
  const colon = scope.indexOf(':');
  if (colon < 0) return scope;
  const kind = scope.slice(0, colon);
  const id = scope.slice(colon + 1);
  const word = { agent: 'Agent', space: 'Space', mode: 'Mode' }[kind] ?? kind;
  return `${word} ${id}`;
}

/** A `datetime-local` value for an ISO time, in the browser's zone. @param {string} iso */
export function localInput(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  /** @param {number} n */
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
