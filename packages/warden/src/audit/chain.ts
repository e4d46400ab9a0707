// The audit chain (contracts §6): `hash` = SHA-256 of `prevHash` + "\n" + the
// entry's canonical JSON without `hash` and `prevHash`; the first entry's
// `prevHash` is 64 zeros. Verifying names the first entry that breaks it.

import { createHash } from 'node:crypto';
import { canonicalJson } from '@warden/engine';
import type { JsonValue } from '../store/types.js';
import { columnDrift } from './columns.js';

export const GENESIS_HASH = '0'.repeat(64);

export interface ChainLink {
  /** The entry's canonical JSON (what is hashed and stored). */
  readonly canonical: string;
  readonly hash: string;
}

/** The hash of an entry, given the one before it and the entry's canonical JSON. */
export function linkHash(prevHash: string, canonical: string): string {
  return createHash('sha256').update(`${prevHash}\n${canonical}`).digest('hex');
}

export function chainLink(
  prevHash: string,
  body: { readonly [key: string]: JsonValue },
): ChainLink {
  const canonical = canonicalJson(body);
  return { canonical, hash: linkHash(prevHash, canonical) };
}

/** An entry without its chain fields: what its hash covers. */
export function bodyOf(entry: { readonly [key: string]: unknown }): { [key: string]: JsonValue } {
  const body: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key !== 'hash' && key !== 'prevHash') body[key] = value as JsonValue;
  }
  return body;
}

export type BreakKind = 'changed' | 'out-of-order' | 'missing' | 'truncated' | 'malformed';

export interface ChainBreak {
  readonly kind: BreakKind;
  /** 1-based position in the chain (the line of a file). */
  readonly position: number;
  /** The id of the entry that breaks the chain, when it has one. */
  readonly id: string | null;
  readonly message: string;
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly entries: number;
  readonly head: string;
  readonly broken: ChainBreak | null;
}

export interface ChainItem {
  /** The entry as read; null when the line was not an entry at all. */
  readonly entry: { readonly [key: string]: unknown } | null;
  /** Where it stands: the stored sequence number or the line number. */
  readonly position: number;
  readonly problem?: string;
  /** The columns a store indexes the entry by: they must say what the entry says. */
  readonly columns?: { readonly [column: string]: unknown };
}

function label(id: string | null, position: number): string {
  return id === null ? `entry #${position}` : `entry \`${id}\` (#${position})`;
}

/**
 * Walks a chain in order and reports the first break. `expected` is the head
 * the store recorded, so entries removed from the end are noticed too.
 */
export async function verifyChain(
  items: AsyncIterable<ChainItem> | Iterable<ChainItem>,
  /** The head the chain must end at: the store's record of it, or one noted earlier (`--head`). */
  expected?: { readonly seq?: number; readonly hash: string },
): Promise<VerifyReport> {
  let prev = GENESIS_HASH;
  let prevId: string | null = null;
  let count = 0;
  let lastPosition = 0;
  const fail = (
    kind: BreakKind,
    position: number,
    id: string | null,
    message: string,
  ): VerifyReport => ({
    ok: false,
    entries: count,
    head: prev,
    broken: { kind, position, id, message },
  });
  for await (const item of items) {
    const { entry, position } = item;
    if (entry === null)
      return fail(
        'malformed',
        position,
        null,
        `entry #${position}: ${item.problem ?? 'not an audit entry'}`,
      );
    const id = typeof entry.id === 'string' ? entry.id : null;
    if (position !== lastPosition + 1) {
      return fail(
        'missing',
        lastPosition + 1,
        null,
        `entry #${lastPosition + 1} is missing: the chain jumps from #${lastPosition} to ${label(id, position)}`,
      );
    }
    if (typeof entry.hash !== 'string' || typeof entry.prevHash !== 'string')
      return fail(
        'malformed',
        position,
        id,
        `${label(id, position)} has no \`hash\` or \`prevHash\``,
      );
    if (entry.prevHash !== prev) {
      const after = prevId === null ? 'the start of the log' : `\`${prevId}\``;
      return fail(
        'out-of-order',
        position,
        id,
        `${label(id, position)} does not follow ${after}: an entry before it was removed, inserted or moved`,
      );
    }
    const link = chainLink(entry.prevHash, bodyOf(entry));
    if (link.hash !== entry.hash)
      return fail(
        'changed',
        position,
        id,
        `${label(id, position)} was changed: its content does not match its hash`,
      );
    if (item.columns !== undefined) {
      const drift = columnDrift(item.columns, bodyOf(entry));
      if (drift !== null)
        return fail(
          'changed',
          position,
          id,
          `${label(id, position)} was changed in the index: its \`${drift.column}\` reads ${JSON.stringify(drift.stored)}, the entry says ${JSON.stringify(drift.entry)}`,
        );
    }
    prev = entry.hash;
    prevId = id;
    count += 1;
    lastPosition = position;
  }
  if (expected !== undefined && expected.seq !== undefined && expected.seq !== lastPosition) {
    return fail(
      'truncated',
      lastPosition + 1,
      null,
      `the log ends at #${lastPosition}, but its head records #${expected.seq}: entries at the end were removed`,
    );
  }
  if (expected !== undefined && expected.hash !== prev) {
    return fail(
      'truncated',
      lastPosition + 1,
      null,
      `the log ends at #${lastPosition} with hash ${prev.slice(0, 16)}…, not at the head ${expected.hash.slice(0, 16)}…: entries at the end were removed or replaced`,
    );
  }
  return { ok: true, entries: count, head: prev, broken: null };
}
