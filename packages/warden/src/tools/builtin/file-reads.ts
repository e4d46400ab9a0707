// `read_file` and `list_files`: the agent's two reads. They declare no class
// and are not gated, only recorded (G5); where they may look is the shared
// worktree confinement's answer (I5), which hides and refuses `.trash` (I6).

import { z } from 'zod';
import { listConfined, readConfined } from '../../paths/index.js';
import type { EntryType } from '../../paths/index.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool } from '../registry.js';
import type { BuiltinOptions } from './options.js';
import { accepted, callConfinement, settings } from './options.js';
import { builtinDeclaration } from './classes.js';

const readSchema = z.strictObject({
  path: z.string().min(1).describe('a path relative to the worktree root'),
});
export type ReadFileArgs = z.infer<typeof readSchema>;

export interface ReadFileResult {
  /** The normalised relative path. */
  readonly path: string;
  /** The file's size in bytes. */
  readonly size: number;
  /** At most the cap, decoded as UTF-8. */
  readonly content: string;
  readonly truncated: boolean;
  /** Says how the content was cut, when it was. */
  readonly note?: string;
}

export function readFileTool(
  options: BuiltinOptions = {},
): ToolDefinition<ReadFileArgs, ReadFileResult> {
  const s = settings(options);
  return defineTool({
    ...builtinDeclaration('read_file'),
    description: `Reads a text file inside the worktree; at most ${s.maxReadBytes} bytes are returned, and a cut says so.`,
    schema: readSchema,
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const file = accepted(await readConfined(c, args.path, { maxBytes: s.maxReadBytes }));
      return {
        path: file.rel,
        size: file.size,
        content: file.content.toString('utf8'),
        truncated: file.truncated,
        ...(file.truncated
          ? {
              note: `only the first ${file.content.length} of ${file.size} bytes are shown: the file is longer than the cap`,
            }
          : {}),
      };
    },
  });
}

const listSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .optional()
    .describe('a folder relative to the worktree root; default: the root'),
});
export type ListFilesArgs = z.infer<typeof listSchema>;

export interface ListFilesResult {
  readonly path: string;
  /** Sorted by name; links are reported as links and never followed. */
  readonly entries: readonly {
    readonly name: string;
    readonly type: EntryType;
    readonly size: number;
  }[];
  /** Entries left out because no path can name them (control characters, `%`, `:` …), among those read. */
  readonly omitted: number;
  /** Whether the folder holds more entries than the cap: `entries` is then only a part of it. */
  readonly truncated: boolean;
  /** Says what is missing from the listing, when anything is. */
  readonly note?: string;
}

/** Sentences about what a listing leaves out: the cut, and names no path can give. */
function listingNote(shown: number, omitted: number, truncated: boolean): string | undefined {
  const notes: string[] = [];
  if (truncated) {
    notes.push(
      `only ${shown} entries are shown: the folder holds more than the cap, so the listing is partial`,
    );
  }
  if (omitted > 0) {
    notes.push(
      `${omitted} ${omitted === 1 ? 'entry is' : 'entries are'} left out: no path can name them`,
    );
  }
  return notes.length === 0 ? undefined : notes.join('; ');
}

export function listFilesTool(
  options: BuiltinOptions = {},
): ToolDefinition<ListFilesArgs, ListFilesResult> {
  const s = settings(options);
  return defineTool({
    ...builtinDeclaration('list_files'),
    description: `Lists a folder inside the worktree (default: its root): names, types and sizes of at most ${s.maxListEntries} entries; a cut says so.`,
    schema: listSchema,
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const listing = accepted(
        await listConfined(c, args.path ?? '.', { maxEntries: s.maxListEntries }),
      );
      const { entries, omitted, truncated } = listing;
      const note = listingNote(entries.length, omitted, truncated);
      return {
        path: listing.rel,
        entries,
        omitted,
        truncated,
        ...(note === undefined ? {} : { note }),
      };
    },
  });
}
