// Every rule reads back as one English sentence (G19).

import { classInfo } from '../model/classes.js';
import type { Constraints, Rule } from '../model/policy.js';

function scopePhrase(scope: string, workspace: string | undefined, managed: boolean): string {
  const colon = scope.indexOf(':');
  const kind = colon < 0 ? scope : scope.slice(0, colon);
  const id = colon < 0 ? '' : scope.slice(colon + 1);
  const base =
    kind === 'agent'
      ? `for agent \`${id}\``
      : kind === 'space'
        ? `in space \`${id}\``
        : kind === 'mode'
          ? `in mode \`${id}\``
          : managed
            ? 'in every workspace'
            : workspace === undefined
              ? 'across the workspace'
              : `across workspace \`${workspace}\``;
  return managed ? `${base} (managed)` : base;
}

function list(values: readonly string[]): { positive: string; negative: string } {
  const positive = values.filter((v) => !v.startsWith('!')).map((v) => `\`${v}\``);
  const negative = values.filter((v) => v.startsWith('!')).map((v) => `\`${v.slice(1)}\``);
  return {
    positive: positive.length === 0 ? 'nothing' : positive.join(', '),
    negative: negative.length === 0 ? '' : ` except ${negative.join(', ')}`,
  };
}

const NOUNS = { paths: 'path', refs: 'ref', hosts: 'host', commands: 'command' } as const;

/** The `when` clause of a rule's sentence. */
export function constraintPhrase(when: Constraints, restrictive: boolean): string {
  const parts: string[] = [];
  for (const key of ['paths', 'refs', 'hosts', 'commands'] as const) {
    const values = when[key];
    if (values === undefined) continue;
    const { positive, negative } = list(values);
    const noun = NOUNS[key];
    const verb = key === 'commands' ? 'starts with' : 'matches';
    parts.push(
      restrictive
        ? `any ${noun} ${verb} ${positive}${negative}`
        : `every ${noun} ${key === 'paths' ? 'lies within' : verb} ${positive}${negative}`,
    );
  }
  if (when.maxCount !== undefined) {
    parts.push(
      restrictive ? `the count exceeds ${when.maxCount}` : `the count is at most ${when.maxCount}`,
    );
  }
  if (when.maxCents !== undefined) {
    parts.push(
      restrictive
        ? `the cost exceeds ${when.maxCents} cents`
        : `the cost is at most ${when.maxCents} cents`,
    );
  }
  return parts.length === 0 ? '' : ` when ${parts.join(' and ')}`;
}

function subject(rule: Rule): string {
  if (rule.action !== undefined) return `${classInfo(rule.action).covers} (\`${rule.action}\`)`;
  return `running \`${rule.commandWords?.join(' ') ?? rule.command ?? ''}\``;
}

const VERBS = { allow: 'is allowed', prompt: 'needs approval', deny: 'is denied' } as const;

/** "protect-main: in space `payments`, pushing to a git remote (`gitPush`) is denied when any ref matches `main`." */
export function describeRule(rule: Rule, workspace?: string, managedLayer = false): string {
  const managed = managedLayer || rule.origin === 'managed';
  const scope = scopePhrase(rule.scope, workspace, managed);
  const restrictive = rule.decision !== 'allow';
  let sentence = `${scope}, ${subject(rule)} ${VERBS[rule.decision]}`;
  if (rule.when !== undefined) sentence += constraintPhrase(rule.when, restrictive);
  if (rule.expiresAt !== undefined) sentence += ` until ${rule.expiresAt}`;
  if (rule.enforcement === 'soft')
    sentence += '; an overrider may override the denial with a reason';
  if (rule.enforcement === 'advisory') sentence += '; advisory: reported, never enforced';
  if (rule.origin === 'remembered') sentence += ' (a remembered approval)';
  if (rule.origin === 'template') sentence += ' (from a template)';
  if (rule.note !== undefined) sentence += ` — ${rule.note}`;
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
