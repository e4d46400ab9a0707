// What `warden hook <runtime>` loads before it answers: an agent runtime
// starts the hook for every tool call, so its start is paid on every call.
// The static import graph of the compiled entry (what Node loads before the
// first line runs) must stay inside the hook's own modules: no engine, no
// schema library, no store, no logger. Those load only where a call needs
// them (standalone decisions, a gateway configuration's mapping).

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The specifiers a compiled module imports statically (`import … from`, `export … from`, bare `import '…'`). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found: string[] = [];
  const pattern =
    /^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) found.push((match[1] ?? match[2]) as string);
  return found;
}

/** Every module the entry loads before it runs: relative files followed, packages listed. */
function startupGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  }
  return { files: [...files].map((f) => relative(DIST, f)).sort(), packages: [...packages].sort() };
}

describe("the hook's start", () => {
  it('loads only its own modules and Node built-ins: no engine, schema library, store or logger', () => {
    const { files, packages } = startupGraph(join(DIST, 'hook', 'main.js'));
    expect(
      packages.every((p) => p.startsWith('node:')),
      packages.join(', '),
    ).toBe(true);
    const outside = files.filter((f) => !f.startsWith('hook/'));
    // `decider/open.js` only names, by dynamic imports, the deciders a call may need;
    // `data-folder.js` is one constant.
    expect(outside).toEqual([
      'data-folder.js',
      'decider/open.js',
      'honesty/host.js',
      'well-formed.js',
    ]);
  });

  it('sees static imports the way the test reads them (the walk is not vacuous)', () => {
    const { files, packages } = startupGraph(join(DIST, 'warden.js'));
    expect(packages).toContain('@warden/engine');
    expect(files.length).toBeGreaterThan(10);
  });
});

describe('the hook as one file (dist/hook/hook.cjs)', () => {
  const bundle = join(DIST, 'hook', 'hook.cjs');
  const source = readFileSync(bundle, 'utf8');

  it('requires only Node built-ins when it loads', () => {
    const required = [...source.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] as string);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((r) => !r.startsWith('node:'))).toEqual([]);
  });

  it('loads what only some calls need from the bundles in lazy/, which exist', () => {
    const lazy = [...source.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1] as string);
    expect(lazy).toContain('./lazy/decider-local.js');
    expect(lazy).toContain('./lazy/decider-remote.js');
    expect(lazy.filter((l) => !l.startsWith('./lazy/') && !l.startsWith('node:'))).toEqual([]);
    for (const l of lazy.filter((l) => l.startsWith('./lazy/')))
      expect(() => statSync(resolve(DIST, 'hook', l))).not.toThrow();
  });

  it('is built from the compiled modules as they are now, not from older ones', () => {
    const built = Math.min(
      statSync(bundle).mtimeMs,
      statSync(join(DIST, 'hook', 'lazy', 'decider-local.js')).mtimeMs,
    );
    const newer: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (path !== join(DIST, 'hook', 'lazy')) walk(path);
        } else if (entry.name.endsWith('.js') && statSync(path).mtimeMs > built)
          newer.push(relative(DIST, path));
      }
    };
    walk(DIST);
    expect(newer, 'run `npm run build`').toEqual([]);
  });
});
