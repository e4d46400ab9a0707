// Keys the deployment makes for itself (the one that signs `warden exec`
// grants): made once by whichever node needs one first, then read by all.

import type { SecretStore } from '../types.js';
import type { SqlContext } from './context.js';

export class SqlSecretStore implements SecretStore {
  private readonly known = new Map<string, string>();

  constructor(private readonly ctx: SqlContext) {}

  async ensure(name: string, make: () => string): Promise<string> {
    const cached = this.known.get(name);
    if (cached !== undefined) return cached;
    const read = async (): Promise<string | undefined> =>
      (
        await this.ctx.db
          .selectFrom('instance_secrets')
          .select('value')
          .where('name', '=', name)
          .executeTakeFirst()
      )?.value;
    let value = await read();
    if (value === undefined) {
      const made = make();
      // Two nodes making one at once: the first one written is everyone's.
      await this.ctx.write((tx) =>
        tx
          .insertInto('instance_secrets')
          .values({ name, value: made, created_at: new Date().toISOString() })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute(),
      );
      value = await read();
      if (value === undefined) throw new Error(`the secret \`${name}\` could not be kept`);
    }
    this.known.set(name, value);
    return value;
  }
}
