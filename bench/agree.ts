// Sample-agreement check: the three translations must answer alike on class
// requests, or the bench would compare engines doing different work.

import type { ActionRequest, CompiledPolicy } from '@warden/engine';
import type { Enforcer } from 'casbin';
import type { AuthorizationCall, StatefulAuthorizationCall } from '@cedar-policy/cedar-wasm/nodejs';
import { cedarAuthorize, cedarStatefulAuthorize } from './cedar.js';
import type { ClassRequest } from './generate.js';
import { wardenDecide } from './warden.js';

export interface AgreementInput {
  readonly requests: readonly ClassRequest[];
  readonly warden: readonly ActionRequest[];
  readonly policy: CompiledPolicy;
  readonly at: number;
  readonly cedarCalls: readonly AuthorizationCall[];
  readonly cedarStateful: readonly StatefulAuthorizationCall[];
  readonly enforcer: Enforcer;
  /** How many requests to check (preparsed Cedar and casbin). */
  readonly count: number;
  /** How many of them also go through plain `isAuthorized` (slow on big sets). */
  readonly plainCount: number;
}

export interface Agreement {
  readonly checked: number;
  /** Warden's outcome (prompt counts as deny: no approver is connected) vs each engine. */
  readonly casbinAgree: number;
  readonly cedarAgree: number;
  /** Requests a Warden rule decided with allow or deny (no prompt, no built-in default). */
  readonly ruleDecided: number;
  readonly ruleDecidedCasbinAgree: number;
  readonly ruleDecidedCedarAgree: number;
  /** Cedar disagreements where Warden allows and Cedar denies (forbid overrides a narrower permit). */
  readonly cedarStricter: number;
  /** Plain `isAuthorized` vs the preparsed set: must be identical. */
  readonly plainChecked: number;
  readonly plainAgree: number;
  readonly examples: readonly string[];
}

export function checkAgreement(input: AgreementInput): Agreement {
  const n = Math.min(input.count, input.requests.length);
  let casbinAgree = 0;
  let cedarAgree = 0;
  let ruleDecided = 0;
  let ruleDecidedCasbinAgree = 0;
  let ruleDecidedCedarAgree = 0;
  let cedarStricter = 0;
  let plainChecked = 0;
  let plainAgree = 0;
  const examples: string[] = [];
  for (let i = 0; i < n; i++) {
    const req = input.requests[i] as ClassRequest;
    const result = wardenDecide(input.policy, input.warden[i] as ActionRequest, input.at);
    const warden = result.outcome === 'allow' ? 'allow' : 'deny';
    const cedar = cedarStatefulAuthorize(input.cedarStateful[i] as StatefulAuthorizationCall);
    const casbin = input.enforcer.enforceSync(req.agent, req.space, req.cls, req.arg?.value ?? '')
      ? 'allow'
      : 'deny';
    if (casbin === warden) casbinAgree++;
    if (cedar === warden) cedarAgree++;
    else if (warden === 'allow') cedarStricter++;
    const byRule = result.scope !== 'default' && result.decision !== 'prompt';
    if (byRule) {
      ruleDecided++;
      if (casbin === warden) ruleDecidedCasbinAgree++;
      if (cedar === warden) ruleDecidedCedarAgree++;
    }
    if ((casbin !== warden || cedar !== warden) && examples.length < 4) {
      const arg = req.arg === undefined ? '' : ` ${req.arg.key}=${req.arg.value}`;
      examples.push(
        `${req.agent}@${req.space} ${req.cls}${arg}: warden ${result.decision} (${result.rule}, ${result.scope}), cedar ${cedar}, casbin ${casbin}`,
      );
    }
    if (i < input.plainCount) {
      plainChecked++;
      if (cedarAuthorize(input.cedarCalls[i] as AuthorizationCall) === cedar) plainAgree++;
    }
  }
  return {
    checked: n,
    casbinAgree,
    cedarAgree,
    ruleDecided,
    ruleDecidedCasbinAgree,
    ruleDecidedCedarAgree,
    cedarStricter,
    plainChecked,
    plainAgree,
    examples,
  };
}
