// `git_commit`: a commit, gated as `gitCommit` and described as the command
// line it amounts to, so command rules on `git commit` meet it exactly as they
// meet the shell (G14c). The paths it stages are checked by the shared
// confinement (I5); git runs from an argument array, never a shell.

import { z } from 'zod';
import { checkLexical, WORKTREE_TRASH } from '../../paths/index.js';
import type { ToolContext, ToolDefinition } from '../registry.js';
import { defineTool } from '../registry.js';
import { git } from './git.js';
import type { BuiltinOptions } from './options.js';
import { accepted, callConfinement, settings } from './options.js';
import { shellLine } from './process.js';
import { builtinDeclaration } from './classes.js';

const schema = z.strictObject({
  message: z.string().min(1).max(100_000),
  paths: z
    .array(z.string().min(1))
    .min(1)
    .max(1000)
    .optional()
    .describe('paths relative to the worktree root to stage first (`git add`)'),
  all: z.boolean().optional().describe('stage every change to tracked files (`git commit -a`)'),
});
export type GitCommitArgs = z.infer<typeof schema>;

export interface GitCommitResult {
  /** The new commit's hash. */
  readonly commit: string;
  /** What git said about it (its first line of output). */
  readonly summary: string;
}

interface Plan {
  readonly paths: readonly string[] | undefined;
  readonly add: readonly string[] | undefined;
  readonly commit: readonly string[];
  readonly command: string;
}

/**
 * Each checked path is a literal pathspec (a path, never a glob), and the
 * worktree's trash is excluded, so staging `.` cannot commit what was deleted.
 */
function addArgs(rels: readonly string[]): string[] {
  const trash = `:(exclude)${WORKTREE_TRASH.join('/')}`;
  return ['add', '--', ...rels.map((rel) => `:(literal)${rel}`), trash];
}

function plan(rels: readonly string[] | undefined, args: GitCommitArgs): Plan {
  const add = rels === undefined ? undefined : addArgs(rels);
  const commit = ['commit', ...(args.all === true ? ['-a'] : []), '-m', args.message];
  const lines = [...(add === undefined ? [] : [add]), commit].map((a) => shellLine(['git', ...a]));
  return { paths: rels, add, commit, command: lines.join(' && ') };
}

export function gitCommitTool(
  options: BuiltinOptions = {},
): ToolDefinition<GitCommitArgs, GitCommitResult> {
  const s = settings(options);
  const checked = async (args: GitCommitArgs, ctx: ToolContext) => {
    const c = await callConfinement(s, ctx);
    const rels = args.paths?.map((p) => accepted(checkLexical(c, p)).rel);
    return { root: c.root, plan: plan(rels, args) };
  };
  return defineTool({
    ...builtinDeclaration('git_commit'),
    description:
      'Creates a git commit in the worktree, staging the given paths first (or every tracked change with `all`).',
    schema,
    extract: async (args, ctx) => {
      const { plan: p } = await checked(args, ctx);
      return {
        actions: ['gitCommit'],
        command: p.command,
        ...(p.paths === undefined ? {} : { args: { paths: p.paths } }),
      };
    },
    run: async (args, ctx) => {
      const { root, plan: p } = await checked(args, ctx);
      if (p.add !== undefined) await git(s, root, p.add, ctx.signal);
      const said = await git(s, root, p.commit, ctx.signal);
      const commit = (await git(s, root, ['rev-parse', 'HEAD'], ctx.signal)).stdout.trim();
      return { commit, summary: said.stdout.split('\n')[0]?.trim() ?? '' };
    },
  });
}
