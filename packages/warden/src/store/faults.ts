// What a failed write says about itself: an entry the database refuses (a
// duplicate id, a value it cannot hold) fails that entry alone, where a lost
// connection, a full disk or a database that stopped answering fails every
// write alike. The audit writer retries a batch entry by entry only in the
// first case: retrying against a database that is gone would hold every
// caller for a connection timeout per entry.

/** Postgres SQLSTATE classes caused by the data written: data exception, integrity constraint, program limit. */
const PG_ENTRY_CLASSES = ['22', '23', '54'];

/** SQLite result codes caused by the data written. */
const SQLITE_ENTRY_CODES = /^SQLITE_(?:CONSTRAINT|TOOBIG|MISMATCH|RANGE)/;

/** The driver's code of an error, when it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether the write failed because of what was written, not because the database is unavailable. */
export function entrySpecific(error: unknown): boolean {
  // Turning an entry into its stored form failed before the database saw it.
  if (error instanceof TypeError || error instanceof RangeError) return true;
  const code = errorCode(error);
  if (code === undefined) return false;
  if (SQLITE_ENTRY_CODES.test(code)) return true;
  return /^[0-9A-Z]{5}$/.test(code) && PG_ENTRY_CLASSES.includes(code.slice(0, 2));
}

/** Postgres SQLSTATE classes of an unavailable database: connection, resources, operator intervention, system. */
const PG_UNAVAILABLE_CLASSES = ['08', '53', '57', '58', 'XX'];

const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const SQLITE_UNAVAILABLE =
  /^SQLITE_(?:BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL|NOMEM|CORRUPT|NOTADB)/;

const UNAVAILABLE_MESSAGE =
  /connection terminated|connection ended|connection error|timeout exceeded when trying to connect|query read timeout|cannot use a pool after calling end|database connection is not open|driver has already been destroyed|the audit writer (?:failed|stopped)/i;

/** Whether an error says the database is unavailable (gone, full, locked, stopped answering), not that a request was wrong. */
export function storeUnavailable(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== undefined) {
    if (NET_CODES.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && PG_UNAVAILABLE_CLASSES.includes(code.slice(0, 2)))
      return true;
  }
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGE.test(message);
}
