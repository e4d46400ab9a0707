// One store over Kysely: the same tables and queries for SQLite and Postgres;
// the backends differ only in how they open, lock and tell other processes.

import type { Backend, Events, Store } from '../types.js';
import { SqlAgentStore } from './agents.js';
import { SqlApprovalStore } from './approvals.js';
import { SqlFreezeStore } from './freezes.js';
import { SqlToolPinStore } from './tool-pins.js';
import type { AuditAppender } from './audit.js';
import { SqlAuditStore } from './audit.js';
import type { Db, SqlContext } from './context.js';
import { readVersion } from './context.js';
import { SqlPolicyStore } from './policies.js';
import { SqlPresenceStore } from './presence.js';
import { SqlReportStore } from './reports.js';
import { SqlRuleStore } from './rules.js';
import { SqlRunStore } from './runs.js';
import { SqlGrantStore } from './grants.js';
import { SqlSecretStore } from './secrets.js';
import { SqlTaskStore } from './tasks.js';
import { SqlTokenStore } from './tokens.js';

export interface SqlStoreParts {
  readonly backend: Backend;
  readonly location: string;
  readonly db: Db;
  readonly write: SqlContext['write'];
  readonly events: Events;
  readonly close: () => Promise<void>;
  /** Links and writes audit batches elsewhere (the SQLite writer thread). */
  readonly auditAppender?: AuditAppender | null;
}

export function sqlStore(parts: SqlStoreParts): Store {
  const ctx: SqlContext = {
    backend: parts.backend,
    db: parts.db,
    write: parts.write,
    notify: (topic, workspace, id) => {
      // Telling others is best effort: they poll as well, so a lost notice only delays them.
      parts.events
        .publish({ topic, workspace, ...(id === undefined ? {} : { id }) })
        .catch(() => undefined);
    },
  };
  let closed: Promise<void> | null = null;
  return {
    backend: parts.backend,
    location: parts.location,
    policies: new SqlPolicyStore(ctx),
    rules: new SqlRuleStore(ctx),
    agents: new SqlAgentStore(ctx),
    approvals: new SqlApprovalStore(ctx),
    presence: new SqlPresenceStore(ctx),
    audit: new SqlAuditStore(ctx, parts.auditAppender ?? null),
    runs: new SqlRunStore(ctx),
    tasks: new SqlTaskStore(ctx),
    tokens: new SqlTokenStore(ctx),
    reports: new SqlReportStore(ctx),
    secrets: new SqlSecretStore(ctx),
    grants: new SqlGrantStore(ctx),
    freezes: new SqlFreezeStore(ctx),
    toolPins: new SqlToolPinStore(ctx),
    events: parts.events,
    stateVersion: (key) => readVersion(parts.db, key),
    close: () => (closed ??= parts.close()),
  };
}
