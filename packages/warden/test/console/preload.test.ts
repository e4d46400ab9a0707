// The console's pages name the modules they load as `modulepreload`, so the
// browser fetches a page's modules at once instead of one level of imports at
// a time; every page's list is in the page as data for the router. Each
// module named exists, and each one a page imports is named.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES, WEB_ROOT, moduleClosure, readWebFiles } from '../../src/server/web.js';
import { openTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let h: TestServer;
afterEach(async () => {
  await h.cleanup();
});

const html = async (path: string) => {
  const answer = await h.app.request(path, { headers: { accept: 'text/html' } });
  return { status: answer.status, text: await answer.text() };
};

describe('the console preloads each page’s modules', () => {
  it('a page lists its modules, all of them, and every page’s list is in it as data', async () => {
    h = await openTestServer({ version: 1, workspace: 'acme', rules: [] });
    const files = readWebFiles(WEB_ROOT);
    const page = await html('/workspaces/acme/settings/workspace/permissions');
    expect(page.status).toBe(200);
    const preloaded = [
      ...page.text.matchAll(/<link rel="modulepreload" href="\/ui\/([^"]+)" \/>/g),
    ].map((m) => m[1]);
    expect(preloaded).toContain('pages/permissions.js');
    expect(preloaded).toContain('pages/permissions/matrix.js');
    expect(preloaded).toContain('lib/dom.js');
    // Everything the page's modules import, nothing that is not there.
    const source = readFileSync(join(WEB_ROOT, 'pages', 'permissions', 'page.js'), 'utf8');
    for (const m of source.matchAll(/from '\.\/([a-z-]+\.js)'/g))
      expect(preloaded).toContain(`pages/permissions/${m[1]}`);
    for (const path of preloaded) expect(files.has(path as string), path).toBe(true);

    const data = /<script type="application\/json" id="page-modules">([^<]*)<\/script>/.exec(
      page.text,
    );
    const modules = JSON.parse(data?.[1] ?? '{}') as Record<string, string[]>;
    expect(Object.keys(modules).sort()).toEqual(CONSOLE_ROUTES.map((r) => r.page).sort());
    for (const route of CONSOLE_ROUTES)
      expect(modules[route.page]).toEqual(moduleClosure(files, `pages/${route.page}.js`));
    expect(modules['approvals']).toContain('pages/approvals/card.js');
  });

  it('the not-found page is the console too, answered 404', async () => {
    h = await openTestServer({ version: 1, workspace: 'acme', rules: [] });
    const missing = await html('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<script type="module" src="/ui/app.js"></script>');
    const api = await h.app.request('/v1/nothing', { headers: { accept: 'text/html' } });
    expect(api.headers.get('content-type')).toContain('application/json');
  });
});
