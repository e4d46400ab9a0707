// Changing the policy document as written (contracts §1): a rule is added,
// replaced or removed in a copy of the revision that was read, and the copy
// goes back whole as a new revision (PUT /v1/policy with that revision), so
// the server validates everything and a concurrent change is a conflict, not
// a silent overwrite.

/** @typedef {import('../../lib/types.js').PolicyDocument} PolicyDocument @typedef {import('../../lib/types.js').RawRule} RawRule */
/** @typedef {{ id: string, path: string | null }} RuleEntryRef a rule of the matrix's list */

/**
 * `rules[3]` → `{ mode: null, index: 3 }`; `modes.review.preset[0]` → `{ mode: 'review', index: 0 }`.
 * @param {string | null | undefined} path
 * @returns {{ mode: string | null, index: number } | null}
 */
export function parsePath(path) {
  if (typeof path !== 'string') return null;
  const top = /^rules\[(\d+)\]$/.exec(path);
  if (top !== null) return { mode: null, index: Number(top[1]) };
  const preset = /^modes\.(.+)\.preset\[(\d+)\]$/.exec(path);
  if (preset !== null) return { mode: preset[1] ?? '', index: Number(preset[2]) };
  return null;
}

/**
 * The list a rule of `mode` (null: a top-level rule) sits in; made when `create`.
 * @param {PolicyDocument} doc @param {string | null} mode @param {boolean} create
 * @returns {RawRule[] | null}
 */
function listOf(doc, mode, create) {
  if (mode === null) {
    if (!Array.isArray(doc.rules)) {
      if (!create) return null;
      doc.rules = [];
    }
    return doc.rules;
  }
  doc.modes ??= {};
  const settings = doc.modes[mode];
  if (settings === undefined || settings === null) return null;
  if (!Array.isArray(settings.preset)) {
    if (!create) return null;
    settings.preset = [];
  }
  return settings.preset;
}

/**
 * Finds a rule of the matrix's list (`{ id, path }`) in `doc`: by its place when
 * the rule written there has that id or none (a generated id), else by id.
 * @param {PolicyDocument} doc @param {RuleEntryRef} entry
 * @returns {{ list: RawRule[], index: number, mode: string | null, raw: RawRule } | null}
 */
export function locate(doc, entry) {
  const place = parsePath(entry.path);
  if (place !== null) {
    const list = listOf(doc, place.mode, false);
    const raw = list?.[place.index];
    if (list !== null && raw !== undefined && (raw.id === undefined || raw.id === entry.id))
      return { list, index: place.index, mode: place.mode, raw };
  }
  /** @type {[string | null, RawRule[] | null][]} */
  const lists = [[null, listOf(doc, null, false)]];
  for (const mode of Object.keys(doc.modes ?? {})) lists.push([mode, listOf(doc, mode, false)]);
  for (const [mode, list] of lists) {
    if (list === null) continue;
    const index = list.findIndex((r) => r?.id === entry.id);
    if (index >= 0) return { list, index, mode, raw: list[index] };
  }
  return null;
}

/** The mode a scope writes into (`mode:review` → `review`), or null. @param {string} scope */
export function modeOf(scope) {
  return scope.startsWith('mode:') ? scope.slice('mode:'.length) : null;
}

/**
 * A copy of `doc` with `rule` written in `scope`: in place of `original` when
 * given (moved to the other list if the scope moves it), else appended.
 * @param {PolicyDocument} doc @param {RuleEntryRef | null} original @param {RawRule} rule @param {string} scope
 * @returns {PolicyDocument}
 */
export function withRule(doc, original, rule, scope) {
  const copy = structuredClone(doc);
  const mode = modeOf(scope);
  const found = original === null ? null : locate(copy, original);
  if (original !== null && found === null)
    throw new Error(`rule \`${original.id}\` is no longer in the policy: reload it`);
  const written = { ...rule };
  delete written.scope;
  // `workspace` is the default scope (E4): written only where the rule wrote it, so a rule
  // without an id keeps the id generated from its text.
  const explicit =
    found !== null && found.raw !== null && typeof found.raw === 'object' && 'scope' in found.raw;
  if (mode === null && (scope !== 'workspace' || explicit)) written.scope = scope;
  if (found !== null && found.mode === mode) {
    found.list[found.index] = written;
    return copy;
  }
  if (found !== null) found.list.splice(found.index, 1);
  const list = listOf(copy, mode, true);
  if (list === null) throw new Error(`the policy defines no mode \`${mode ?? ''}\``);
  list.push(written);
  return copy;
}

/** A copy of `doc` without the rule `entry`. @param {PolicyDocument} doc @param {RuleEntryRef} entry */
export function withoutRule(doc, entry) {
  const copy = structuredClone(doc);
  const found = locate(copy, entry);
  if (found === null) throw new Error(`rule \`${entry.id}\` is no longer in the policy: reload it`);
  found.list.splice(found.index, 1);
  return copy;
}

/** Every id written in `doc`, for a fresh one. @param {PolicyDocument} doc */
export function takenIds(doc) {
  const ids = new Set();
  for (const r of doc.rules ?? []) if (typeof r?.id === 'string') ids.add(r.id);
  for (const m of Object.values(doc.modes ?? {}))
    for (const r of m?.preset ?? []) if (typeof r?.id === 'string') ids.add(r.id);
  return ids;
}

/** A readable id not yet taken: `gitPush-space-payments`, `-2` when taken. @param {PolicyDocument} doc @param {string} subject @param {string} scope */
export function freshId(doc, subject, scope) {
  /** @param {string} text */
  const slug = (text) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const base =
    `${slug(subject) || 'rule'}${scope === 'workspace' ? '' : `-${slug(scope)}`}`.slice(0, 60) ||
    'rule';
  const taken = takenIds(doc);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
