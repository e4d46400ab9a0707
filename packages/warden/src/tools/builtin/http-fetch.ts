// `http_fetch`: network access gated as `networkEgress` with the host it goes
// to, so a rule on hosts is a control. Redirects are never followed: a 3xx
// comes back with its `Location`, and fetching that is a new call gated by its
// own host — otherwise a redirect would carry the call past the host rule.

import { normalizeHost } from '@warden/engine';
import type { RequestArgs } from '@warden/engine';
import { z } from 'zod';
import { quote } from '../../paths/index.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool, ToolRefusal } from '../registry.js';
import type { BuiltinOptions } from './options.js';
import { settings } from './options.js';
import type { Captured } from './process.js';
import { Capture } from './process.js';
import { builtinDeclaration } from './classes.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const schema = z.strictObject({
  url: z.string().min(1).max(8192).describe('an http or https URL'),
  method: z.enum(METHODS).optional().describe('default: GET'),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
  timeoutMs: z.number().int().positive().optional(),
});
export type HttpFetchArgs = z.infer<typeof schema>;

export interface HttpFetchResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** At most the cap, decoded as UTF-8. */
  readonly body: string;
  readonly truncated: boolean;
  /** A redirect that was not followed: where it points, resolved against the URL. */
  readonly redirect?: { readonly location: string; readonly note: string };
  readonly note?: string;
}

/** The host the request reaches, read as every choke point reads hosts; unknown when it cannot be read. */
function hostsOf(url: URL): RequestArgs {
  const host = normalizeHost(url.href);
  return host === null ? {} : { hosts: [host.host] };
}

/** The URL, if the call is one this tool makes; else a refusal. */
function target(args: HttpFetchArgs): URL {
  const raw = args.url;
  const method = args.method ?? 'GET';
  if (args.body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new ToolRefusal(`a ${method} request has no body`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolRefusal(`url ${quote(raw)} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolRefusal(`url ${quote(raw)} is not http or https: only web requests are made`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolRefusal(`url ${quote(raw)} carries credentials: send them in a header instead`);
  }
  return url;
}

/** Reads at most `cap` bytes of a body, and one chunk more to tell whether it was cut. */
async function readCapped(response: Response, cap: number): Promise<Captured> {
  const capture = new Capture(cap);
  const reader = response.body?.getReader();
  if (reader === undefined) return capture.result();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    capture.add(value);
    if (capture.truncated) {
      await reader.cancel();
      break;
    }
  }
  return capture.result();
}

/** A `Location` resolved against the request's URL; as sent when it is not a URL. */
function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

export function httpFetchTool(
  options: BuiltinOptions = {},
): ToolDefinition<HttpFetchArgs, HttpFetchResult> {
  const s = settings(options);
  return defineTool({
    ...builtinDeclaration('http_fetch'),
    description: `Makes an HTTP request and returns the status, headers and up to ${s.maxBodyBytes} bytes of the body. Redirects are returned, not followed.`,
    schema,
    extract: (args) => ({
      actions: ['networkEgress'],
      // The one host reading every choke point shares (E12); the URL parser has already read it.
      args: hostsOf(target(args)),
    }),
    run: async (args, ctx) => {
      const url = target(args);
      const method = args.method ?? 'GET';
      const timeoutMs = args.timeoutMs ?? s.fetchTimeoutMs;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = ctx.signal === undefined ? timeout : AbortSignal.any([ctx.signal, timeout]);
      let response: Response;
      let read: Captured;
      try {
        response = await fetch(url, {
          method,
          redirect: 'manual',
          signal,
          ...(args.headers === undefined ? {} : { headers: args.headers }),
          ...(args.body === undefined ? {} : { body: args.body }),
        });
        read = await readCapped(response, s.maxBodyBytes);
      } catch (error) {
        if (timeout.aborted)
          throw new Error(`the request to ${quote(url.host)} took longer than ${timeoutMs} ms`);
        throw error;
      }
      const headers = Object.fromEntries(response.headers.entries());
      const location = response.headers.get('location');
      const redirected = response.status >= 300 && response.status < 400 && location !== null;
      return {
        status: response.status,
        headers,
        body: read.text,
        truncated: read.truncated,
        ...(redirected
          ? {
              redirect: {
                location: resolveLocation(location, url),
                note: 'redirects are not followed: fetching the location is a new call, gated by its host',
              },
            }
          : {}),
        ...(read.truncated
          ? { note: `the body was cut at ${s.maxBodyBytes} bytes: it is longer than the cap` }
          : {}),
      };
    },
  });
}
