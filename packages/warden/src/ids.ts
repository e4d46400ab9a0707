// Ids for entries, decisions, calls, approvals and runs: ULIDs, sortable by
// time. Their random part comes from a pooled buffer of cryptographic random
// bytes, so making one costs a lookup rather than a system call per character.

import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const POOL = new Uint32Array(1024);
let next = POOL.length;

function pooledRandom(): number {
  if (next >= POOL.length) {
    randomFillSync(POOL);
    next = 0;
  }
  return (POOL[next++] as number) / 0x1_0000_0000;
}

/** A new ULID, later than every one this process made before. */
export const newId: () => string = monotonicFactory(pooledRandom);
