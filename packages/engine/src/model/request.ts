// The action request (contracts §2): what an adapter asks the engine about.

import type { ActionClass } from './classes.js';

export interface RequestArgs {
  readonly paths?: readonly string[];
  readonly refs?: readonly string[];
  readonly hosts?: readonly string[];
  readonly count?: number;
  readonly cents?: number;
}

export const REQUEST_ARG_KEYS = ['paths', 'refs', 'hosts', 'count', 'cents'] as const;

export interface ActionRequest {
  readonly workspace: string;
  readonly agent: string;
  readonly space?: string;
  readonly mode?: string;
  readonly tool?: string;
  readonly actions?: readonly ActionClass[];
  readonly command?: string;
  readonly worktree?: string;
  readonly args?: RequestArgs;
}
