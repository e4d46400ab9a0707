// Which approvals a person's inbox lists and counts. The server sends every
// pending approval of the workspace to every live channel, prompts and soft
// denies alike; a person should see only what they can act on: an approver
// answers prompts, an overrider overrides soft denies, an admin does both. A
// role that acts on none (a viewer) sees every kind, read-only. Pure: no DOM,
// no API, so the inbox and anything else that counts approvals agree.

/** @typedef {'prompt' | 'override'} ApprovalKind */

/**
 * What the signed-in role may do with approvals, as `/v1/me` grants it.
 * @typedef {{ readonly mayAnswer: boolean, readonly mayOverride: boolean }} ApprovalPowers
 */

/**
 * The kinds of approval a role acts on: prompts with `answer`, soft denies
 * (`override` approvals) with `override`.
 * @param {ApprovalPowers} powers
 * @returns {ApprovalKind[]}
 */
export function kindsActedOn(powers) {
  /** @type {ApprovalKind[]} */
  const kinds = [];
  if (powers.mayAnswer) kinds.push('prompt');
  if (powers.mayOverride) kinds.push('override');
  return kinds;
}

/**
 * Whether the inbox lists (and counts) an approval of `kind`: one the role
 * acts on, or any kind for a role that acts on none (it only looks).
 * @param {ApprovalPowers} powers @param {string} kind
 */
export function inboxShows(powers, kind) {
  const kinds = kindsActedOn(powers);
  return kinds.length === 0 || kinds.some((k) => k === kind);
}

/**
 * What the inbox leaves out for this role, in a sentence; null when it lists
 * every kind.
 * @param {ApprovalPowers} powers
 */
export function leftOutText(powers) {
  if (powers.mayAnswer && !powers.mayOverride)
    return 'Listed: the prompts you may answer. Soft denies, which only an overrider may override, are not listed or counted here.';
  if (powers.mayOverride && !powers.mayAnswer)
    return 'Listed: the soft denies you may override. Prompts, which an approver answers, are not listed or counted here.';
  return null;
}
