// `write_file`: writes inside the worktree are not gated (G14c) and go through
// the shared confinement (I5); a write anywhere else is gated as
// `fileWriteOutsideWorktree` with the real path it lands on, and is made only
// there — into a folder that exists, never through a link, never elsewhere.

import { basename, dirname } from 'node:path';
import { z } from 'zod';
import type { Confinement } from '../../paths/index.js';
import { confinement, writeConfined } from '../../paths/index.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool, ToolRefusal } from '../registry.js';
import type { Landing } from './landing.js';
import { landing } from './landing.js';
import type { BuiltinOptions } from './options.js';
import { accepted, callConfinement, settings } from './options.js';

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

/** The real folder an outside write goes into, as a confinement of its own. */
async function outsideFolder(real: string): Promise<Confinement> {
  const folder = dirname(real);
  let c: Confinement;
  try {
    c = await confinement({ root: folder });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || error instanceof TypeError) {
      throw new ToolRefusal(
        `folder \`${folder}\` does not exist: folders outside the worktree are not created`,
      );
    }
    throw error;
  }
  if (c.root !== folder) {
    throw new ToolRefusal(`folder \`${folder}\` changed since it was checked: nothing was written`);
  }
  return c;
}

export function writeFileTool(
  options: BuiltinOptions = {},
): ToolDefinition<WriteFileArgs, WriteFileResult> {
  const s = settings(options);
  // Where each call was found to land when it was gated: the write goes there or nowhere.
  const decided = new WeakMap<object, Landing>();
  return defineTool({
    name: 'write_file',
    description:
      'Writes a text file. Inside the worktree it is written at once; anywhere else it is gated as a write outside the worktree.',
    actions: ['fileWriteOutsideWorktree'],
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
          `path \`${args.path}\` now lands on \`${place.real}\`, not where it was checked: nothing was written`,
        );
      }
      const folder = await outsideFolder(place.real);
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
