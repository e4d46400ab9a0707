// The what-if check as the API answers it (`POST /v1/what-if`, G38): the
// decision a request would get, and why, with nothing decided or recorded.
// No IO here.

import type { DecisionResult } from '@warden/engine';
import type { Fits, Shown } from './fits.js';
import { decisionResultView } from './decision.js';

/** The engine's decision, as decide would make it now: no ids, since nothing is recorded. */
export const whatIfView = decisionResultView.describe(
  'the decision the request would get, with the facets and rules that made it',
);

export type WhatIfView = Shown<typeof whatIfView>;

/** Fails to compile when the engine's decision no longer fits what clients are shown. */
export const whatIfSchemasFollowTheEngine: [Fits<DecisionResult, typeof whatIfView>] = [true];
