// What a command's registration is given and what its handler's options are:
// each command declares its flags, help and handler in one module
// (`commands/`), and `main.ts` only builds the program from them.

import type { CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
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
