// `/v1/exec/start`'s answer (G2): the sandbox profile a granted command runs
// under, made from the decision that allowed it. No IO here.

import { z } from 'zod';
import type { ExecProfile, GrantedRun } from '../sandbox/profile.js';
import type { Fits, Shown } from './fits.js';

export const execProfileView = z.strictObject({
  worktree: z.string(),
  write: z.array(z.string()).describe('folders beyond the worktree the policy lets it write in'),
  hosts: z.array(z.string()).describe('hosts the command line names, which the decision allowed'),
  denyRead: z.array(z.string()),
  transactional: z
    .boolean()
    .describe('the decision allowed it only over a copy-on-write layer, without network'),
  controlPaths: z
    .array(z.string())
    .describe('paths that change what later commands run: a write there is decided'),
});

export const execStartView = z.strictObject({
  auditId: z.string(),
  callId: z.string(),
  profile: execProfileView,
});

export const execEffectsView = z.strictObject({
  outcome: z
    .enum(['allow', 'deny'])
    .describe('allow: land what the command did; deny: discard it, nothing happened'),
  reason: z.string(),
  auditIds: z.array(z.string()).describe('the audit entry of each request decided, in order'),
});

export type ExecProfileView = Shown<typeof execProfileView>;
export type ExecStartView = Shown<typeof execStartView>;

/** Fails to compile when the sandbox's profile no longer fits what clients are shown. */
export const execSchemasFollowTheSandbox: [
  Fits<ExecProfile, typeof execProfileView>,
  Fits<Pick<GrantedRun, 'auditId' | 'callId' | 'profile'>, typeof execStartView>,
] = [true, true];
