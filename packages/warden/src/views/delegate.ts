// `/v1/delegate`'s answer (G33–G36): the delegate's run, or the guard that
// refused and its reason, verbatim. No IO here.

import { DELEGATION_GUARDS } from '@warden/engine';
import { z } from 'zod';
import type { DelegateResult } from '../gate/delegation.js';
import type { Fits, Shown } from './fits.js';
import { runView } from './runs.js';

export const delegateAnswerView = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), run: runView.describe("the delegate's run") }),
  z.strictObject({
    ok: z.literal(false),
    guard: z.enum([...DELEGATION_GUARDS, 'run']),
    reason: z.string(),
    failure: z
      .string()
      .optional()
      .describe('set (with status 503) when the attempt could not be recorded'),
  }),
]);

export type DelegateAnswerView = Shown<typeof delegateAnswerView>;

/** Fails to compile when the gate's answer no longer fits what clients are shown. */
export const delegateSchemasFollowTheGate: [Fits<DelegateResult, typeof delegateAnswerView>] = [
  true,
];
