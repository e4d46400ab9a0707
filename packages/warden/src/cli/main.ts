// The `warden` command line (contracts §4): the program built from each
// command's registration (`commands/`), the global options and the exit codes.

import { createRequire } from 'node:module';
import { Command, CommanderError } from '@commander-js/extra-typings';
import { registerAgent } from './commands/agent/index.js';
import { registerApprovals } from './commands/approvals.js';
import { registerAudit } from './commands/audit.js';
import { registerClassifier } from './commands/classifier.js';
import { registerDecision } from './commands/decision.js';
import { registerDoctor } from './commands/doctor.js';
import { registerExec } from './commands/exec.js';
import { registerGateway } from './commands/gateway.js';
import { registerPins } from './commands/pins.js';
import { registerRules } from './commands/rules.js';
import { registerRunner } from './commands/runner.js';
import { registerHook } from './commands/hook/index.js';
import { registerInspector } from './commands/inspector.js';
import { registerPolicy } from './commands/policy/index.js';
import { registerReport } from './commands/report.js';
import { registerServe } from './commands/serve.js';
import { registerTemplates } from './commands/templates.js';
import { registerToken } from './commands/token.js';
import { FlagProblem } from './flags.js';
import type { Io } from './io.js';
import { EXIT, Exit, processIo, usage } from './io.js';
import type { Registration } from './registration.js';

/** The version of the installed package, read from its manifest (one place to change it). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;

/** The commands, in the order `warden --help` lists them. */
const REGISTRATIONS: readonly Registration[] = [
  registerDecision,
  registerPolicy,
  registerTemplates,
  registerServe,
  registerGateway,
  registerPins,
  registerRules,
  registerToken,
  registerAgent,
  registerInspector,
  registerReport,
  registerApprovals,
  registerHook,
  registerExec,
  registerRunner,
  registerDoctor,
  registerClassifier,
  registerAudit,
];

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
  const cli = {
    io,
    version: VERSION,
    exit: (code: number): void => {
      if (code !== EXIT.ok) throw new Exit(code);
    },
  };
  for (const register of REGISTRATIONS) register(program, cli);
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
    if (error instanceof FlagProblem) return problem(io, jsonMode, error.flag, error.message);
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.ok;
      // Without --json commander has printed it already.
      if (!jsonMode) return EXIT.usage;
      return problem(
        io,
        true,
        optionOf(error.message),
        styleMessage(error.message).replace(/^error: /, ''),
      );
    }
    io.err(`warden: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
}

/** Prints a usage problem as every command does and returns its exit code. */
function problem(io: Io, json: boolean, path: string, message: string): number {
  try {
    return usage(io, json, path, message);
  } catch (error) {
    if (error instanceof Exit) return error.code;
    throw error;
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
  // Nothing should hold the process open once a command is done; if something does, it ends anyway.
  setTimeout(() => process.exit(code), 3000).unref();
}
