// What the adversarial reviews of E43 share: a policy with an actFreely space and a mode, and
// the three restrictive readers of a wrapper — a deny rule, a mode's net and a deny's
// `commands` constraint — decided for one rule and one command line.

import { expect } from 'vitest';
import { decideDocs } from './decide-docs.js';

export type Rule = Record<string, unknown>;

export const request = (command: string, extra: Record<string, unknown> = {}) => ({
  workspace: 'acme',
  agent: 'coder-1',
  command,
  ...extra,
});

/** A workspace policy with an actFreely space `s` and a mode `m` without a net. */
export const policy = (rules: readonly Rule[], modes: Record<string, unknown> = {}) => ({
  version: 1,
  workspace: 'acme',
  spaces: { s: { autonomy: 'actFreely' } },
  modes: { m: {}, ...modes },
  rules,
});

export const ALLOWS: Rule[] = [
  { id: 'ls-ok', command: 'ls', decision: 'allow' },
  { id: 'cat-ok', command: 'cat notes.txt', decision: 'allow' },
];

/** The three restrictive readers of a wrapper (E43): a deny rule, a mode's net, a `commands` constraint. */
export function decisions(rule: string, command: string) {
  const ruled = policy([{ id: 'no-w', command: rule, decision: 'deny' }, ...ALLOWS]);
  const netted = policy(ALLOWS, { m: { commandNet: [rule] } });
  const constrained = policy([
    { id: 'no-w', action: 'processSpawn', decision: 'deny', when: { commands: [rule] } },
    { id: 'ls-spawn-ok', action: 'processSpawn', decision: 'allow', when: { commands: ['ls'] } },
  ]);
  return {
    rule: decideDocs(ruled, request(command)),
    free: decideDocs(ruled, request(command, { space: 's' })),
    asked: decideDocs(ruled, request(command), { approverConnected: true }),
    net: decideDocs(netted, request(command, { mode: 'm' })),
    constraint: decideDocs(constrained, request(command)),
  };
}

/** Denied by the rule (also under actFreely and with an approver), the net and the constraint. */
export function expectDeniedEverywhere(rule: string, command: string): void {
  const d = decisions(rule, command);
  const label = `${rule} ⟂ ${command}`;
  expect([d.rule.decision, d.rule.rule], `${label} (rule)`).toEqual(['deny', 'no-w']);
  expect([d.free.decision, d.free.rule], `${label} (actFreely, E17b)`).toEqual(['deny', 'no-w']);
  expect(d.asked.outcome, `${label} (approver connected)`).toBe('deny');
  expect([d.net.decision, d.net.rule], `${label} (mode net, E35)`).toEqual(['deny', 'modeNet:m']);
  expect([d.constraint.decision, d.constraint.rule], `${label} (commands, E21)`).toEqual([
    'deny',
    'no-w',
  ]);
}

/** Never allowed by any of the three: a prompt is accepted where the command cannot be read. */
export function expectNeverAllowed(rule: string, command: string): void {
  const d = decisions(rule, command);
  const label = `${rule} ⟂ ${command}`;
  for (const [name, result] of Object.entries(d)) {
    expect(result.decision, `${label} (${name})`).not.toBe('allow');
  }
  expect(d.rule.outcome, `${label} (rule, no approver)`).toBe('deny');
}

/** Not caught: allowed (the wrapped `ls` is allowed), by the rule, the net and the constraint. */
export function expectNotCaught(rule: string, command: string): void {
  const d = decisions(rule, command);
  const label = `${rule} ⟂ ${command}`;
  expect(d.rule.decision, `${label} (rule)`).toBe('allow');
  expect(d.free.decision, `${label} (actFreely)`).toBe('allow');
  expect(d.net.decision, `${label} (mode net)`).toBe('allow');
  expect([d.constraint.decision, d.constraint.rule], `${label} (commands)`).toEqual([
    'allow',
    'ls-spawn-ok',
  ]);
}

export const shq = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
