// Builds what `warden hook <runtime>` loads (bin/warden.js), after `tsc -b`:
//
// - packages/warden/dist/hook/hook.cjs: the hook's own modules in one
//   CommonJS file. An agent runtime starts the hook for every tool call, and
//   Node loads one CommonJS file faster than a graph of ES modules. A
//   connected call needs nothing else.
// - packages/warden/dist/hook/lazy/: what only some calls need — the store,
//   the engine and the policy loader for a standalone call, the gateway's
//   mapping, the sandbox's grants — bundled with their packages (Kysely alone
//   is some 260 modules) into ES modules that share chunks. The hook's
//   dynamic imports of those modules load these instead. The native
//   `better-sqlite3` and `pg` stay packages.
//
// Code that finds files beside itself (`import.meta.url`) is given the URL
// of its compiled module, so it finds what it found there.

import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../packages/warden/dist/', import.meta.url));
const hookDir = `${dist}hook/`;
const lazyDir = `${hookDir}lazy/`;
/** The runtimes' own modules are small and always needed: they go into the one file. */
const INSIDE = /^\.\/(claude-code|codex|gemini)\.js$/;

/** The lazy module's name for a compiled file: `gateway/extract.js` → `gateway-extract`. */
function lazyName(file) {
  const engine = fileURLToPath(new URL('../packages/engine/dist/index.js', import.meta.url));
  if (file === engine) return 'engine';
  const rel = relative(dist, file);
  if (rel.startsWith('..')) throw new Error(`the hook imports ${file}, outside the package`);
  return rel
    .replace(/\/index\.js$/, '')
    .replace(/\.js$/, '')
    .replaceAll('/', '-');
}

/** Gives bundled code the URL of the compiled module it came from. */
function originalUrls(outDir) {
  return {
    name: 'original-urls',
    setup(b) {
      b.onLoad({ filter: /[/\\]packages[/\\](warden|engine)[/\\]dist[/\\].*\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        if (text.includes('import.meta.dirname'))
          throw new Error(`${args.path} reads import.meta.dirname, which the hook cannot bundle`);
        const rel = JSON.stringify(relative(outDir, args.path));
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${rel}, import.meta.url).href`),
          loader: 'js',
        };
      });
    },
  };
}

const lazy = new Map();

await build({
  entryPoints: [`${hookDir}main.js`],
  outfile: `${hookDir}hook.cjs`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  // The file sits beside main.js, so URLs made from it resolve as they did there.
  define: { 'import.meta.url': '__hookModuleUrl' },
  banner: { js: 'const __hookModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [
    {
      name: 'lazy-stays-lazy',
      setup(b) {
        b.onResolve({ filter: /.*/ }, async (args) => {
          if (args.kind !== 'dynamic-import' || INSIDE.test(args.path)) return undefined;
          if (args.path.startsWith('node:')) return { path: args.path, external: true };
          const found = await b.resolve(args.path, {
            kind: 'import-statement',
            resolveDir: args.resolveDir,
          });
          if (found.errors.length > 0) return { errors: found.errors };
          // A package (the engine): its compiled entry, as Node resolves it from here.
          const file = found.external ? fileURLToPath(import.meta.resolve(args.path)) : found.path;
          const name = lazyName(file);
          lazy.set(name, file);
          return { path: `./lazy/${name}.js`, external: true };
        });
      },
    },
  ],
});

// Chunks are named by their content: an earlier build's would stay behind.
rmSync(lazyDir, { recursive: true, force: true });
await build({
  entryPoints: Object.fromEntries(lazy),
  outdir: lazyDir,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', 'pg', 'pg-native'],
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // Packages written as CommonJS (pino, …) still call `require`.
  banner: {
    js: 'import { createRequire as __lazyRequire } from "node:module"; const require = __lazyRequire(import.meta.url);',
  },
  plugins: [originalUrls(lazyDir)],
});
