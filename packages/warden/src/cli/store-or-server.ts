// Where a CLI command that changes or reads server state acts: on a server
// (`--server` or WARDEN_URL, with a token) or straight in the data folder (or
// DATABASE_URL's Postgres), where a running server reads the change within
// a second. The freeze and pin commands share it. Warden loads only when a
// command acts in the data folder.

import type { Warden } from '../warden.js';
import type { ConnectOptions } from './client.js';
import type { Io } from './io.js';
import { fail, usage } from './io.js';
import { GateFault } from '../gate/fault.js';

export interface Where extends ConnectOptions {
  readonly workspace?: string;
  readonly data?: string;
}

export function useServer(io: Io, options: Where): boolean {
  return (
    options.server !== undefined ||
    (options.data === undefined && io.env.WARDEN_URL !== undefined && io.env.WARDEN_URL !== '')
  );
}

/**
 * The data folder's Warden (or DATABASE_URL's), or a usage error saying why
 * it cannot open. Its managed layer is the one a server on the folder reads:
 * WARDEN_MANAGED_POLICY's file when set, else the stored one.
 */
export async function openLocal(io: Io, json: boolean, data: string | undefined): Promise<Warden> {
  const { openWardenFor } = await import('./open.js');
  const managed = io.env.WARDEN_MANAGED_POLICY;
  return openWardenFor(io, data, {
    json,
    warden: {
      env: managed === undefined || managed === '' ? {} : { WARDEN_MANAGED_POLICY: managed },
    },
  });
}

/** The flag or setting a fault of the data folder's Warden is about. */
const FAULT_PATH: Partial<Record<GateFault['code'], string>> = {
  'policy-missing': '--workspace',
  'policy-invalid': '--workspace',
  'managed-invalid': 'WARDEN_MANAGED_POLICY',
};

/** Runs `work` on the data folder's store, closing it after. */
export async function local<T>(
  io: Io,
  json: boolean,
  options: Where,
  work: (warden: Warden, workspace: string) => Promise<T>,
): Promise<T> {
  const warden = await openLocal(io, json, options.data);
  try {
    let workspace = options.workspace;
    if (workspace === undefined) {
      const known = await warden.store.policies.workspaces();
      if (known.length !== 1)
        return usage(
          io,
          json,
          '--workspace',
          known.length === 0
            ? 'no workspace has a policy in this store: say which workspace with --workspace'
            : `say which workspace with --workspace: ${known.map((w) => `\`${w}\``).join(', ')}`,
        );
      workspace = known[0] as string;
    }
    try {
      return await work(warden, workspace);
    } catch (error) {
      // The store is down, or holds no policy for the workspace: said as such, never as a crash.
      if (!(error instanceof GateFault)) throw error;
      return fail(io, json, [
        {
          code: 'invalid_value',
          path: FAULT_PATH[error.code] ?? '--data',
          message: error.message,
        },
      ]);
    }
  } finally {
    await warden.close();
  }
}

export function query(options: Where): string {
  return options.workspace === undefined
    ? ''
    : `?workspace=${encodeURIComponent(options.workspace)}`;
}
