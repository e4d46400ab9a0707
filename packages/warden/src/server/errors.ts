// The API's one error shape (contracts §3, §8): `{ "errors": [{ "path", "message" }] }`
// with a status that says whose fault it is. A route throws an `ApiError` holding
// the engine's issues; the app's error handler is the one place that writes an
// error response, and no stack leaves it.

import type { Issue, IssueCode } from '@warden/engine';
import { GateFault } from '../gate/fault.js';
import type { RenderedIssue } from '../policy/problems.js';
import { rendered, renderedAll } from '../policy/problems.js';
import { storeUnavailable } from '../store/faults.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500 | 503;

/**
 * The server's words for a problem: the engine's (what is wrong with the
 * input) and its own (who asks, what exists, what answers now).
 */
export type WireCode =
  | IssueCode
  /** The caller did not say who it is, or its credentials are not known. */
  | 'unauthenticated'
  /** Who the caller is does not allow what it asks. */
  | 'forbidden'
  /** What the input names does not exist. */
  | 'not_found'
  /** Something the answer depends on (a store, a log) does not answer now. */
  | 'unavailable'
  /** A fault of Warden's own, not of the input. */
  | 'internal';

/** A problem as the API answers it. */
export interface ApiIssue extends Omit<RenderedIssue, 'code'> {
  readonly code: WireCode;
}

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly problems: readonly ApiIssue[],
  ) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'ApiError';
  }
}

function one(status: ErrorStatus, code: WireCode, path: string, message: string): ApiError {
  return new ApiError(status, [{ code, path, message }]);
}

export function badRequest(path: string, message: string): ApiError {
  return one(400, 'invalid_value', path, message);
}

export function unauthorized(path: string, message: string): ApiError {
  return one(401, 'unauthenticated', path, message);
}

export function forbidden(message: string): ApiError {
  return one(403, 'forbidden', '', message);
}

export function notFound(message: string): ApiError {
  return one(404, 'not_found', '', message);
}

export function conflict(message: string): ApiError {
  return one(409, 'conflict', '', message);
}

export function tooLarge(path: string, message: string): ApiError {
  return one(413, 'too_big', path, message);
}

export function unavailable(message: string): ApiError {
  return one(503, 'unavailable', '', message);
}

export function internal(message: string): ApiError {
  return one(500, 'internal', '', message);
}

/** 422: what was sent is well formed but not valid; every problem is listed. */
export function invalid(problems: readonly (Issue | RenderedIssue)[]): ApiError {
  return new ApiError(
    422,
    problems.map((p) => (typeof p.path === 'string' ? (p as RenderedIssue) : rendered(p as Issue))),
  );
}

/** Problems found in a part of the input (`document`, `request`): their paths continue the part's. */
export function within(part: string, issues: readonly Issue[]): RenderedIssue[] {
  return renderedAll(issues, part);
}

/** Problems that carry no code of their own (a template's arguments, a token's fields) as issues. */
export function asIssues(
  code: IssueCode,
  problems: readonly { readonly path: string; readonly message: string }[],
): RenderedIssue[] {
  return problems.map((p) => ({ code, path: p.path, message: p.message }));
}

/**
 * Fields by the words a person reads them as: a revision's `message` is the note
 * typed beside a change. Any other field is named by its path.
 */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  message: 'note',
  note: 'note',
  reason: 'reason',
  title: 'title',
  name: 'name',
  hours: 'number of hours',
  limit: 'limit',
};

/** The field a path ends in, as a sentence names it: `the note`, `the field \`spaces.x\``. */
function fieldOf(path: string): string {
  const last = /([A-Za-z_$][\w$]*)(?:\[\d+\])*$/.exec(path)?.[1];
  const word = last === undefined ? undefined : FIELD_WORDS[last];
  if (word !== undefined) return `the ${word}`;
  return path === '' ? 'the value' : `the field \`${path}\``;
}

