#!/usr/bin/env node
// The `warden` command: runs the compiled CLI. `warden hook <runtime>` takes
// a shorter way in (it runs for every tool call), and if even that cannot
// load, it denies: agent runtimes let a call through when a hook crashes.
const args = process.argv.slice(2);
const RUNTIMES = ['claude-code', 'codex', 'gemini', 'gemini-cli'];
const hook =
  args[0] === 'hook' &&
  RUNTIMES.includes(args[1]) &&
  !args.includes('--help') &&
  !args.includes('-h');

if (hook) {
  import('../dist/hook/main.js').then(
    (entry) => entry.mainHook(args[1], args.slice(2)),
    (error) => {
      process.stderr.write(
        `Warden: cannot start the hook (${error instanceof Error ? error.message : String(error)}): denied, fail-closed\n`,
      );
      process.exit(2);
    },
  );
} else {
  import('../dist/cli/main.js').then(
    (cli) => cli.main(process.argv),
    (error) => {
      process.stderr.write(
        `warden: cannot start: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.stderr.write('warden: run `npm run build` in the Warden checkout first\n');
      process.exit(1);
    },
  );
}
