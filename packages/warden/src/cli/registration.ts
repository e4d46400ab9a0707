// What a command's registration is given, how its handler runs, and what its
// handler's options are: each command declares its flags, help and handler in
// one module (`commands/`), and `main.ts` only builds the program from them.

import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Io } from './io.js';

/** What a handler needs from the running CLI. */
export interface Cli {
  readonly io: Io;
  /** The version of the installed package. */
  readonly version: string;
  /** Ends the command with `code`; 0 returns normally. */
  readonly exit: (code: number) => void;
}

/** Adds one command (or one group of commands) to the program, with its flags, help and handler. */
export type Registration = (program: CommandUnknownOpts, cli: Cli) => void;

/**
 * The options a handler receives, inferred from the flags `declare` adds. A
 * caller in this process (a test, a probe) may leave any of them out.
 */
export type OptionsOf<Declare extends (...args: never[]) => { opts(): OptionValues }> = Readonly<
  Partial<ReturnType<ReturnType<Declare>['opts']>>
>;

/**
 * A command's action: `run` gets the CLI's io and what was parsed (the
 * arguments, then the options); the command ends with the code it returns
 * (one that returns nothing has ended as it should, or thrown its exit).
 */
export function handler<Parsed extends unknown[]>(
  cli: Cli,
  run: (io: Io, ...parsed: Parsed) => Promise<number> | Promise<void>,
): (...given: [...Parsed, unknown]) => Promise<void> {
  return async (...given) => {
    // Commander passes the command itself last.
    const code = await run(cli.io, ...(given.slice(0, -1) as Parsed));
    if (typeof code === 'number') cli.exit(code);
  };
}

/** The registration of one command: `declare` adds it with its flags and help, `run` runs it. */
export function registration<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  declare: (parent: CommandUnknownOpts) => Command<A, O, G>,
  run: (io: Io, ...parsed: [...A, Readonly<Partial<O>>]) => Promise<number> | Promise<void>,
): Registration {
  return (parent, cli) => {
    declare(parent).action(handler(cli, run));
  };
}
