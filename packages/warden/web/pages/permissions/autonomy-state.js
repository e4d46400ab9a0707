// The autonomy tab's state apart from its drawing, so that what the tab does
// can be tested in Node without a browser: the spaces and dial settings read
// (or why they could not be), the matrix the page read (which names more
// spaces and shows what each dial changes), the setting picked on each
// space's dial and in the form for another space, the setting on its way,
// what it wrote, and why it was refused. Pure: no DOM, no `fetch`, no
// `window`; the autonomy tab (`autonomy.js`) feeds it the API's answers, the
// page's reads and the person's input, sends the setting it holds, and draws
// what it returns.

/**
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').Spaces} Spaces
 * @typedef {import('../../lib/types.js').AutonomyLevel} AutonomyLevel
 */

/**
 * A space as its card shows it: its dial as set (null: unset), as it acts,
 * and what that means.
 * @typedef {{ readonly id: string, readonly autonomy: string | null, readonly effective: string, readonly meaning?: string | undefined }} SpaceDial
 */

/**
 * A setting of a space's dial, and where it was asked for: a space's card
 * (its id) or the form for another space (`''`).
 * @typedef {{ readonly space: string, readonly autonomy: string | null, readonly at: string }} Setting
 */

/**
 * @typedef {{
 *   readonly spaces: Spaces | null,
 *   readonly readError: string | null,
 *   readonly data: PermissionsMatrix | null,
 *   readonly chosen: Readonly<Record<string, string>>,
 *   readonly newName: string,
 *   readonly newLevel: string,
 *   readonly setting: Setting | null,
 *   readonly written: (Setting & { readonly revision: number }) | null,
 *   readonly failed: { readonly at: string, readonly message: string } | null,
 * }} AutonomyState
 */

/**
 * What reaches the tab: the spaces read or not, the page read the matrix, a
 * setting picked on a card's dial, the other space's name or setting typed,
 * a setting asked for (on a card, or for another space), the API's answer.
 * @typedef {(
 *   | { type: 'loaded', spaces: Spaces }
 *   | { type: 'load-failed', message: string }
 *   | { type: 'read', data: PermissionsMatrix | null }
 *   | { type: 'choose', space: string, value: string }
 *   | { type: 'new-name', value: string }
 *   | { type: 'new-level', value: string }
 *   | { type: 'set', space: string }
 *   | { type: 'set-new' }
 *   | { type: 'set-done', revision: number }
 *   | { type: 'set-failed', message: string }
 * )} AutonomyEvent
 */

/** The plain statement of what actFreely means (G32, E17, E20). */
export const ACT_FREELY_STATEMENT = [
  'actFreely pre-approves whatever did not resolve to a deny: a prompt is allowed and nobody is asked. ',
  'Only an explicit deny — soft or hard — still stops a call. ',
  'Three things are never pre-approved, because they cannot be verified: a prompt the managed layer gives stays a prompt, ',
  'a deny rule that escalated because the request did not say what it needed to check stays a deny, ',
  'and a command Warden cannot read with confidence still asks.',
];

/** The setting an unset dial behaves as, and the one the form for another space starts on. */
export const DEFAULT_LEVEL = 'actWithApproval';

/**
 * The tab before the spaces are read, on the matrix the page holds.
 * @param {PermissionsMatrix | null} [data] @returns {AutonomyState}
 */
export function autonomyState(data = null) {
  return {
    spaces: null,
    readError: null,
    data,
    chosen: {},
    newName: '',
    newLevel: DEFAULT_LEVEL,
    setting: null,
    written: null,
    failed: null,
  };
}

/**
 * Every space the tab shows, by name: those the spaces route knows, and those
 * only rules or agents name (their dial unset); none before the spaces are read.
 * @param {AutonomyState} state @returns {SpaceDial[]}
 */
