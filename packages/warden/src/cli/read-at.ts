// `--at`, read alike by every command that decides or judges expiry at a
// time: `explain`, `check`, and the policy commands. It needs the engine's
// timestamp reader, so a command loads it when it runs.

import { parseTimestamp } from '@warden/engine';
import type { Io } from './io.js';
import { usage } from './io.js';

/** Reads `--at`; a timestamp without a zone is a usage error (E31). */
export function readAt(io: Io, json: boolean, at: string | undefined): number {
  if (at === undefined) return io.now();
  const parsed = parseTimestamp(at);
  if (typeof parsed === 'number') return parsed;
  return usage(io, json, '--at', parsed.problem);
}
