// The server's configuration as a command reads it (`warden serve`, `warden
// report --config`): from a file, the environment and flags, every problem
// with it printed as a usage error. The configuration module loads when a
// command reads it.

import type { ConfigFlags, ServerConfig } from '../server/config.js';
import type { Io } from './io.js';
import { fail } from './io.js';

/** The configuration `flags` and the environment give, or exit 1 with every problem in it. */
export async function readServerConfig(
  io: Io,
  json: boolean,
  flags: ConfigFlags,
): Promise<ServerConfig> {
  const { loadConfig } = await import('../server/config.js');
  const loaded = loadConfig(flags, io.env);
  if (!loaded.ok)
    return fail(
      io,
      json,
      loaded.problems.map((p) => ({ code: 'invalid_value' as const, ...p })),
    );
  return loaded.config;
}
