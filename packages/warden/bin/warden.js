#!/usr/bin/env node
// The `warden` command: runs the compiled CLI.
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
