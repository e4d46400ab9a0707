// The classes an agent is denied outright (G20): whatever a call's
// arguments, a request of such a class is a hard deny, so an adapter may
// leave the tools that act in it out of what the agent is offered. Only
// what is certain counts: a class some constrained rule could allow or ask
// for, a soft deny a human may override, or a class the command rules speak
// for is not denied outright. Pure: the policy, the placement and the clock
// come in.

import type { ActionClass } from '../model/classes.js';
import { ACTION_CLASSES } from '../model/classes.js';
import type { Freeze } from '../resolve/frozen.js';
import { freezeReason, freezeRule, freezeScope, managedFreeze } from '../resolve/frozen.js';
import type { ClassPermission, EnumerateInput } from './enumerate.js';
import { enumerate } from './enumerate.js';

export interface OutrightDenial {
  readonly class: ActionClass;
  /** The deciding rule, as a decision names it. */
  readonly rule: string;
  readonly scope: string;
  /** Why, in a sentence. */
  readonly reason: string;
}

export interface OutrightInput extends EnumerateInput {
  /** An admin's freeze of the agent or its workspace; the managed policy's is read from it. */
  readonly frozen?: Freeze | null;
}

const MANAGED = 'managed:';

/** Whether the deny that decides a class is hard: a soft one a human may override. */
function hard(permission: ClassPermission, input: OutrightInput): boolean {
  // The dial made it a deny (`proposeOnly`), or no rule decides: both are hard.
  if (permission.decision !== 'deny' || permission.rule.startsWith('default:')) return true;
  const managed = permission.scope.startsWith(MANAGED);
  const layer = managed ? input.managed?.layer : input.policy.layer;
  const scope = managed ? permission.scope.slice(MANAGED.length) : permission.scope;
  const rule = layer?.scopes
    .get(scope)
    ?.classRules(permission.class)
    ?.find((r) => r.id === permission.rule);
  return rule !== undefined && rule.rule.enforcement === 'hard';
}

/** The classes every request of which is a hard deny for this agent, in class order. */
export function outrightDenials(input: OutrightInput): OutrightDenial[] {
  const workspace = input.policy.policy.workspace ?? '';
  const frozen =
    managedFreeze(input.managed?.policy ?? null, workspace, input.agent) ?? input.frozen ?? null;
  if (frozen !== null)
    return ACTION_CLASSES.map((cls) => ({
      class: cls,
      rule: freezeRule(frozen),
      scope: freezeScope(frozen, input.agent),
      reason: freezeReason(frozen, input.agent),
    }));
  const enumeration = enumerate(input);
  const commandsMayAllow = enumeration.commands.some((r) => r.decision !== 'deny');
  const out: OutrightDenial[] = [];
  for (const permission of enumeration.classes) {
    if (permission.effective !== 'deny') continue;
    if (permission.exceptions.some((e) => e.decision !== 'deny')) continue;
    if (permission.class === 'processSpawn' && commandsMayAllow) continue;
    if (!hard(permission, input)) continue;
    const dial = permission.decision !== 'deny';
    out.push({
      class: permission.class,
      rule: dial ? `autonomy:${enumeration.autonomy}` : permission.rule,
      scope: dial ? `space:${enumeration.space ?? ''}` : permission.scope,
      reason: dial
        ? `\`${permission.class}\` is denied in space \`${enumeration.space ?? ''}\`, whose autonomy is \`${enumeration.autonomy}\``
        : `\`${permission.class}\` is denied by rule \`${permission.rule}\` in ${permission.scope}, whatever the call's arguments`,
    });
  }
  return out;
}
