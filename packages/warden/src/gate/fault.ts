// Fail-closed, named (STYLE 4): when anything the gate relies on fails — the
// store, the policy, the managed layer, the approvals broker, the audit log —
// the answer is a deny whose reason says what failed. Never an allow, never a
// thrown error at the caller.

import type { DecisionResult, ManagedSource } from '@warden/engine';

export type FaultCode =
  | 'policy-missing'
  | 'policy-invalid'
  | 'managed-invalid'
  | 'request-invalid'
  | 'store'
  | 'audit'
  | 'approvals'
  | 'internal';

export class GateFault extends Error {
  constructor(
    readonly code: FaultCode,
    message: string,
  ) {
    super(message);
    this.name = 'GateFault';
  }
}

/**
 * The promise's value, or a fault when it takes longer than `ms`: a store that
 * stops answering makes the gate deny, never hang (a caller that times out
 * might let the call through).
 */
export function within<T>(
  promise: Promise<T>,
  ms: number,
  code: FaultCode,
  what: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new GateFault(code, `${what} did not answer within ${Math.round(ms / 100) / 10} s`)),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The rule name a fail-closed denial carries. */
export const FAIL_CLOSED_RULE = 'failClosed';

export function faultMessage(error: unknown): string {
  if (error instanceof GateFault) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `internal error: ${message}`;
}

/** The decision for a call the gate could not decide: a hard deny, saying why. */
export function failClosed(error: unknown, managedSource: ManagedSource = null): DecisionResult {
  return {
    decision: 'deny',
    outcome: 'deny',
    rule: FAIL_CLOSED_RULE,
    scope: 'default',
    enforcement: 'hard',
    overridable: false,
    prompts: [],
    facets: [],
    managed: null,
    managedSource,
    advisories: [],
    reason: `denied: ${faultMessage(error)} (Warden fails closed)`,
  };
}

/**
 * The answer to a decide request that failed before any decision could be
 * recorded: a deny in the decision's shape, without `auditId`, whose
 * `failure` says it is not recorded (answered with 503, never a bare 500).
 */
export function unrecordedDenial(error: unknown): DecisionResult & { readonly failure: string } {
  const failure = `${faultMessage(error)}; this denial is not recorded in the audit log`;
  return { ...failClosed(new GateFault('store', failure)), failure };
}
