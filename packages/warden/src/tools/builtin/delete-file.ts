// `delete_file`: gated as `fileDelete` with the path and how many files go
// (G14c, G17), and recoverable — the entry is moved into the worktree's
// `.trash/<stamp>/` by the shared module (I5), never unlinked.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { Confinement } from '../../paths/index.js';
import { checkLexical, listConfined, trashConfined, WORKTREE_TRASH } from '../../paths/index.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool, ToolRefusal } from '../registry.js';
import { below, realFolder } from './landing.js';
import type { BuiltinOptions } from './options.js';
import { accepted, callConfinement, settings } from './options.js';

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

/** Beyond this many files a folder's count is left unknown, so a cap escalates (E26). */
const MAX_COUNTED = 100_000;

/** Files below a folder, links counted as files and never followed; `undefined` when unknown. */
async function countFiles(c: Confinement, folder: string): Promise<number | undefined> {
  let count = 0;
  const pending = [folder];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const listing = await listConfined(c, next);
    if (!listing.ok) return undefined;
    count += listing.value.omitted;
    for (const entry of listing.value.entries) {
      if (entry.type === 'directory') pending.push(`${next}/${entry.name}`);
      else count += 1;
    }
    if (count > MAX_COUNTED) return undefined;
  }
  return count;
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
    name: 'delete_file',
    description:
      'Deletes a file or folder inside the worktree by moving it into `.trash/`, from where it can be restored.',
    actions: ['fileDelete'],
    schema,
    extract: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const { rel, segments } = accepted(checkLexical(c, args.path));
      const name = segments.at(-1);
      if (name === undefined) throw new ToolRefusal('the worktree root cannot be deleted');
      const parent = segments.length === 1 ? '.' : segments.slice(0, -1).join('/');
      const entry = accepted(await listConfined(c, parent)).entries.find((e) => e.name === name);
      if (entry === undefined) throw new ToolRefusal(`path \`${rel}\` does not exist`);
      // A folder link on the way moves the entry from its real place: name that place too.
      const realParent = below(c.root, await realFolder(join(c.root, parent), `\`${rel}\``));
      if (realParent === undefined) {
        throw new ToolRefusal(`path \`${rel}\` leads outside the worktree through a symbolic link`);
      }
      const real = realParent === '.' ? name : `${realParent}/${name}`;
      const paths = real === rel ? [rel] : [rel, real];
      const count = entry.type === 'directory' ? await countFiles(c, rel) : 1;
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
        note: `moved to \`${trashed.trashedAs}\`: move it back to restore it`,
      };
    },
  });
}
