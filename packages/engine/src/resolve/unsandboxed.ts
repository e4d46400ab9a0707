// A call that asks to run without the OS sandbox (G2) needs a human each
// time: after the managed layer, the net and the dial, its allow becomes a
// prompt that cannot be remembered and no autonomy lifts; a deny stays a deny.

import type { FacetEntry } from '../model/result.js';

/** The entry appended to `facets` (and named in `prompts`) for such a call. */
export const SANDBOX_FACET = 'sandbox';
/** The rule that names the prompt when the rules alone would allow the call. */
export const SANDBOX_OFF = 'sandbox:off';
export const SANDBOX_BECAUSE = 'the call asks to run without the OS sandbox';
/** Why the offer has only "approve once". */
export const SANDBOX_ONCE =
  'the call asks to run without the OS sandbox, which a human approves each time';

export function sandboxEntry(): FacetEntry {
  return {
    facet: SANDBOX_FACET,
    decision: 'prompt',
    rule: SANDBOX_OFF,
    scope: 'default',
    because: SANDBOX_BECAUSE,
  };
}
