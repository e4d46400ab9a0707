// Versioned migrations, run on start by both backends. A migration is never
// edited once released: a change to the schema is a new entry at the end.

import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { Migrator, SqliteAdapter, sql } from 'kysely';

const GENESIS = '0'.repeat(64);

// Migrations see the database untyped: the schema they build is the one `schema.ts` describes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs before the typed schema exists
type Db = Kysely<any>;

const initial: Migration = {
  async up(db: Db) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('state_versions')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .execute();

    for (const table of ['policy_revisions', 'managed_revisions']) {
      await db.schema
        .createTable(table)
        .addColumn('workspace', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['workspace', 'revision'])
        .execute();
    }

    await db.schema
      .createTable('stored_rules')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('workspace', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('rule', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('expires_at_ms', 'bigint')
      .addColumn('approval_id', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('revoked_by', 'text')
      .addPrimaryKeyConstraint('stored_rules_pk', ['workspace', 'id'])
      .execute();

    await db.schema
      .createTable('agents')
      .addColumn('workspace', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('role', 'text')
      .addColumn('space', 'text')
      .addColumn('model', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('agents_pk', ['workspace', 'id'])
      .execute();

    await db.schema
      .createTable('approvals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('tool', 'text')
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('decision_id', 'text', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('decision', 'text', (c) => c.notNull())
      .addColumn('offer', 'text')
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('arguments', 'text', (c) => c.notNull())
      .addColumn('stamp', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('answer', 'text')
      .addColumn('answered_at', 'text')
      .addColumn('answered_at_ms', 'bigint')
      .addColumn('closed_reason', 'text')
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createIndex('approvals_by_state')
      .on('approvals')
      .columns(['workspace', 'state', 'created_at_ms'])
      .execute();
    await db.schema
      .createIndex('approvals_by_fingerprint')
      .on('approvals')
      .columns(['workspace', 'fingerprint'])
      .execute();

    await db.schema
      .createTable('approver_presence')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('node', 'text', (c) => c.notNull())
      .addColumn('last_seen_ms', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('audit_entries')
      // On SQLite an `integer primary key` is the row id itself: one B-tree less per entry.
      .addColumn('seq', sqlite ? 'integer' : 'bigint', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('workspace', 'text')
      .addColumn('agent_id', 'text')
      .addColumn('run_id', 'text')
      .addColumn('call_id', 'text')
      .addColumn('decision_id', 'text')
      .addColumn('tool', 'text')
      .addColumn('status', 'text')
      .addColumn('occurred_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('entry', 'text', (c) => c.notNull())
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('audit_by_agent')
      .on('audit_entries')
      .columns(['agent_id', 'occurred_at_ms'])
      .execute();
    await db.schema.createIndex('audit_by_call').on('audit_entries').column('call_id').execute();

    await db.schema
      .createTable('audit_head')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .execute();
    await db.insertInto('audit_head').values({ id: 1, seq: 0, hash: GENESIS }).execute();

    await db.schema
      .createTable('runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('model', 'text')
      .addColumn('task_id', 'text')
      .addColumn('parent_run_id', 'text')
      .addColumn('chain', 'text', (c) => c.notNull())
      .addColumn('depth', 'integer', (c) => c.notNull())
      .addColumn('autonomy', 'text', (c) => c.notNull())
      .addColumn('budget_cents', 'bigint')
      .addColumn('delegated_cents', 'bigint', (c) => c.notNull())
      .addColumn('cost_cents', 'bigint', (c) => c.notNull())
      .addColumn('tokens_in', 'bigint', (c) => c.notNull())
      .addColumn('tokens_out', 'bigint', (c) => c.notNull())
      .addColumn('steps', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('ended_at', 'text')
      .execute();
    await db.schema
      .createIndex('runs_by_agent')
      .on('runs')
      .columns(['workspace', 'agent', 'started_at_ms'])
      .execute();

    await db.schema
      .createTable('run_steps')
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('tool', 'text')
      .addColumn('tokens_in', 'bigint', (c) => c.notNull())
      .addColumn('tokens_out', 'bigint', (c) => c.notNull())
      .addColumn('cost_cents', 'bigint', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addPrimaryKeyConstraint('run_steps_pk', ['run_id', 'seq'])
      .execute();

    await db.schema
      .createTable('tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text')
      .addColumn('due_at_ms', 'bigint')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('done_at', 'text')
      .addColumn('note', 'text')
      .execute();
    await db.schema
      .createIndex('tasks_by_agent')
      .on('tasks')
      .columns(['workspace', 'agent', 'state'])
      .execute();
  },
};

/** API tokens (contracts §8): hashed at rest, each with one role and, for agents, the identity it stamps. */
const tokens: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('workspace', 'text')
      .addColumn('agent', 'text')
      .addColumn('space', 'text')
      .addColumn('mode', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
  },
};

/**
 * Reports and messages for the human (I10, I11). The unique key on
 * (supervisor, scheduled_for) makes a scheduled report land once when several
 * servers share the database and run the same schedule; a message or a report
 * made by hand has no instant (null), and nulls never collide.
 */
const reports: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('reports')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace', 'text')
      .addColumn('supervisor', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('data', 'text')
      .addColumn('window_since', 'text')
      .addColumn('window_until', 'text')
      .addColumn('scheduled_for', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('reports_once')
      .on('reports')
      .columns(['supervisor', 'scheduled_for'])
      .unique()
      .execute();
    await db.schema
      .createIndex('reports_by_time')
      .on('reports')
      .columns(['created_at_ms', 'id'])
      .execute();
  },
};

/** An agent's registered mode (contracts §8): a token bound to no mode acts in it. */
const agentMode: Migration = {
  async up(db: Db) {
    await db.schema.alterTable('agents').addColumn('mode', 'text').execute();
  },
};

/** Keys this deployment makes for itself, such as the one that signs `warden exec` grants. */
const instanceSecrets: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('instance_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/** Agents and workspaces an admin froze (the kill switch): every call is denied until thawed. */
const freezes: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('freezes')
      .addColumn('workspace', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('frozen_by', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('frozen_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('freezes_pk', ['workspace', 'agent'])
      .execute();
  },
};

/** The gateway's downstream tools pinned by definition: a changed one waits for an admin. */
const toolPins: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('tool_pins')
      .addColumn('workspace', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('pinned_at', 'text', (c) => c.notNull())
      .addColumn('pinned_by', 'text', (c) => c.notNull())
      .addColumn('pending_hash', 'text')
      .addColumn('pending_definition', 'text')
      .addColumn('pending_at', 'text')
      .addPrimaryKeyConstraint('tool_pins_pk', ['workspace', 'tool'])
      .execute();
  },
};

/** A token may expire: after `expires_at` (ISO 8601, UTC) it is refused; null never expires. */
const tokenExpiry: Migration = {
  async up(db: Db) {
    await db.schema.alterTable('api_tokens').addColumn('expires_at', 'text').execute();
  },
};

/** A `warden exec` grant is claimed before its command runs: one row per decision, never two. */
const grantClaims: Migration = {
  async up(db: Db) {
    await db.schema
      .createTable('grant_claims')
      .addColumn('decision_id', 'text', (c) => c.primaryKey())
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      .execute();
  },
};

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_tokens': tokens,
  '0003_reports': reports,
  '0004_agent_mode': agentMode,
  '0005_instance_secrets': instanceSecrets,
  '0006_freezes': freezes,
  '0007_tool_pins': toolPins,
  '0008_token_expiry': tokenExpiry,
  '0009_grant_claims': grantClaims,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};

/** Whether every migration is recorded as run, by one read of the bookkeeping table. */
async function upToDate(db: Db, schema: string | undefined): Promise<boolean> {
  const table =
    schema === undefined ? sql.id('warden_migrations') : sql.id(schema, 'warden_migrations');
  let rows: { name: unknown }[];
  try {
    rows = (await sql<{ name: unknown }>`select name from ${table}`.execute(db)).rows;
  } catch {
    // No bookkeeping table yet: a new database.
    return false;
  }
  const done = new Set(rows.map((row) => row.name));
  const known = Object.keys(MIGRATIONS);
  // Anything else (a migration missing, or one this version does not know) is the migrator's to judge.
  return done.size === known.length && known.every((name) => done.has(name));
}

/**
 * Brings the schema up to date; fails with the migration's error, naming it.
 * On Postgres the bookkeeping tables live in Warden's own schema, so other
 * schemas of the database (another deployment's, say) never confuse it.
 */
export async function migrate(db: Db, schema?: string): Promise<string[]> {
  // Most opens find the schema up to date: one read says so, without the migrator's lock.
  if (await upToDate(db, schema)) return [];
  const migrator = new Migrator({
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
    db,
    provider,
    migrationTableName: 'warden_migrations',
    migrationLockTableName: 'warden_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined) {
    const name = failed === undefined ? '' : ` \`${failed.migrationName}\``;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot migrate the database${name}: ${message}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
