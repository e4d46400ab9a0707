// One contract, every backend (STYLE 6): SQLite and Postgres run exactly these
// tests. Each part of the store has a case module in store-contract/ that
// declares its tests against an `open` function, and this file runs every
// module on each backend, as Hono runs its `common.case.test.ts` on each of
// its routers. A skip states its reason; under CI a missing Postgres fails.

import { afterEach, describe } from 'vitest';
import type { Store } from '../../src/store/types.js';
import type { Backend } from '../support/backends.js';
import { BACKENDS } from '../support/backends.js';
import { agentCases } from './store-contract/agents.js';
import { agreementCases } from './store-contract/agreement.js';
import { approvalCases } from './store-contract/approvals.js';
import { auditCases } from './store-contract/audit.js';
import { eventCases } from './store-contract/events.js';
import type { Cases, Open } from './store-contract/fixtures.js';
import { freezeCases } from './store-contract/freezes.js';
import { grantCases } from './store-contract/grants.js';
import { lifecycleCases } from './store-contract/lifecycle.js';
import { policyCases } from './store-contract/policies.js';
import { presenceCases } from './store-contract/presence.js';
import { reportCases } from './store-contract/reports.js';
import { ruleCases } from './store-contract/rules.js';
import { runCases } from './store-contract/runs.js';
import { secretCases } from './store-contract/secrets.js';
import { stateVersionCases } from './store-contract/state-version.js';
import { taskCases } from './store-contract/tasks.js';
import { tokenCases } from './store-contract/tokens.js';
import { toolPinCases } from './store-contract/tool-pins.js';

/** Every part of `Store`, by the name it has there. */
const PARTS: readonly (readonly [string, Cases])[] = [
  ['store', lifecycleCases],
  ['policies', policyCases],
  ['rules', ruleCases],
  ['agents', agentCases],
  ['approvals', approvalCases],
  ['presence', presenceCases],
  ['audit', auditCases],
  ['runs', runCases],
  ['tasks', taskCases],
  ['tokens', tokenCases],
  ['reports', reportCases],
  ['secrets', secretCases],
  ['grants', grantCases],
  ['freezes', freezeCases],
  ['toolPins', toolPinCases],
  ['events', eventCases],
  ['stateVersion', stateVersionCases],
];

/**
 * The `open` of one backend: within a test, the first call opens a store on
 * fresh data and each later call another instance on the same data; `close`
 * closes them all and removes the data.
 */
function opener(backend: Backend): { readonly open: Open; close(): Promise<void> } {
  let first: ReturnType<Backend['open']> | null = null;
  const others: Store[] = [];
  return {
    async open() {
      if (first === null) {
        first = backend.open();
        return (await first).store;
      }
      const store = await (await first).reopen();
      others.push(store);
      return store;
    },
    async close() {
      const opened = first;
      first = null;
      for (const store of others.splice(0)) await store.close();
      if (opened !== null) await (await opened).cleanup();
    },
  };
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== null)(`store contract on ${backend.name}`, () => {
    const { open, close } = opener(backend);
    afterEach(close);
    for (const [part, cases] of PARTS) describe(part, () => cases(open));
  });
}

const [sqliteBackend, postgresBackend] = ['sqlite', 'postgres'].map((name) => {
  const backend = BACKENDS.find((b) => b.name === name);
  if (backend === undefined) throw new Error(`no test backend \`${name}\``);
  return backend;
}) as [Backend, Backend];

describe.skipIf(sqliteBackend.skip !== null || postgresBackend.skip !== null)(
  'store contract: SQLite and Postgres agree',
  () => {
    const sqlite = opener(sqliteBackend);
    const postgres = opener(postgresBackend);
    afterEach(async () => {
      await sqlite.close();
      await postgres.close();
    });
    agreementCases(sqlite.open, postgres.open);
  },
);
