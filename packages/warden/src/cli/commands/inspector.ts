// `warden inspector`: the AgentInspector's flags and help; it loads when it runs.

import { DATA_FLAG } from '../flags.js';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Cli, OptionsOf } from '../registration.js';

function inspector(program: CommandUnknownOpts) {
  return program
    .command('inspector')
    .description(
      "the AgentInspector: a supervisor's read-only MCP server on stdio (audit, receipts, tasks, allowlisted files)",
    )
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option(
      '--as <agentId>',
      'the supervisor it answers for (its settings: `tools.agentInspector`)',
    )
    .option(
      '--server <url>',
      "connected: the server's inspector (default WARDEN_URL when `--data` is not given)",
    )
    .option(
      '--token <token>',
      "with --server: the supervisor's agent token (default WARDEN_TOKEN)",
    );
}

export type InspectorCommandOptions = OptionsOf<typeof inspector>;

export function registerInspector(program: CommandUnknownOpts, cli: Cli): void {
  inspector(program).action(async (options) =>
    cli.exit(
      await (await import('../inspector-command.js')).runInspector(cli.io, options, cli.version),
    ),
  );
}
