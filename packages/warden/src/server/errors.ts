// The API's one error shape (contracts §3): `{ "errors": [{ "path", "message" }] }`
// with a 4xx status that says whose fault it is. Errors are mapped here once;
// nothing else in the server writes an error response, and no stack leaves it.

export interface ApiProblem {
  readonly path: string;
  readonly message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 503,
    readonly problems: readonly ApiProblem[],
  ) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'ApiError';
  }
}

export function badRequest(path: string, message: string): ApiError {
  return new ApiError(400, [{ path, message }]);
}

export function forbidden(message: string): ApiError {
  return new ApiError(403, [{ path: '', message }]);
}

export function notFound(message: string): ApiError {
  return new ApiError(404, [{ path: '', message }]);
}

export function conflict(message: string): ApiError {
  return new ApiError(409, [{ path: '', message }]);
}

export function invalid(problems: readonly ApiProblem[]): ApiError {
  return new ApiError(422, problems);
}