export function allSpaces(state) {
  if (state.spaces === null) return [];
  const known = new Set(state.spaces.spaces.map((s) => s.id));
  /** @type {SpaceDial[]} */
  const more = (state.data?.columns ?? []).flatMap((c) =>
    c.kind === 'space' && c.id !== null && !known.has(c.id)
      ? [{ id: c.id, autonomy: null, effective: DEFAULT_LEVEL, meaning: c.autonomyMeaning }]
      : [],
  );
  return [...state.spaces.spaces, ...more].sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The settings a card's dial offers: unset (with what it behaves as), then each level.
 * @param {readonly AutonomyLevel[]} levels
 * @returns {{ value: string, label: string, meaning: string }[]}
 */
export function dialOptions(levels) {
  return [
    {
      value: '',
      label: 'unset',
      meaning: `behaves as actWithApproval: ${levels.find((l) => l.level === DEFAULT_LEVEL)?.meaning ?? ''}`,
    },
    ...levels.map((l) => ({ value: l.level, label: l.level, meaning: l.meaning })),
  ];
}

/** The setting a card's dial shows picked: the one picked there, else the one set (`''`: unset). @param {AutonomyState} state @param {SpaceDial} space */
export function chosenOf(state, space) {
  return state.chosen[space.id] ?? space.autonomy ?? '';
}

/** The dial's value as a card shows it. @param {SpaceDial} space */
export function dialText(space) {
  return space.autonomy ?? 'unset (actWithApproval)';
}

/** The setting the form for another space shows picked: the one picked if offered, else the first. @param {AutonomyState} state */
export function newLevelOf(state) {
  const levels = state.spaces?.levels ?? [];
  return levels.some((l) => l.level === state.newLevel)
    ? state.newLevel
    : (levels[0]?.level ?? state.newLevel);
}

/** A decision in the words the tab uses: `prompt` is "ask". @param {string} decision */
function word(decision) {
  return decision === 'prompt' ? 'ask' : decision;
}

/**
 * The classes the dial changes in a space, read from the matrix: each with
 * what it gets before the dial and after, in words.
 * @param {PermissionsMatrix | null} data @param {string} space
 * @returns {{ cls: string, from: string, to: string }[]}
 */
export function dialEffect(data, space) {
  if (data === null) return [];
  return data.rows.flatMap((row) => {
    const cell = row.cells.find((c) => c.scope === `space:${space}`);
    return cell !== undefined && cell.decision !== cell.effective
      ? [{ cls: row.class, from: word(cell.decision), to: word(cell.effective) }]
      : [];
  });
}

/** What a setting written says. @param {NonNullable<AutonomyState['written']>} written */
export function writtenText(written) {
  return `Space ${written.space}: ${written.autonomy ?? 'unset'} (revision ${written.revision})`;
}

/** What the box of the card or form `at` says, or null. @param {AutonomyState} state @param {string} at */
export function failureAt(state, at) {
  return state.failed !== null && state.failed.at === at ? state.failed.message : null;
}

/** What the tab's own box says: why the spaces could not be read, or null. @param {AutonomyState} state */
export function readErrorText(state) {
  return state.readError === null ? null : `Cannot read the spaces: ${state.readError}`;
}

/**
 * A setting asked for, unless one is on its way.
 * @param {AutonomyState} state @param {Setting} setting @returns {AutonomyState}
 */
function asks(state, setting) {
  if (state.setting !== null) return state;
  return { ...state, setting, failed: null };
}

/**
 * A setting asked for on a card: the one its dial shows picked.
 * @param {AutonomyState} state @param {string} id @returns {AutonomyState}
 */
function setSpace(state, id) {
  const space = allSpaces(state).find((s) => s.id === id);
  if (space === undefined) return state;
  const value = chosenOf(state, space);
  return asks(state, { space: id, autonomy: value === '' ? null : value, at: id });
}

/**
 * A setting asked for in the form for another space: it needs a name.
 * @param {AutonomyState} state @returns {AutonomyState}
 */
function setNew(state) {
  const id = state.newName.trim();
  if (id === '') return { ...state, failed: { at: '', message: 'Not set: give the space a name' } };
  return asks(state, { space: id, autonomy: newLevelOf(state), at: '' });
}

/**
 * The tab after `event`.
 * @param {AutonomyState} state @param {AutonomyEvent} event @returns {AutonomyState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'loaded':
      // A card drawn again is drawn as it stands: what failed there is gone.
      return { ...state, spaces: event.spaces, readError: null, failed: null };
    case 'load-failed':
      return { ...state, spaces: null, readError: event.message };
    case 'read':
      return { ...state, data: event.data, failed: null };
    case 'choose':
      return { ...state, chosen: { ...state.chosen, [event.space]: event.value } };
    case 'new-name':
      return { ...state, newName: event.value };
    case 'new-level':
      return { ...state, newLevel: event.value };
    case 'set':
      return setSpace(state, event.space);
    case 'set-new':
      return setNew(state);
    case 'set-done': {
      const setting = state.setting;
      if (setting === null) return state;
      // The dials show what is set now; the form for another space starts again.
      const fresh = setting.at === '' ? { newName: '', newLevel: DEFAULT_LEVEL } : {};
      return {
        ...state,
        ...fresh,
        setting: null,
        chosen: {},
        written: { ...setting, revision: event.revision },
      };
    }
    case 'set-failed': {
      const setting = state.setting;
      if (setting === null) return state;
      return {
        ...state,
        setting: null,
        failed: {
          at: setting.at,
          message: `Cannot set the autonomy of ${setting.space}: ${event.message}`,
        },
      };
    }
    default:
      return state;
  }
}
