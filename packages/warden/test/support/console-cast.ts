// Who the console's browser suites sign in as: the same people and agent in
// every suite, each under the key the suite reads its token by.

import type { ConsoleToken } from './console-fixture.js';

/** The keys the cast's tokens go by. */
export type CastMember = 'agent' | 'approver' | 'overrider' | 'viewer' | 'admin';

/** Agent `coder-1` (token `coder`), approver `bob`, overrider `olga`, viewer `vic`, admin `alice`. */
export const CAST: Readonly<Record<CastMember, ConsoleToken>> = {
  agent: { agent: 'coder-1', name: 'coder' },
  approver: { role: 'approver', name: 'bob' },
  overrider: { role: 'overrider', name: 'olga' },
  viewer: { role: 'viewer', name: 'vic' },
  admin: { role: 'admin', name: 'alice' },
};

/** The tokens of `who` for `useConsole`, made in the order named. */
export function castTokens<K extends CastMember>(...who: K[]): Record<K, ConsoleToken> {
  return Object.fromEntries(who.map((key) => [key, CAST[key]])) as Record<K, ConsoleToken>;
}
