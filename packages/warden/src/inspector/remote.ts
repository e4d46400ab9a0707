// The inspector of a Warden server, for `warden inspector --server URL`
// (contracts §4, connected): the supervisor is the token's agent, the server
// answers from its data folder and store, and this side only carries the
// answers. A server that cannot be reached, or answers anything but an
// answer, is a refusal that says so — never an empty result.

import { InspectorSettingsSchema } from '../instance/settings.js';
import type { InspectorSettings } from '../instance/index.js';
import type { InspectorService } from './mcp.js';

export interface RemoteInspector extends InspectorService {
  readonly supervisor: string;
  readonly warnings: readonly string[];
}

type Fetch = typeof fetch;

interface Reply {
  readonly status: number;
  readonly body: unknown;
}

/** Why a request failed, in words. */
function unreachable(url: string, error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED')
    return `cannot reach ${url}: nothing listens there (is \`warden serve\` running?)`;
  if ((error as Error).name === 'TimeoutError')
    return `cannot reach ${url}: it did not answer in time`;
  return `cannot reach ${url}: ${cause?.message ?? (error as Error).message}`;
}

/** The server's own words for a refusal: its `{ errors }`, else the status. */
function refusal(reply: Reply): string {
  const errors = (reply.body as { errors?: { message?: string }[] } | null)?.errors;
  const said = Array.isArray(errors)
    ? errors.map((e) => e.message ?? '').filter((m) => m !== '')
    : [];
  return `${said.length > 0 ? said.join('; ') : 'refused'} (HTTP ${reply.status})`;
}

async function send(
  doFetch: Fetch,
  url: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Reply> {
  const response = await doFetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed };
}

/**
 * Connects to the server's inspector as the token's supervisor: its settings
 * are read once, so the tools are described as the local inspector would.
 * Rejects with a sentence when the server cannot be reached or refuses.
 */
export async function connectInspector(
  url: string,
  token: string,
  doFetch: Fetch = fetch,
): Promise<RemoteInspector> {
  let reply: Reply;
  try {
    reply = await send(doFetch, url, token, 'GET', '/v1/inspector');
  } catch (error) {
    throw new Error(unreachable(url, error));
  }
  if (reply.status !== 200) throw new Error(`the server refused: ${refusal(reply)}`);
  const body = reply.body as { supervisor?: unknown; settings?: unknown; warnings?: unknown };
  const settings = InspectorSettingsSchema.safeParse(body.settings);
  if (typeof body.supervisor !== 'string' || !settings.success)
    throw new Error(`the server at ${url} did not answer as a Warden inspector`);
  const supervisor = body.supervisor;
  const knownSettings: InspectorSettings = settings.data;
  return {
    supervisor,
    settings: knownSettings,
    warnings: Array.isArray(body.warnings)
      ? body.warnings.filter((w): w is string => typeof w === 'string')
      : [],
    async call(action, args) {
      if (!/^[a-z_]{1,32}$/.test(action))
        return { ok: false, error: `no inspector action \`${action.slice(0, 40)}\`` };
      let answer: Reply;
      try {
        answer = await send(
          doFetch,
          url,
          token,
          'POST',
          `/v1/inspector/${action}`,
          args === undefined || args === null ? {} : args,
        );
      } catch (error) {
        return { ok: false, error: unreachable(url, error) };
      }
      const got = answer.body as { ok?: unknown; text?: unknown; error?: unknown } | null;
      if (answer.status === 200 && got?.ok === true && typeof got.text === 'string')
        return { ok: true, text: got.text };
      if (answer.status === 200 && got?.ok === false && typeof got.error === 'string')
        return { ok: false, error: got.error };
      return { ok: false, error: `the server refused: ${refusal(answer)}` };
    },
  };
}