/** Zod's name of a type, as a person says it. */
function typeWords(type: string): string {
  const words: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
    null: 'null',
  };
  return words[type] ?? `a ${type}`;
}

/** `The note is too long…` from `the note is too long…`. */
function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * A problem's message as a person reads it. Zod's own wording of a failed
 * check (`too big: expected string to have <=500 characters`), which the API's
 * schemas pass through, becomes a sentence naming the field and the limit
 * (`The note is too long: at most 500 characters.`); every message Warden
 * wrote itself is kept as it is.
 */
export function humaneMessage(problem: Pick<RenderedIssue, 'path' | 'message'>): string {
  const { path, message } = problem;
  const field = fieldOf(path);
  let m: RegExpExecArray | null;
  if ((m = /^too big: expected string to have <=(\d+) characters?$/i.exec(message)))
    return sentence(`${field} is too long: at most ${m[1]} characters.`);
  if ((m = /^too small: expected string to have >=(\d+) characters?$/i.exec(message)))
    return m[1] === '1'
      ? sentence(`${field} is empty: write at least one character.`)
      : sentence(`${field} is too short: at least ${m[1]} characters.`);
  if ((m = /^too big: expected array to have <=(\d+) items?$/i.exec(message)))
    return sentence(`${field} holds too many entries: at most ${m[1]}.`);
  if ((m = /^too small: expected array to have >=(\d+) items?$/i.exec(message)))
    return sentence(`${field} holds too few entries: at least ${m[1]}.`);
  if ((m = /^too big: expected (?:number|int|bigint) to be (<=?)(\S+)$/i.exec(message)))
    return sentence(`${field} is too large: ${m[1] === '<' ? 'less than' : 'at most'} ${m[2]}.`);
  if ((m = /^too small: expected (?:number|int|bigint) to be (>=?)(\S+)$/i.exec(message)))
    return sentence(`${field} is too small: ${m[1] === '>' ? 'more than' : 'at least'} ${m[2]}.`);
  if ((m = /^invalid input: expected (\w+), received (\w+)$/i.exec(message)))
    return m[2] === 'undefined'
      ? sentence(`${field} is missing.`)
      : sentence(
          `${field} must be ${typeWords(m[1] as string)}, not ${typeWords(m[2] as string)}.`,
        );
  if ((m = /^invalid option: expected one of (.+)$/i.exec(message))) {
    const options = (m[1] as string).split('|').map((o) => `\`${o.replace(/^"|"$/g, '')}\``);
    return sentence(`${field} must be one of ${options.join(', ')}.`);
  }
  if ((m = /^unrecognized keys?: (.+)$/i.exec(message)))
    return sentence(
      `${path === '' ? 'the body' : field} has a field it does not take: ${(m[1] as string).replaceAll('"', '`')}.`,
    );
  if (/^invalid string: must match pattern /i.test(message))
    return sentence(`${field} is not in the form it takes.`);
  return message;
}

/** The body of an error response: each problem's path and message, in that order, and nothing else. */
export function errorBody(problems: readonly ApiIssue[]): {
  errors: { path: string; message: string }[];
} {
  return { errors: problems.map((p) => ({ path: p.path, message: humaneMessage(p) })) };
}

/**
 * A fault of the store or the audit log (503), or of reading the policy for a
 * route other than decide, which never throws: as the API answers it. Null for
 * anything else, which is a bug.
 */
export function faultError(error: unknown): ApiError | null {
  if (error instanceof GateFault) {
    const status =
      error.code === 'policy-missing'
        ? 404
        : error.code === 'store' || error.code === 'audit'
          ? 503
          : 409;
    const code = status === 404 ? 'not_found' : status === 503 ? 'unavailable' : 'conflict';
    return one(status, code, '', error.message);
  }
  if (storeUnavailable(error))
    return unavailable(`the store is not available: ${(error as Error).message}`);
  return null;
}
