#!/usr/bin/env node
// The `warden` command: runs the compiled CLI. `warden hook <runtime>` takes
// a shorter way in (it runs for every tool call): this file is CommonJS
// (bin/package.json) and loads the hook as one CommonJS file,
// dist/hook/hook.cjs (`npm run build` writes it), which Node starts faster
// than ES modules. If even that cannot load, it denies: agent runtimes let a
// call through when a hook crashes.
const args = process.argv.slice(2);
const RUNTIMES = ['claude-code', 'codex', 'gemini', 'gemini-cli'];
const hook =
  args[0] === 'hook' &&
  RUNTIMES.includes(args[1]) &&
  !args.includes('--help') &&
  !args.includes('-h');

function cannotStartHook(error) {
  process.stderr.write(
    `Warden: cannot start the hook (${error instanceof Error ? error.message : String(error)}): denied, fail-closed\n`,
  );
  process.exit(2);
}

if (hook) {
  let entry;
  try {
    entry = require('../dist/hook/hook.cjs');
  } catch (error) {
    cannotStartHook(
      error && error.code === 'MODULE_NOT_FOUND'
        ? new Error('dist/hook/hook.cjs is missing: run `npm run build` in the Warden checkout')
        : error,
    );
  }
  entry.mainHook(args[1], args.slice(2)).catch(cannotStartHook);
} else {
  import('../dist/cli/main.js').then(
    (cli) => cli.main(process.argv),
    (error) => {
      process.stderr.write(
        `warden: cannot start: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      // In a checkout the build may be missing; an installed package is broken otherwise.
      const checkout = require('node:fs').existsSync(
        require('node:path').join(__dirname, '..', 'src'),
      );
      process.stderr.write(
        checkout
          ? 'warden: run `npm run build` in the Warden checkout first\n'
          : 'warden: this installation is incomplete: install it again\n',
      );
      process.exit(1);
    },
  );
}
