// Who a change made from this machine is recorded as: the same author for a
// policy revision, an accepted suggestion, a freeze, an accepted tool pin and
// an applied template.

import { userInfo } from 'node:os';

/** Who writes a revision from this machine: `cli:<user>`. */
export function author(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}
