// What the classifier tests share: a worktree, policies written as plain rule
// documents, and views of what the classifier reads in a command line.

import { expect } from 'vitest';
import { decideDocs } from './decide-docs.js';
import { DEFAULT_TABLE, analyzeCommand } from '../src/index.js';

export const WORKTREE = '/srv/w';

export type RuleDoc = Record<string, unknown>;
export type Unit = ReturnType<typeof analyzeCommand>['units'][number];
export type Effect = Unit['effects'][number];

export const SHELL_OK: RuleDoc = { id: 'shell-ok', action: 'processSpawn', decision: 'allow' };

/** Decides `command` under `rules` in workspace `acme`, in the shared worktree. */
export function decideWith(
  rules: readonly unknown[],
  command: string,
  policyExtra: Record<string, unknown> = {},
  requestExtra: Record<string, unknown> = {},
) {
  return decideDocs(
    { version: 1, workspace: 'acme', rules, ...policyExtra },
    { workspace: 'acme', agent: 'a', command, worktree: WORKTREE, ...requestExtra },
  );
}

export function units(command: string): readonly Unit[] {
  return analyzeCommand(command, DEFAULT_TABLE, WORKTREE).units;
}

export function effects(command: string): Effect[] {
  return units(command).flatMap((unit) => [...unit.effects]);
}

export function classes(command: string): string[] {
  return [...new Set(effects(command).map((item) => item.cls))].sort();
}

export function argsOf(command: string, cls: string): Effect['args'][] {
  return effects(command)
    .filter((item) => item.cls === cls)
    .map((item) => item.args);
}

export function isRaw(command: string): boolean {
  return units(command).some((unit) => unit.kind === 'raw');
}

/** The invariant: never a silent allow. */
export function expectNeverAllowed(rules: readonly unknown[], command: string): void {
  expect(decideWith(rules, command).decision, command).not.toBe('allow');
}
