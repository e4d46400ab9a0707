// `warden token` as an operator runs it against a data folder, for the tests
// of what it refuses and what it lists.

import { expect } from 'vitest';
import { warden } from '../helpers.js';

/** A problem `warden … --json` lists: where, and what is wrong there. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

/** `warden token create <args> --data <data> --json`, which must refuse (exit 1): the problems it lists. */
export function refusedToken(data: string, ...args: string[]): Problem[] {
  const bad = warden(['token', 'create', ...args, '--data', data, '--json']);
  expect(bad.code).toBe(1);
  return (JSON.parse(bad.stdout) as { errors: Problem[] }).errors;
}

/** What `warden token list --data <data> --json` prints, parsed. */
export function tokenList(data: string): unknown {
  return JSON.parse(warden(['token', 'list', '--data', data, '--json']).stdout);
}
