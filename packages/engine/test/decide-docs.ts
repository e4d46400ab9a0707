// One way for tests to decide from plain documents: validate, compile, decide
// at a fixed clock. A document that does not validate fails the test loudly.

import type { ClassifierTable, DecisionResult } from '../src/index.js';
import {
  DEFAULT_TABLE,
  compilePolicy,
  decide,
  validatePolicy,
  validateRequest,
} from '../src/index.js';

export const AT = Date.parse('2026-11-30T12:00:00Z');

export interface DecideOptions {
  readonly managed?: unknown;
  readonly approverConnected?: boolean;
  readonly classifier?: ClassifierTable;
  readonly at?: number;
}

export function compiled(doc: unknown, kind: 'workspace' | 'managed' = 'workspace') {
  const result = validatePolicy(doc, kind);
  if (!result.ok) throw new Error(`${kind} policy is invalid: ${JSON.stringify(result.issues)}`);
  return compilePolicy(result.value);
}

export function decideDocs(
  policyDoc: unknown,
  requestDoc: unknown,
  options: DecideOptions = {},
): DecisionResult {
  const request = validateRequest(requestDoc);
  if (!request.ok) throw new Error(`request is invalid: ${JSON.stringify(request.issues)}`);
  return decide({
    policy: compiled(policyDoc),
    managed: options.managed === undefined ? null : compiled(options.managed, 'managed'),
    request: request.value,
    at: options.at ?? AT,
    approverConnected: options.approverConnected ?? false,
    classifier: options.classifier ?? DEFAULT_TABLE,
  });
}
