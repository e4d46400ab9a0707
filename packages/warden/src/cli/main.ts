// The `warden` command line (contracts §4): verbs, options, exit codes.

import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import type { AuditOptions } from './audit-command.js';
import { runClassifier } from './classifier-command.js';
import { runCheck, runExplain } from './decision-command.js';
import type { DecisionOptions } from './decision-command.js';
import type { Io } from './io.js';
import { EXIT, Exit, processIo, usage } from './io.js';
import { runDescribe, runEnumerate, runLint } from './policy-command.js';

/** The version of the installed package, read from its manifest (one place to change it). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;

/** Commands that open a store load it only when they run: other commands start without it. */
const auditCommands = () => import('./audit-command.js');

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function decisionOptions(command: Command): Command {
  return command
    .requiredOption('--policy <file>', 'the workspace policy (YAML or JSON)')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--request <file>', 'the request (JSON or YAML); `-` reads standard input')
    .option('--agent <id>', 'describe the request with flags instead: the agent')
    .option('--space <id>', 'the space (with --agent)')
    .option('--mode <name>', 'the mode (with --agent)')
    .option('--action <class>', 'an action class, repeatable (with --agent)', collect)
    .option('--command <line>', 'a shell command line (with --agent)')
    .option('--worktree <dir>', 'the absolute worktree root (with --agent)')
    .option(
      '--approver <presence>',
      'whether an approver is connected: `connected` or `none`',
      'none',
    )
    .option('--at <iso>', 'the time of the decision, with a zone (default: now)')
    .option('--classifier <file>', 'extend the command classifier with this configuration')
    .option('--json', 'print the decision JSON');
}

export function buildProgram(io: Io, jsonMode: boolean): Command {
  const program = new Command();
  program
    .name('warden')
    .description('Warden decides whether an AI agent may act: allow, ask a human, or deny.')
    .version(VERSION)
    .showHelpAfterError(jsonMode ? false : '(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      // With --json the error goes to standard output as `{ "errors": [...] }` instead.
      outputError: (text, write) => {
        if (!jsonMode) write(`${styleMessage(text.trimEnd())}\n`);
      },
    })
    .exitOverride();

  decisionOptions(
    program
      .command('explain')
      .description(
        'the what-if check: which rule decides a request, and why (exit 0 whenever a decision is printed)',
      ),
  ).action((options: DecisionOptions) => runExplain(io, options));

  decisionOptions(
    program
      .command('check')
      .description('decide a request; the exit code carries the outcome: 0 allow, 3 deny, 4 ask'),
  ).action((options: DecisionOptions) => runCheck(io, options));

  const policy = program.command('policy').description('check a policy before it bites');
  policy
    .command('lint')
    .description('validate a policy, list every problem, warn about rules that never decide')
    .argument(
      '<file>',
      'the policy (YAML or JSON; a document without `workspace` is a managed policy)',
    )
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON')
    .action((file: string, options: { json?: boolean; at?: string }) => runLint(io, file, options));
  policy
    .command('describe')
    .description('every rule as a sentence')
    .argument('<file>', 'the policy')
    .option('--json', 'print JSON')
    .action((file: string, options: { json?: boolean }) => runDescribe(io, file, options));
  policy
    .command('enumerate')
    .description('what an agent may do, per action class, with the exceptions')
    .argument('<file>', 'the workspace policy')
    .option('--agent <id>', 'the agent (required)')
    .option('--space <id>', 'the space it works in')
    .option('--mode <name>', 'the mode it runs in')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--at <iso>', 'judge expiry at this time (default: now)')
    .option('--json', 'print JSON')
    .action((file: string, options: Record<string, string | boolean | undefined>) =>
      runEnumerate(io, file, options),
    );

  program
    .command('classifier')
    .description('show the command classifier table, or what it reads in a command line')
    .argument('[command]', 'a command line to classify')
    .option('--worktree <dir>', 'the absolute worktree root relative paths refer to')
    .option('--classifier <file>', 'extend the table with this configuration')
    .option('--json', 'print JSON')
    .action(
      (
        command: string | undefined,
        options: { json?: boolean; worktree?: string; classifier?: string },
      ) => runClassifier(io, command, options),
    );

  const audit = program.command('audit').description('the audit log: integrity and movement');
  const exitWith = (code: number): void => {
    if (code !== EXIT.ok) throw new Exit(code);
  };
  audit
    .command('verify')
    .description(
      'recompute the hash chain and name the first changed, removed or reordered entry (exit 1 when broken)',
    )
    .option('--data <dir>', `the data folder (default \`.warden\`; DATABASE_URL for Postgres)`)
    .option('--file <file>', 'verify an exported JSONL file instead')
    .option(
      '--head <hash>',
      'a head noted earlier (export prints it): a file must end there, the log must still hold it',
    )
    .option('--json', 'print JSON')
    .action(async (options: AuditOptions) =>
      exitWith(await (await auditCommands()).runVerify(io, options)),
    );
  audit
    .command('export')
    .description('write the whole audit log as JSON Lines or as OTLP/JSON traces')
    .option('--format <format>', '`jsonl` or `otlp`', 'jsonl')
    .option('--data <dir>', `the data folder (default \`.warden\`; DATABASE_URL for Postgres)`)
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (options: AuditOptions) =>
      exitWith(await (await auditCommands()).runExport(io, options, VERSION)),
    );
  audit
    .command('import')
    .description(
      'append the entries of an exported JSONL file (its chain must verify; entries already present are skipped)',
    )
    .argument('<file>', 'the JSONL file')
    .option('--data <dir>', `the data folder (default \`.warden\`; DATABASE_URL for Postgres)`)
    .option('--json', 'print JSON')
    .action(async (file: string, options: AuditOptions) =>
      exitWith(await (await auditCommands()).runImport(io, file, options)),
    );

  return program;
}

/** Runs the CLI with `args` (without `node` and the script) and returns the exit code. */
export async function run(args: readonly string[], io: Io): Promise<number> {
  const jsonMode = args.includes('--json');
  const program = buildProgram(io, jsonMode);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof Exit) return error.code;
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok;
      if (jsonMode) {
        try {
          usage(
            io,
            true,
            optionOf(error.message),
            styleMessage(error.message).replace(/^error: /, ''),
          );
        } catch (inner) {
          if (inner instanceof Exit) return inner.code;
        }
      }
      return EXIT.usage;
    }
    io.err(`warden: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
}

/** Commander's messages in Warden's style: input in backticks, no trailing period. */
function styleMessage(message: string): string {
  return message.replace(/'([^']*)'/g, '`$1`').replace(/\.$/, '');
}

function optionOf(message: string): string {
  return /'(--?[a-z-]+)/.exec(message)?.[1] ?? '';
}

export async function main(argv: readonly string[]): Promise<void> {
  const code = await run(argv.slice(2), processIo());
  process.exitCode = code;
}
