// The what-if check's state apart from its drawing, so that what the check
// does can be tested in Node without a browser: the form as its inputs last
// set it, what the policy offers to pick (agents, spaces, modes, classes),
// the request it makes or what is missing in it, the check on its way, and
// the engine's answer or why there is none. Pure: no DOM, no `fetch`, no
// `window`; the what-if tab (`whatif.js`) feeds it the page's reads, the
// person's input and the API's answers, sends the check it holds, and draws
// what it returns.

import { lines } from './text.js';

/**
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').DecisionResult} DecisionResult
 */

/**
 * A request as the what-if form builds it (`POST /v1/what-if`'s `request`).
 * @typedef {{ workspace: string, agent: string, space?: string, mode?: string, tool?: string, actions?: string[], command?: string, worktree?: string, args?: Record<string, string[] | number> }} WhatIfRequest
 */

/**
 * What `POST /v1/what-if` is sent: the request, and the approver to assume.
 * @typedef {{ request: WhatIfRequest, approver?: string }} WhatIfBody
 */

/**
 * The form's fields that hold an input's text (or a select's value).
 * @typedef {'agent' | 'space' | 'mode' | 'tool' | 'command' | 'paths' | 'refs' | 'hosts' | 'count' | 'cents' | 'worktree' | 'approver'} WhatIfKey
 */

/**
 * The form as its inputs last set it, and the classes ticked.
 * @typedef {Readonly<Record<WhatIfKey, string>> & { readonly ticked: readonly string[] }} WhatIfForm
 */

/**
 * What the policy read offers to pick: agents, spaces, modes, and the action
 * classes with what each covers.
 * @typedef {{
 *   readonly agents: readonly string[],
 *   readonly spaces: readonly string[],
 *   readonly modes: readonly string[],
 *   readonly classes: readonly (readonly [string, string])[],
 * }} Offered
 */

/**
 * @typedef {{
 *   readonly workspace: string,
 *   readonly form: WhatIfForm,
 *   readonly offered: Offered | null,
 *   readonly asked: number,
 *   readonly checking: { readonly asked: number, readonly body: WhatIfBody } | null,
 *   readonly request: WhatIfRequest | null,
 *   readonly answer: DecisionResult | null,
 *   readonly failed: { readonly what: string, readonly message: string } | null,
 * }} WhatIfState
 */

/**
 * What reaches the check: an input changed, a class ticked or not, the page
 * read the policy, a check asked for, the API's answer to it.
 * @typedef {(
 *   | { type: 'text', key: WhatIfKey, value: string }
 *   | { type: 'tick', cls: string, on: boolean }
 *   | { type: 'read', data: PermissionsMatrix | null }
 *   | { type: 'check' }
 *   | { type: 'answered', asked: number, answer: DecisionResult }
 *   | { type: 'check-failed', asked: number, message: string }
 * )} WhatIfEvent
 */

/** The approver the check assumes: value and label. @type {readonly [string, string][]} */
export const APPROVERS = [
  ['', 'as now: whether an approver is connected'],
  ['connected', 'an approver is connected'],
  ['none', 'no approver is connected'],
];

/**
 * The check of `workspace` with an empty form, before the policy is read
 * (or on the read given).
 * @param {string} workspace @param {PermissionsMatrix | null} [data]
 * @returns {WhatIfState}
 */
export function whatIfState(workspace, data = null) {
  /** @type {WhatIfState} */
  const state = {
    workspace,
    form: {
      agent: '',
      space: '',
      mode: '',
      tool: '',
      ticked: [],
      command: '',
      paths: '',
      refs: '',
      hosts: '',
      count: '',
      cents: '',
      worktree: '',
      approver: '',
    },
    offered: null,
    asked: 0,
    checking: null,
    request: null,
    answer: null,
    failed: null,
  };
  return reduce(state, { type: 'read', data });
}

/**
 * What a policy read offers to pick; the classes only the first time a read
 * names any (they do not change under the form).
 * @param {PermissionsMatrix} data @param {Offered | null} before @returns {Offered}
 */
export function offeredBy(data, before) {
  /** @param {string} kind */
  const ids = (kind) =>
    data.columns.flatMap((c) => (c.kind === kind && c.id !== null ? [c.id] : []));
  return {
    agents: ids('agent'),
    spaces: ids('space'),
    modes: [...data.modes],
    classes:
      before !== null && before.classes.length > 0
        ? before.classes
        : data.classes.map((c) => /** @type {const} */ ([c.class, c.covers])),
  };
}

