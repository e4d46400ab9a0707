// What a transactional run did (layer.ts), as the requests E44 decides: every
// deleted path is `fileDelete`; every path written outside the worktree is
// `fileWriteOutsideWorktree`; every path written that changes what later
// commands run (the profile's control paths) is `workspaceMutation`. Writes
// inside the worktree elsewhere are not gated (G14c) and are only counted.
// A git configuration file is a control path only when what the command left
// in it names a program (a hook folder, a filter, a pager, an ssh command…):
// `git init`, `git clone` and `git config user.email` change nothing that runs.

import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Globs, compilePathPatterns, normalizePath, pathInSet } from '@warden/engine';
import { knobOf } from '../tools/builtin/git-guard.js';
import type { Observed } from './layer.js';
import { absoluteOf } from './layer.js';

/**
 * Whether a git configuration file's text sets anything that makes git run a
 * program, or includes another file. Anything it does not read with
 * certainty (a line of another shape, a continued value) counts as setting one.
 */
export function gitConfigRunsPrograms(text: string): boolean {
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]$/.exec(line);
    if (header !== null) {
      const name = (header[1] as string).toLowerCase();
      if (name === 'include' || name === 'includeif') return true;
      section = header[2] === undefined ? name : `${name}.${header[2]}`;
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (entry === null || section === '' || line.endsWith('\\')) return true;
    if (knobOf(`${section}.${entry[1] as string}`) !== null) return true;
  }
  return false;
}

/** A control path whose change runs nothing: a git configuration that names no program. */
function harmless(path: string, source: string): boolean {
  if (!/(^|\/)\.git\/config$/.test(path)) return false;
  try {
    // Only a file is read: a link could name anything, and what it names may change later.
    if (!lstatSync(source).isFile()) return false;
    return !gitConfigRunsPrograms(readFileSync(source, 'utf8'));
  } catch {
    return false;
  }
}

export interface EffectRequests {
  readonly fileDelete?: { readonly paths: readonly string[]; readonly count: number | null };
  readonly fileWriteOutsideWorktree?: { readonly paths: readonly string[] };
  readonly workspaceMutation?: { readonly paths: readonly string[] };
}

/** What the run did, in numbers, for its record. */
export interface EffectCounts {
  readonly deleted: number | null;
  readonly written: number;
  readonly folders: number;
}

/** The classes effects are decided in, in order. */
export const EFFECT_CLASSES = [
  'fileDelete',
  'fileWriteOutsideWorktree',
  'workspaceMutation',
] as const;
export type EffectClass = (typeof EFFECT_CLASSES)[number];

/** Whether there is anything to decide. */
export function hasEffects(requests: EffectRequests): boolean {
  return EFFECT_CLASSES.some((cls) => requests[cls] !== undefined);
}

/**
 * The requests for what a run did: paths in the worktree relative to it,
 * others absolute; `controlPaths` as a policy writes them (`!` takes one out).
 */
export function effectRequests(
  observed: Observed,
  worktree: string,
  controlPaths: readonly string[],
): { requests: EffectRequests; counts: EffectCounts } {
  const control = compilePathPatterns(controlPaths, new Globs());
  const deleted: string[] = [];
  let count: number | null = 0;
  const outside: string[] = [];
  const mutated: string[] = [];
  let written = 0;
  let folders = 0;
  for (const root of observed.roots) {
    const inWorktree = root.root === worktree;
    const name = (rel: string): string => (inWorktree ? rel : absoluteOf(root.root, rel));
    // A deleted folder is named itself, and with each file it held as far as they were listed.
    const tops = new Set(root.deleted);
    for (const rel of root.deleted) deleted.push(name(rel));
    for (const rel of root.deletedFiles) if (!tops.has(rel)) deleted.push(name(rel));
    count = count === null || root.deletedCount === null ? null : count + root.deletedCount;
    written += root.written.length;
    folders += root.made.length;
    for (const rel of root.made) if (!inWorktree) outside.push(name(rel));
    // A folder made runs nothing; what is written in it may.
    for (const rel of root.written) {
      const path = name(rel);
      if (!inWorktree) outside.push(path);
      if (
        control.positives.length > 0 &&
        pathInSet(normalizePath(path, worktree), control, true) &&
        !harmless(path, join(root.upper, rel))
      )
        mutated.push(path);
    }
  }
  const requests: {
    -readonly [K in keyof EffectRequests]: EffectRequests[K];
  } = {};
  if (deleted.length > 0) requests.fileDelete = { paths: deleted, count };
  if (outside.length > 0) requests.fileWriteOutsideWorktree = { paths: outside };
  if (mutated.length > 0) requests.workspaceMutation = { paths: mutated };
  return { requests, counts: { deleted: count, written, folders } };
}
