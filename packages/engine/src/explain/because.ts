// The condition behind a facet's result, in words (G19): which attribute, which
// request value, which patterns.

import type { Condition } from '../compile/constraints.js';
import type { Resolution } from '../resolve/chain.js';

const SINGULAR: Record<string, string> = {
  paths: 'path',
  refs: 'ref',
  hosts: 'host',
  commands: 'command',
  maxCount: 'count',
  maxCents: 'cents',
};

function patternsOf(resolution: Resolution, key: Condition['key']): string {
  const when = resolution.rule?.rule.when;
  const value = when?.[key];
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return String(value);
}

function conditionText(condition: Condition, resolution: Resolution, restrictive: boolean): string {
  const key = condition.key;
  if (condition.status === 'unknown') {
    const asked = key === 'maxCount' ? 'count' : key === 'maxCents' ? 'cents' : key;
    return `${asked} unknown: neither the request nor its command says which`;
  }
  const patterns = patternsOf(resolution, key);
  if (key === 'maxCount' || key === 'maxCents') {
    const name = SINGULAR[key] as string;
    return restrictive
      ? `${name} ${condition.value ?? ''} exceeds ${key} ${patterns}`
      : `${name} ${condition.value ?? ''} is within ${key} ${patterns}`;
  }
  if (restrictive)
    return `${SINGULAR[key] ?? key} \`${condition.value ?? ''}\` matches ${key} ${patterns}`;
  const values = condition.values ?? [];
  if (values.length === 0) return `no ${key}: nothing lies outside ${key} ${patterns}`;
  return `${key} [${values.join(', ')}] lie within ${key} ${patterns}`;
}

/** The `because` of a facet entry, or undefined when there is nothing to add. */
export function because(
  resolution: Resolution,
  unparseableReason: string | undefined,
): string | undefined {
  if (resolution.via === 'control')
    return `\`${resolution.controlPath ?? ''}\` changes what later commands run`;
  if (resolution.via === 'transactional')
    return `the command cannot be read with confidence${unparseableReason === undefined ? '' : ` (${unparseableReason})`}: it runs transactionally, without network, and what it does is decided before it lands`;
  if (resolution.via === 'unparseable') {
    return `the command cannot be read with confidence${unparseableReason === undefined ? '' : `: ${unparseableReason}`}`;
  }
  const rule = resolution.rule;
  if (rule === null) return undefined;
  const words = rule.rule.commandWords?.join(' ') ?? rule.rule.command;
  const prefix =
    rule.rule.command === undefined
      ? ''
      : resolution.underWrapper === true
        ? `it runs under \`${words ?? ''}\``
        : `command starts with \`${words ?? ''}\``;
  if (resolution.via === 'escalation') {
    if (resolution.byTokens) {
      return `\`${rule.rule.commandWords?.join(' ') ?? ''}\` may run inside a command that cannot be read with confidence`;
    }
    const parts = resolution.conditions.map((c) => conditionText(c, resolution, rule.restrictive));
    // A wrapper whose value or operand the rule names is computed (E43).
    if (resolution.underWrapper === true && rule.rule.command !== undefined)
      parts.unshift(
        `it may run under \`${words ?? ''}\`: a word the rule names is computed where the wrapper is written`,
      );
    return parts.join('; ');
  }
  const parts = resolution.conditions.map((c) => conditionText(c, resolution, rule.restrictive));
  if (prefix !== '') parts.unshift(prefix);
  return parts.length === 0 ? undefined : parts.join(' and ');
}