/**
 * The request the form describes, or what is missing or wrong in it.
 * @param {WhatIfForm} form @param {string} workspace @param {readonly string[]} classes the classes offered, in their order
 * @returns {{ ok: true, request: WhatIfRequest } | { ok: false, message: string }}
 */
export function requestOf(form, workspace, classes) {
  /** @type {WhatIfRequest} */
  const r = { workspace, agent: form.agent.trim() };
  if (r.agent === '') return { ok: false, message: 'agent: say which agent asks' };
  if (form.space !== '') r.space = form.space;
  if (form.mode !== '') r.mode = form.mode;
  if (form.tool.trim() !== '') r.tool = form.tool.trim();
  const actions = classes.filter((c) => form.ticked.includes(c));
  if (actions.length > 0) r.actions = actions;
  if (form.command.trim() !== '') r.command = form.command;
  if (r.actions === undefined && r.command === undefined)
    return { ok: false, message: 'pick at least one action class, or give a command line' };
  if (form.worktree.trim() !== '') r.worktree = form.worktree.trim();
  /** @type {Record<string, string[] | number>} */
  const args = {};
  for (const key of /** @type {const} */ (['paths', 'refs', 'hosts'])) {
    const values = lines(form[key]);
    if (values.length > 0) args[key] = values;
  }
  for (const key of /** @type {const} */ (['count', 'cents'])) {
    if (form[key].trim() === '') continue;
    const n = Number(form[key]);
    if (!Number.isInteger(n) || n < 0)
      return { ok: false, message: `${key}: a whole number, 0 or more` };
    args[key] = n;
  }
  if (Object.keys(args).length > 0) r.args = args;
  return { ok: true, request: r };
}

/** The request as the JSON the page shows (for `warden explain --request`). @param {WhatIfState} state */
export function requestJson(state) {
  return state.request === null ? '' : JSON.stringify(state.request, null, 2);
}

/** What the error box says, or null when nothing failed. @param {WhatIfState} state */
export function failureText(state) {
  return state.failed === null ? null : `${state.failed.what}: ${state.failed.message}`;
}

/** Whether the outcome is a deny because a prompt found no approver. @param {DecisionResult} result */
export function promptDenied(result) {
  return result.outcome === 'deny' && result.decision === 'prompt';
}

/**
 * The form after a policy read: the first agent proposed while none is
 * given, a space or mode the policy no longer names dropped.
 * @param {WhatIfState} state @param {PermissionsMatrix} data @returns {WhatIfState}
 */
function read(state, data) {
  const offered = offeredBy(data, state.offered);
  const { form } = state;
  return {
    ...state,
    offered,
    form: {
      ...form,
      agent: form.agent === '' && offered.agents[0] !== undefined ? offered.agents[0] : form.agent,
      space: offered.spaces.includes(form.space) ? form.space : '',
      mode: offered.modes.includes(form.mode) ? form.mode : '',
    },
  };
}

/**
 * A check asked for: the request made, or what is missing in it.
 * @param {WhatIfState} state @returns {WhatIfState}
 */
function check(state) {
  const classes = (state.offered?.classes ?? []).map(([c]) => c);
  const built = requestOf(state.form, state.workspace, classes);
  if (!built.ok) return { ...state, failed: { what: 'Cannot check', message: built.message } };
  /** @type {WhatIfBody} */
  const body = { request: built.request };
  if (state.form.approver !== '') body.approver = state.form.approver;
  const asked = state.asked + 1;
  return { ...state, asked, failed: null, request: built.request, checking: { asked, body } };
}

/**
 * The check after `event`.
 * @param {WhatIfState} state @param {WhatIfEvent} event @returns {WhatIfState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'text':
      return { ...state, form: { ...state.form, [event.key]: event.value } };
    case 'tick': {
      const others = state.form.ticked.filter((c) => c !== event.cls);
      return {
        ...state,
        form: { ...state.form, ticked: event.on ? [...others, event.cls] : others },
      };
    }
    case 'read':
      return event.data === null ? state : read(state, event.data);
    case 'check':
      return check(state);
    case 'answered':
      // Only the answer to the last check asked: an earlier one is out of date.
      if (state.checking === null || state.checking.asked !== event.asked) return state;
      return { ...state, checking: null, answer: event.answer };
    case 'check-failed':
      if (state.checking === null || state.checking.asked !== event.asked) return state;
      return {
        ...state,
        checking: null,
        answer: null,
        failed: { what: 'The what-if check failed', message: event.message },
      };
    default:
      return state;
  }
}
