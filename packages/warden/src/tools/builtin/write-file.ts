// `write_file`: writes inside the worktree are not gated (G14c) and go through
// the shared confinement (I5); a write anywhere else is gated as
// `fileWriteOutsideWorktree` with the path it lands on (`landing.ts`), and is
// made only there — into a real folder that exists, never elsewhere.

import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { Confinement } from '../../paths/index.js';
import { confinement, quote, writeConfined } from '../../paths/index.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool, ToolRefusal } from '../registry.js';
import type { Landing } from './landing.js';
import { errorCode, landing } from './landing.js';
import type { BuiltinOptions } from './options.js';
import { accepted, callConfinement, settings } from './options.js';
import { builtinDeclaration } from './classes.js';

const schema = z.strictObject({
  path: z
    .string()
    .min(1)
    .describe('relative to the worktree root; an absolute path outside it is gated'),
  content: z.string(),
  createParents: z
    .boolean()
    .optional()
    .describe('create missing folders (inside the worktree only)'),
});
export type WriteFileArgs = z.infer<typeof schema>;

export interface WriteFileResult {
  /** The relative path inside the worktree, or the real absolute path outside it. */
  readonly path: string;
  readonly insideWorktree: boolean;
  readonly bytes: number;
  readonly created: boolean;
}

type Outside = Extract<Landing, { inside: false }>;

/**
 * The real folder an outside write goes into, as a confinement of its own:
 * it must exist, be reached by its own path without a link, and — when the
 * path went out through a link in the worktree — be where that link leads.
 * Every way this fails gets the same words, so not even an allowed write tells
 * what exists out there.
 */
async function outsideFolder(worktree: Confinement, place: Outside): Promise<Confinement> {
  const folder = dirname(place.real);
  const c = await unlessFailed(confinement({ root: folder }));
  const reached =
    place.via === undefined
      ? c?.root
      : await unlessFailed(realpath(join(worktree.root, place.via)));
  if (c === undefined || c.root !== folder || reached !== folder) {
    throw new ToolRefusal(
      `folder ${quote(folder)} is not an existing folder reached without links: outside the worktree, folders are not created and links are not followed, so nothing was written`,
    );
  }
  return c;
}

/** The value, or `undefined` when the file system failed (or a root is no folder); a bug still throws. */
async function unlessFailed<T>(pending: Promise<T>): Promise<T | undefined> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof TypeError || errorCode(error) !== undefined) return undefined;
    throw error;
  }
}

export function writeFileTool(
  options: BuiltinOptions = {},
): ToolDefinition<WriteFileArgs, WriteFileResult> {
  const s = settings(options);
  // Where each call was found to land when it was gated: the write goes there or nowhere.
  const decided = new WeakMap<object, Landing>();
  return defineTool({
    ...builtinDeclaration('write_file'),
    description:
      'Writes a text file. Inside the worktree it is written at once; anywhere else it is gated as a write outside the worktree.',
    schema,
    extract: async (args, ctx) => {
      const place = await landing(await callConfinement(s, ctx), args.path);
      decided.set(args, place);
      if (place.inside) return { actions: [] };
      return { actions: ['fileWriteOutsideWorktree'], args: { paths: [place.real] } };
    },
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const place = await landing(c, args.path);
      const gated = decided.get(args);
      decided.delete(args);
      if (place.inside) {
        const written = accepted(
          await writeConfined(c, place.rel, args.content, {
            createParents: args.createParents ?? false,
          }),
        );
        return {
          path: written.rel,
          insideWorktree: true,
          bytes: written.bytes,
          created: written.created,
        };
      }
      if (gated === undefined || gated.inside || gated.real !== place.real) {
        throw new ToolRefusal(
          `path ${quote(args.path)} now lands on ${quote(place.real)}, not where it was checked: nothing was written`,
        );
      }
      const folder = await outsideFolder(c, place);
      const written = accepted(await writeConfined(folder, basename(place.real), args.content));
      return {
        path: written.abs,
        insideWorktree: false,
        bytes: written.bytes,
        created: written.created,
      };
    },
  });
}
