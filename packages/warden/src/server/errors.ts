// The API's one error shape (contracts §3, §8): `{ "errors": [{ "path", "message" }] }`
// with a status that says whose fault it is. A route throws an `ApiError` holding
// the engine's issues; the app's error handler is the one place that writes an
// error response, and no stack leaves it.

import type { Issue, IssueCode } from '@warden/engine';
import { GateFault } from '../gate/fault.js';
import { storeUnavailable } from '../store/faults.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly problems: readonly Issue[],
  ) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'ApiError';
  }
}

function one(status: ErrorStatus, code: IssueCode, path: string, message: string): ApiError {
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
export function invalid(problems: readonly Issue[]): ApiError {
  return new ApiError(422, problems);
}

/** Problems found in a part of the input (`document`, `request`): their paths continue the part's. */
export function within(part: string, issues: readonly Issue[]): Issue[] {
  return issues.map((i) => ({ ...i, path: i.path === '' ? part : `${part}.${i.path}` }));
}

/** Problems that carry no code of their own (a template's arguments, a token's fields) as issues. */
export function asIssues(
  code: IssueCode,
  problems: readonly { readonly path: string; readonly message: string }[],
): Issue[] {
  return problems.map((p) => ({ code, path: p.path, message: p.message }));
}

/** The body of an error response: each problem's path and message, in that order, and nothing else. */
export function errorBody(problems: readonly Issue[]): {
  errors: { path: string; message: string }[];
} {
  return { errors: problems.map((p) => ({ path: p.path, message: p.message })) };
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
