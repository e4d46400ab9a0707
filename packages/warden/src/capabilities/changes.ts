// Why this file exists: every admin change (a policy revision, a freeze, a
// thaw, a revoked rule, an accepted tool pin) is recorded in the audit log
// the same way. The capabilities that make such changes share this one
// writer of change entries, so the record's shape lives in one place.

import type { ChangeRecord } from '../audit/records.js';
import { changeEntry } from '../audit/records.js';
import type { AuditWriter } from '../audit/writer.js';
import { newId } from '../ids.js';
import type { JsonValue } from '../store/types.js';

export type Change = Exclude<ChangeRecord['change'], 'rules-remembered'>;

/** Records an admin's change in the audit log, stamped with the Warden's clock. */
export class ChangeLog {
  constructor(
    private readonly writer: AuditWriter,
    private readonly clock: () => number,
  ) {}

  async record(
    workspace: string | null,
    change: Change,
    by: string,
    details: { [key: string]: JsonValue },
  ): Promise<void> {
    await this.writer.append([
      changeEntry({
        id: newId(),
        workspace,
        change,
        by,
        details,
        occurredAt: new Date(this.clock()).toISOString(),
      }),
    ]);
  }
}
