// The audit chain (contracts §6): `hash` = SHA-256 of `prevHash` + "\n" + the
// entry's canonical JSON without `hash` and `prevHash`; the first entry's
// `prevHash` is 64 zeros. Verifying names every entry that breaks it.

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

export type BreakKind =
  'changed' | 'out-of-order' | 'missing' | 'truncated' | 'malformed' | 'head-missing';

export interface ChainBreak {
  readonly kind: BreakKind;
  /** 1-based position in the chain (the line of a file). */
  readonly position: number;
  /** The id of the entry that breaks the chain, when it has one. */
  readonly id: string | null;
  readonly message: string;
}

export interface VerifyReport {
  /** True when nothing broke the chain. */
  readonly ok: boolean;
  /** The entries read. */
  readonly entries: number;
  /** The hash the chain ends at, as read. */
  readonly head: string;
  /** The first break, or null. */
  readonly broken: ChainBreak | null;
  /** Every break, in chain order (at most `MAX_BREAKS`). */
  readonly breaks: readonly ChainBreak[];
  /** Breaks found beyond `MAX_BREAKS`, counted but not listed. */
  readonly unlisted: number;
}

/** More breaks than this are counted, not listed: a report of a log rewritten whole stays readable. */
export const MAX_BREAKS = 100_000;

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
 * Walks a chain in order and reports every break: a changed, removed, moved or
 * unreadable entry is named, and the walk goes on from that entry's own link,
 * so tampering further on is found too — one bad entry cannot hide the rest.
 * `expected` is the head the store recorded (or one noted earlier), so entries
 * removed from the end are noticed; null says the store has no head record.
 */
export async function verifyChain(
  items: AsyncIterable<ChainItem> | Iterable<ChainItem>,
  /** The head the chain must end at: the store's record of it, or one noted earlier (`--head`). */
  expected?: { readonly seq?: number; readonly hash: string } | null,
): Promise<VerifyReport> {
  /** The `prevHash` the next entry must have; null after an entry whose own hash cannot be read. */
  let prev: string | null = GENESIS_HASH;
  let last = GENESIS_HASH;
  let prevId: string | null = null;
  let count = 0;
  let lastPosition = 0;
  const breaks: ChainBreak[] = [];
  let unlisted = 0;
  const add = (kind: BreakKind, position: number, id: string | null, message: string): void => {
    if (breaks.length < MAX_BREAKS) breaks.push({ kind, position, id, message });
    else unlisted += 1;
  };
  for await (const item of items) {
    const { entry, position } = item;
    count += 1;
    const id = entry !== null && typeof entry.id === 'string' ? entry.id : null;
    if (position > lastPosition + 1) {
      const gap = position - lastPosition - 1;
      add(
        'missing',
        lastPosition + 1,
        null,
        gap === 1
          ? `entry #${lastPosition + 1} is missing: the chain jumps from #${lastPosition} to ${label(id, position)}`
          : `entries #${lastPosition + 1} to #${position - 1} are missing: the chain jumps from #${lastPosition} to ${label(id, position)}`,
      );
      // The entry after a gap cannot follow what is gone: it is judged by its own link.
      prev = null;
    }
    lastPosition = Math.max(lastPosition, position);
    if (entry === null || item.problem !== undefined) {
      add('malformed', position, id, item.problem ?? `entry #${position}: not an audit entry`);
      const hash = entry?.hash;
      prev = typeof hash === 'string' ? hash : null;
      prevId = id;
      continue;
    }
    if (typeof entry.hash !== 'string' || typeof entry.prevHash !== 'string') {
      add('malformed', position, id, `${label(id, position)} has no \`hash\` or \`prevHash\``);
      prev = typeof entry.hash === 'string' ? entry.hash : null;
      prevId = id;
      continue;
    }
    if (prev !== null && entry.prevHash !== prev) {
      const after = prevId === null ? 'the start of the log' : `\`${prevId}\``;
      add(
        'out-of-order',
        position,
        id,
        `${label(id, position)} does not follow ${after}: an entry before it was removed, inserted, moved or rewritten`,
      );
    }
    let changed = false;
    try {
      changed = chainLink(entry.prevHash, bodyOf(entry)).hash !== entry.hash;
    } catch {
      changed = true; // a body with no canonical form was not written by Warden
    }
    if (changed) {
      add(
        'changed',
        position,
        id,
        `${label(id, position)} was changed: its content does not match its hash`,
      );
    } else if (item.columns !== undefined) {
      const drift = columnDrift(item.columns, bodyOf(entry));
      if (drift !== null)
        add(
          'changed',
          position,
          id,
          `${label(id, position)} was changed in the index: its \`${drift.column}\` reads ${JSON.stringify(drift.stored)}, the entry says ${JSON.stringify(drift.entry)}`,
        );
    }
    // The walk goes on from this entry's link as stored: the next entry is judged on its own.
    prev = entry.hash;
    last = entry.hash;
    prevId = id;
  }
  if (expected === null) {
    add(
      'head-missing',
      lastPosition + 1,
      null,
      'the audit log has no head record: it was removed, so entries cut from the end of the log cannot be noticed',
    );
  } else if (expected !== undefined) {
    if (expected.seq !== undefined && expected.seq !== lastPosition) {
      add(
        'truncated',
        lastPosition + 1,
        null,
        expected.seq > lastPosition
          ? `the log ends at #${lastPosition}, but its head records #${expected.seq}: entries at the end were removed`
          : `the log goes on to #${lastPosition}, but its head records #${expected.seq}: entries were added past the head, or the head was moved back`,
      );
    } else if (expected.hash !== last) {
      add(
        'truncated',
        lastPosition + 1,
        null,
        `the log ends at #${lastPosition} with hash ${last.slice(0, 16)}…, not at the head ${expected.hash.slice(0, 16)}…: entries at the end were removed or replaced`,
      );
    }
  }
  return {
    ok: breaks.length === 0 && unlisted === 0,
    entries: count,
    head: last,
    broken: breaks[0] ?? null,
    breaks,
    unlisted,
  };
}
