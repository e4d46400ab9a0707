// What every page's state does the same way, kept once: which folded parts
// of a page are open, and the focus a page asked for once it has been placed.
// Pure, like the state modules that use it: no DOM.

/**
 * The parts unfolded after one is opened or closed (the last opened last).
 * @param {readonly string[]} unfolded @param {string} part @param {boolean} open
 * @returns {string[]}
 */
export function unfold(unfolded, part, open) {
  const others = unfolded.filter((p) => p !== part);
  return open ? [...others, part] : others;
}

/**
 * The state once the page has placed the focus it asked for.
 * @template {{ readonly focus: unknown }} S
 * @param {S} state @returns {S}
 */
export function focusPlaced(state) {
  return state.focus === null ? state : { ...state, focus: null };
}

/**
 * The events every page handles alike — the focus placed, a part folded or
 * unfolded — and the state unchanged for any other.
 * @template {{ readonly focus: unknown, readonly unfolded: readonly string[] }} S
 * @param {S} state @param {{ type: string, part?: string, open?: boolean }} event
 * @returns {S}
 */
export function commonEvent(state, event) {
  if (event.type === 'focused') return focusPlaced(state);
  if (event.type === 'fold' && event.part !== undefined)
    return { ...state, unfolded: unfold(state.unfolded, event.part, event.open === true) };
  return state;
}
