// Builds packages/warden/dist/hook/hook.cjs, the one file `warden hook
// <runtime>` loads (bin/warden.js): the hook starts a process for every tool
// call, and Node loads one CommonJS file faster than a graph of ES modules.
// What the hook loads only on some paths (the store for standalone, the
// engine, the gateway's mapping) stays a dynamic import of the compiled
// module beside it, so a connected call loads none of it. Run after `tsc -b`.

import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../packages/warden/dist/hook/', import.meta.url));
/** The runtimes' own modules are small and always needed: they go into the file. */
const INSIDE = /^\.\/(claude-code|codex|gemini)\.js$/;

await build({
  entryPoints: [`${dist}main.js`],
  outfile: `${dist}hook.cjs`,
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
        b.onResolve({ filter: /.*/ }, (args) =>
          args.kind === 'dynamic-import' && !INSIDE.test(args.path)
            ? { path: args.path, external: true }
            : undefined,
        );
      },
    },
  ],
});
