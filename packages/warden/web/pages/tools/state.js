// The pinned tools page's state apart from its drawing, so that what the page
// does can be tested in Node without a browser: the pins read (or why they
// could not be), the acceptance on its way, what the last one did or why it
// was refused, where the focus goes after it, and which definitions are
// unfolded. Pure: no DOM, no `fetch`, no `window`; the page (`../tools.js`)
// feeds it the API's answers and draws what it returns.

import { commonEvent } from '../../lib/state.js';

/**
 * @typedef {import('../../lib/types.js').ToolPin} ToolPin
 */

/**
 * @typedef {{
 *   readonly workspace: string,
 *   readonly role: string,
 *   readonly mayAccept: boolean,
 *   readonly pins: readonly ToolPin[] | null,
 *   readonly readError: string | null,
 *   readonly busy: string | null,
 *   readonly failed: string | null,
 *   readonly said: string | null,
 *   readonly focus: string | null,
 *   readonly unfolded: readonly string[],
 * }} PinsState
 */

/**
 * What reaches the page: the pins read or not, an acceptance asked for and
 * the API's answer to it, the focus placed, a part unfolded or folded.
 * @typedef {(
 *   | { type: 'loaded', pins: readonly ToolPin[] }
 *   | { type: 'load-failed', message: string }
 *   | { type: 'accept', tool: string }
 *   | { type: 'accepted', tool: string, hash: string }
 *   | { type: 'accept-refused', tool: string, message: string }
 *   | { type: 'focused' }
 *   | { type: 'fold', part: string, open: boolean }
 * )} PinsEvent
 */

/**
 * The page before the pins are read.
 * @param {{ workspace: string, role: string, mayAccept: boolean }} who
 * @returns {PinsState}
 */
export function pinsState(who) {
  return {
    workspace: who.workspace,
    role: who.role,
    mayAccept: who.mayAccept,
    pins: null,
    readError: null,
    busy: null,
    failed: null,
    said: null,
    focus: null,
    unfolded: [],
  };
}

/** The changed pins among `pins`. @param {readonly ToolPin[]} pins */
export function changedPins(pins) {
  return pins.filter((p) => p.pending !== null);
}

/** `a` or `an` before `word`. @param {string} word */
function article(word) {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** What a role that may not accept is told on a changed tool. @param {PinsState} state */
export function readOnlyText(state) {
  return `Accepting a changed definition takes an admin token; ${article(state.role)} \`${state.role}\` token may only see it.`;
}

/** The sentence over the list: how many tools are pinned, and how many changed. @param {readonly ToolPin[]} pins */
export function summaryText(pins) {
  const changed = changedPins(pins).length;
  const head = `${pins.length} ${pins.length === 1 ? 'tool is' : 'tools are'} pinned; `;
  return changed === 0
    ? { head, changed, tail: 'none changed since.' }
    : {
        head,
        changed,
        tail: `${changed} changed since — refused until an admin accepts the new definition.`,
      };
}

/**
 * The page after `event`.
 * @param {PinsState} state @param {PinsEvent} event @returns {PinsState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'loaded':
      return { ...state, pins: event.pins, readError: null };
    case 'load-failed':
      return { ...state, pins: null, readError: event.message };
    case 'accept': {
      // One acceptance at a time, by a role that may, of a tool that changed.
      const pin = state.pins?.find((p) => p.tool === event.tool);
      if (state.busy !== null || !state.mayAccept || pin === undefined || pin.pending === null)
        return state;
      return { ...state, busy: event.tool, failed: null, said: null };
    }
    case 'accepted':
      return {
        ...state,
        busy: null,
        focus: event.tool,
        said: `Accepted: ${event.tool} is pinned to its new definition ${event.hash.slice(0, 12)}; the gateway lets it through again.`,
      };
    case 'accept-refused':
      return {
        ...state,
        busy: null,
        focus: event.tool,
        failed: `Cannot accept the new definition of ${event.tool}: ${event.message}`,
      };
    default:
      return commonEvent(state, event);
  }
}
