// The console's only way to the server: the `/v1` API with the signed-in
// token, exactly as any other client. The server's roles decide what each
// call may do; the console only hides what the role cannot use.

const KEY = 'warden.token';

/** The token of this browser tab (kept for the tab only). */
export function token() {
  return window.sessionStorage.getItem(KEY);
}

/** @param {string} value */
export function signIn(value) {
  window.sessionStorage.setItem(KEY, value);
}

export function signOut() {
  window.sessionStorage.removeItem(KEY);
}

/**
 * One problem as a person reads it: a message the server wrote as a whole
 * sentence (`The note is too long: at most 500 characters.`) already names
 * its field and stands alone; a shorter one is said after its field's path.
 * @param {{ path?: string, message?: string }} p
 */
export function problemText(p) {
  const message = p.message ?? '';
  return p.path && !/^[A-Z]/.test(message) ? `${p.path}: ${message}` : message;
}

/** A refusal or failure of the API, with the server's own words. */
export class ApiError extends Error {
  /** @param {number} status @param {{ path?: string, message?: string }[]} problems */
  constructor(status, problems) {
    super(problems.map(problemText).join('; ') || `the server answered HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problems = problems;
  }
}

/**
 * Why a token typed to sign in was not taken, in words for the person who
 * typed it: the server's words (`give a token: …`, `the token is not known or
 * was revoked`) are for API clients, not for someone pasting a token.
 * @param {unknown} error what signing in with it threw
 */
export function tokenProblem(error) {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 0)
    return 'The server cannot be reached: check the connection and try again.';
  if (error.status !== 401) return error.message;
  const expired = /expired at (\d{4}-\d\d-\d\dT[\d:.]+Z?)/.exec(error.message);
  if (expired !== null) {
    const at = new Date(expired[1] ?? '');
    const when = Number.isNaN(at.getTime()) ? expired[1] : at.toLocaleString();
    return `That token expired at ${when}: ask an admin for a new one.`;
  }
  return 'That token is not valid: check it, or ask an admin for a new one.';
}

/**
 * Calls the API: `api('GET', '/v1/me')`, `api('POST', '/v1/what-if', body)`.
 * Resolves with the JSON body of a 2xx answer; rejects with an `ApiError`.
 * A 401 signs the tab out and asks to sign in again, over the page as it is.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${token() ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, [{ message: 'the server cannot be reached' }]);
  }
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  const error = response.ok ? null : new ApiError(response.status, parsed?.errors ?? []);
  // The token stopped working (revoked, expired): the page stays as it is, with
  // whatever was being edited, and asks to sign in again.
  if (response.status === 401 && path !== '/v1/me') {
    signOut();
    window.dispatchEvent(
      new CustomEvent('warden:signed-out', { detail: { reason: error?.message ?? '' } }),
    );
  }
  if (error !== null) throw error;
  return parsed;
}

/** `?a=1&b=2` from the defined entries. @param {Record<string, unknown>} params */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const item of v) q.append(k, String(item));
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}
