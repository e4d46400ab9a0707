// The web console's files (`packages/warden/web/`): plain ES modules and one
// stylesheet, served as they are — nothing is built at run time. They are
// read once at start into a fixed table, so no request path ever reaches the
// file system. Every page of the console is the same `index.html`; the
// browser-side router shows the page, and everything it shows comes from the
// `/v1` API with the signed-in token, so the API's roles decide what each
// person may see and do.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Hono } from 'hono';
import type { Env } from './api.js';
import { notFound } from './errors.js';

/** Where the console's files are: `web/` beside `dist/` and `src/`. */
export const WEB_ROOT = join(import.meta.dirname, '..', '..', 'web');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Scripts and styles only from this server, nothing inline, no frames, no
 * other origins: text from agents is only ever put into the page as text,
 * and this is the second wall should that ever fail.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export interface WebFile {
  readonly type: string;
  readonly body: Buffer;
}

/** `web/` read into memory: `/ui/<relative path>` → the file. */
export function readWebFiles(root: string): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path, `${prefix}${name}/`);
      else if (stat.isFile() && TYPES[extname(name)] !== undefined)
        files.set(`${prefix}${name}`, {
          type: TYPES[extname(name)] as string,
          body: readFileSync(path),
        });
    }
  };
  walk(root, '');
  return files;
}

/**
 * The console's pages: every one is `index.html`, routed in the browser
 * (app.js's routes, one for one), with the page module it shows. Any other
 * page a browser asks for is the console's not-found page, answered 404.
 */
export const CONSOLE_ROUTES = [
  { path: '/', page: 'home' },
  { path: '/sign-in', page: 'sign-in' },
  { path: '/approvals', page: 'approvals' },
  { path: '/agents', page: 'agents' },
  { path: '/agents/:agent', page: 'agent' },
  { path: '/workspaces/:workspace/settings/workspace/permissions', page: 'permissions' },
  { path: '/workspaces/:workspace/tools', page: 'tools' },
] as const;

export const CONSOLE_PAGES: readonly string[] = CONSOLE_ROUTES.map((r) => r.path);

/** A module's static imports (`import … from './x.js'`, `export … from`), as paths of `web/`. */
function importsOf(path: string, body: string): string[] {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const out: string[] = [];
  for (const match of body.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gms)) {
    const parts = `${dir}${match[1] as string}`.split('/');
    const resolved: string[] = [];
    for (const part of parts) {
      if (part === '.' || part === '') continue;
      if (part === '..') resolved.pop();
      else resolved.push(part);
    }
    out.push(resolved.join('/'));
  }
  return out;
}

/**
 * Every module a page's module loads before it can draw, in `web/`: named in
 * its page's HTML as `modulepreload`, the browser fetches them at once
 * instead of discovering them one level of imports at a time.
 */
export function moduleClosure(files: ReadonlyMap<string, WebFile>, entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    const file = files.get(path);
    if (file === undefined) continue;
    seen.add(path);
    queue.push(...importsOf(path, file.body.toString('utf8')));
  }
  return [...seen].sort();
}

/**
 * `index.html` with the modules of `page` to preload before its first
 * script, and every page's modules as data (`#page-modules`, JSON, never
 * run) for the browser's router to preload when it changes the page.
 */
function pageHtml(
  index: WebFile,
  files: ReadonlyMap<string, WebFile>,
  page: string,
  modules: string,
): WebFile {
  const links = moduleClosure(files, `pages/${page}.js`)
    .map((path) => `    <link rel="modulepreload" href="/ui/${path}" />\n`)
    .join('');
  const data = `    <script type="application/json" id="page-modules">${modules}</script>\n`;
  const html = index.body.toString('utf8');
  const at = html.indexOf('    <script type="module"');
  return at < 0
    ? index
    : {
        type: index.type,
        body: Buffer.from(`${html.slice(0, at)}${links}${data}${html.slice(at)}`),
      };
}

/** Every path the console answers (its files and its pages): none of them is part of the API. */
export const CONSOLE_PATHS: readonly string[] = ['/ui/*', ...CONSOLE_PAGES];

/** Whether a request is a browser asking for a page (not the API, not a file of the console). */
export function asksForPage(method: string, path: string, accept: string | undefined): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    path !== '/v1' &&
    !path.startsWith('/v1/') &&
    !path.startsWith('/ui/') &&
    (accept ?? '').includes('text/html')
  );
}

/**
 * Mounts the console on `app`: `/ui/*` for its files and its pages. Answers
 * what a page nobody routes gets (the console, 404: its router says not
 * found); null when `web/` is missing.
 */
export function mountWeb(app: Hono<Env>, root: string = WEB_ROOT): (() => Response) | null {
  let files: Map<string, WebFile>;
  try {
    files = readWebFiles(root);
  } catch {
    return null;
  }
  const index = files.get('index.html');
  if (index === undefined) return null;
  const send = (file: WebFile, cache: string, status = 200) =>
    new Response(new Uint8Array(file.body), {
      status,
      headers: { 'content-type': file.type, 'cache-control': cache, ...SECURITY_HEADERS },
    });
  app.get('/ui/*', (c) => {
    const file = files.get(c.req.path.slice('/ui/'.length));
    if (file === undefined) throw notFound(`no file \`${c.req.path}\``);
    return send(file, 'no-cache');
  });
  // Module paths hold no `<`: the JSON cannot end its element early.
  const modules = JSON.stringify(
    Object.fromEntries(
      CONSOLE_ROUTES.map((r) => [r.page, moduleClosure(files, `pages/${r.page}.js`)]),
    ),
  ).replaceAll('<', '\\u003c');
  for (const route of CONSOLE_ROUTES) {
    const html = pageHtml(index, files, route.page, modules);
    app.get(route.path, () => send(html, 'no-cache'));
  }
  return () => send(index, 'no-cache', 404);
}
