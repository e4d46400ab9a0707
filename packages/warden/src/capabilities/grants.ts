// Why this file exists: a granted command (G2) runs under a sandbox profile
// made from the decision that allowed it. The grant's key, and checking a
// grant against its decision and claiming it once, are a capability of the
// `Warden` facade (`warden.grants`), so the server never holds the secrets.

import type { Gate } from '../gate/gate.js';
import { grantKey } from '../sandbox/grant.js';
import type { GrantedRun } from '../sandbox/profile.js';
import { grantedRun } from '../sandbox/profile.js';
import type { Store } from '../store/types.js';

export class Grants {
  constructor(
    private readonly parts: {
      readonly store: Pick<Store, 'secrets' | 'audit' | 'grants'>;
      readonly gate: Gate;
    },
  ) {}

  /** The key grants are signed with (made the first time it is asked for). */
  key(): Promise<Buffer> {
    return grantKey(this.parts.store.secrets);
  }

  /** Checks a grant against its decision and claims it: the run it allows, or why not. */
  run(
    grant: string,
    call: Parameters<typeof grantedRun>[2],
    options: { readonly denyRead?: readonly string[] } = {},
  ): Promise<{ ok: true; run: GrantedRun } | { ok: false; problem: string }> {
    const { store, gate } = this.parts;
    return grantedRun(
      {
        secrets: store.secrets,
        audit: store.audit,
        grants: store.grants,
        snapshot: (workspace) => gate.snapshot(workspace),
        ...(options.denyRead === undefined ? {} : { denyRead: options.denyRead }),
      },
      grant,
      call,
    );
  }
}
