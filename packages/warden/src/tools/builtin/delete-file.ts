// `delete_file`: gated as `fileDelete` with the path and how many files go
// (G14c, G17), and recoverable — the entry is moved into the worktree's
// `.trash/<stamp>/` by the shared module (I5), never unlinked.

import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Confinement } from '../../paths/index.js';
import {
  checkLexical,
  listConfined,
  quote,
  trashConfined,
  WORKTREE_TRASH,
  linkRefusal,
  walk,
} from '../../paths/index.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool, ToolRefusal } from '../registry.js';
import type { BuiltinOptions } from './options.js';
import { accepted, callConfinement, settings } from './options.js';
import { builtinDeclaration } from './classes.js';

const schema = z.strictObject({
  path: z.string().min(1).describe('a file or folder relative to the worktree root'),
});
export type DeleteFileArgs = z.infer<typeof schema>;

export interface DeleteFileResult {
  readonly path: string;
  /** Where it lies now, relative to the worktree root: `.trash/<stamp>/<path>`. */
  readonly trashedAs: string;
  readonly note: string;
}

/** Beyond this many entries a folder is not counted: its count is left absent (E26), so a cap escalates (G18). */
const MAX_COUNTED = 100_000;

/**
 * Files below a folder, links counted as files and never followed;
 * `undefined` when unknown. A listing is capped one entry beyond what is
 * left to count, so a cut listing is seen as too many, never as fewer; a
 * listing that cannot be made, or that leaves out names no path can give
 * (each could be a folder of any size), leaves the count unknown too (G17).
 */
async function countFiles(c: Confinement, folder: string): Promise<number | undefined> {
  let files = 0;
  let seen = 0;
  const pending = [folder];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const listing = await listConfined(c, next, { maxEntries: MAX_COUNTED - seen + 1 });
    if (!listing.ok || listing.value.truncated || listing.value.omitted > 0) return undefined;
    seen += listing.value.entries.length;
    if (seen > MAX_COUNTED) return undefined;
    for (const entry of listing.value.entries) {
      if (entry.type === 'directory') pending.push(`${next}/${entry.name}`);
      else files += 1;
    }
  }
  return files;
}

/** What a delete would move: the entry itself (a link is not followed) and its real place below the root. */
interface Entry {
  readonly real: string;
  readonly folder: boolean;
}

/** The shared walk to the entry, never a listing: whether it exists is asked of the entry itself. */
async function findEntry(
  c: Confinement,
  segments: readonly string[],
  shown: string,
): Promise<Entry> {
  const walked = accepted(await walk(c, segments, shown, { last: 'entry' }));
  await walked.dir.close();
  if (walked.stat === undefined) {
    throw new ToolRefusal(
      walked.viaLink ? linkRefusal(shown).problem.message : `path ${shown} does not exist`,
    );
  }
  return { real: walked.segments.join('/'), folder: walked.stat.isDirectory() };
}

/** A fresh trash segment per deletion: sortable by time, unique by a random tail. */
function trashStamp(): string {
  const time = new Date().toISOString().replace(/[-:.]/g, '');
  return `${time}-${randomBytes(3).toString('hex')}`;
}

export function deleteFileTool(
  options: BuiltinOptions = {},
): ToolDefinition<DeleteFileArgs, DeleteFileResult> {
  const s = settings(options);
  return defineTool({
    ...builtinDeclaration('delete_file'),
    description:
      'Deletes a file or folder inside the worktree by moving it into `.trash/`, from where it can be restored.',
    schema,
    extract: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const { rel, segments } = accepted(checkLexical(c, args.path));
      if (segments.length === 0) throw new ToolRefusal('the worktree root cannot be deleted');
      const entry = await findEntry(c, segments, quote(args.path));
      // A folder link on the way moves the entry from its real place: name that place too.
      const paths = entry.real === rel ? [rel] : [rel, entry.real];
      const count = entry.folder ? await countFiles(c, entry.real) : 1;
      return {
        actions: ['fileDelete'],
        args: { paths, ...(count === undefined ? {} : { count }) },
      };
    },
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const trashed = accepted(
        await trashConfined(c, args.path, { segments: WORKTREE_TRASH, stamp: trashStamp() }),
      );
      return {
        path: trashed.rel,
        trashedAs: trashed.trashedAs,
        note: `moved to ${quote(trashed.trashedAs)}: move it back to restore it`,
      };
    },
  });
}
