// `warden audit verify|export|import`: the audit log's integrity and movement;
// the store loads when a subcommand runs.

import { DATA_FLAG } from '../flags.js';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Cli, OptionsOf } from '../registration.js';

function verify(audit: CommandUnknownOpts) {
  return audit
    .command('verify')
    .description(
      'recompute the hash chain and name the first changed, removed or reordered entry (exit 1 when broken)',
    )
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--file <file>', 'verify an exported JSONL file instead')
    .option(
      '--head <hash>',
      'a head noted earlier (export prints it): a file must end there, the log must still hold it',
    )
    .option('--json', 'print JSON');
}

function exportLog(audit: CommandUnknownOpts) {
  return audit
    .command('export')
    .description('write the whole audit log as JSON Lines or as OTLP/JSON traces')
    .option('--format <format>', '`jsonl` or `otlp`', 'jsonl')
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--out <file>', 'write to this file instead of standard output');
}

function importLog(audit: CommandUnknownOpts) {
  return audit
    .command('import')
    .description(
      'append the entries of an exported JSONL file (its chain must verify; entries already present are skipped)',
    )
    .argument('<file>', 'the JSONL file')
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--json', 'print JSON');
}

export type VerifyOptions = OptionsOf<typeof verify>;
export type ExportOptions = OptionsOf<typeof exportLog>;
export type ImportOptions = OptionsOf<typeof importLog>;

export function registerAudit(program: CommandUnknownOpts, cli: Cli): void {
  const load = () => import('../audit-command.js');
  const audit = program.command('audit').description('the audit log: integrity and movement');
  verify(audit).action(async (options) =>
    cli.exit(await (await load()).runVerify(cli.io, options)),
  );
  exportLog(audit).action(async (options) =>
    cli.exit(await (await load()).runExport(cli.io, options, cli.version)),
  );
  importLog(audit).action(async (file, options) =>
    cli.exit(await (await load()).runImport(cli.io, file, options)),
  );
}
