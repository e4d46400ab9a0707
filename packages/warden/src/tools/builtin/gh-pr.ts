// `pr_create` and `pr_merge`: pull requests through GitHub's `gh`, gated as
// `prCreate` (with the branch it targets and the one it proposes) and
// `prPublish`, and described as the command lines they amount to, so command
// rules on `gh pr create|merge` meet them as they meet the shell (G14c). `gh`
// runs from an argument array in the worktree, never a shell, and without
// Warden's credentials in its environment; where it is not installed the call
// ends as an error that says so.

import { z } from 'zod';
import type { ToolDefinition } from '../registry.js';
import { defineTool } from '../registry.js';
import { currentBranch } from './git.js';
import { guardedGitEnv } from './git-guard.js';
import type { BuiltinOptions, Settings } from './options.js';
import { callConfinement, settings } from './options.js';
import type { Finished } from './process.js';
import { runProcess, shellLine } from './process.js';
import { builtinDeclaration } from './classes.js';

/** A branch name: no option, no refspec. */
const BRANCH = /^(?!-)[A-Za-z0-9._/@-]{1,250}$/;
const GH_OUTPUT_BYTES = 64 * 1024;

const createSchema = z.strictObject({
  base: z
    .string()
    .regex(BRANCH, 'a branch name such as `main`')
    .describe('the branch to merge into'),
  head: z
    .string()
    .regex(BRANCH, 'a branch name')
    .optional()
    .describe('the branch with the changes (default: the current one)'),
  title: z.string().min(1).max(1000),
  body: z.string().max(100_000).optional(),
  draft: z.boolean().optional(),
});
export type PrCreateArgs = z.infer<typeof createSchema>;

const mergeSchema = z.strictObject({
  pr: z
    .union([z.number().int().positive(), z.string().regex(BRANCH, 'a PR number or its branch')])
    .describe('the pull request: its number, or its branch'),
  method: z.enum(['merge', 'squash', 'rebase']).optional().describe('default `merge`'),
  base: z
    .string()
    .regex(BRANCH, 'a branch name')
    .optional()
    .describe('the branch it merges into, when known; without it a rule on refs asks'),
});
export type PrMergeArgs = z.infer<typeof mergeSchema>;

export interface PrResult {
  /** What `gh` printed: for a new PR its URL. */
  readonly output: string;
}

async function runGh(
  s: Settings,
  cwd: string,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<string> {
  let done: Finished;
  try {
    done = await runProcess({
      file: s.gh,
      args,
      cwd,
      env: {
        ...(await guardedGitEnv(s, cwd)),
        GH_PROMPT_DISABLED: '1',
        GH_NO_UPDATE_NOTIFIER: '1',
      },
      timeoutMs: s.gitTimeoutMs,
      maxOutputBytes: GH_OUTPUT_BYTES,
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(
        `\`${s.gh}\` (GitHub's command line) is not installed here: no pull request was made`,
      );
    throw error;
  }
  if (done.timedOut)
    throw new Error(`\`gh ${args.slice(0, 2).join(' ')}\` ran longer than ${s.gitTimeoutMs} ms`);
  if (done.exitCode !== 0) {
    const said = (done.stderr.text.trim() || done.stdout.text.trim())
      .split('\n')
      .slice(0, 6)
      .join('; ');
    const how = done.exitCode === null ? `signal ${done.signal ?? '?'}` : `exit ${done.exitCode}`;
    throw new Error(`\`gh ${args.slice(0, 2).join(' ')}\` failed (${how}): ${said || 'no output'}`);
  }
  return done.stdout.text.trim();
}

function createArgv(args: PrCreateArgs, head: string | undefined): string[] {
  return [
    'pr',
    'create',
    '--base',
    args.base,
    ...(head === undefined ? [] : ['--head', head]),
    '--title',
    args.title,
    '--body',
    args.body ?? '',
    ...(args.draft === true ? ['--draft'] : []),
  ];
}

function mergeArgv(args: PrMergeArgs): string[] {
  return ['pr', 'merge', String(args.pr), `--${args.method ?? 'merge'}`];
}

export function prCreateTool(options: BuiltinOptions = {}): ToolDefinition<PrCreateArgs, PrResult> {
  const s = settings(options);
  // The head each call was gated with: the PR proposes it, even if the branch changed since.
  const gated = new WeakMap<object, string | undefined>();
  return defineTool({
    ...builtinDeclaration('pr_create'),
    description:
      'Opens a pull request from a branch (default: the current one) into `base`, with GitHub’s `gh`.',
    schema: createSchema,
    extract: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const head = args.head ?? (await currentBranch(s, c.root));
      gated.set(args, head);
      return {
        actions: ['prCreate'],
        command: shellLine(['gh', ...createArgv(args, head)]),
        // The target and the proposed branch; an unknown head stays out (E26).
        args: { refs: head === undefined ? [args.base] : [args.base, head] },
      };
    },
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const head = gated.has(args)
        ? gated.get(args)
        : (args.head ?? (await currentBranch(s, c.root)));
      gated.delete(args);
      return { output: await runGh(s, c.root, createArgv(args, head), ctx.signal) };
    },
  });
}

export function prMergeTool(options: BuiltinOptions = {}): ToolDefinition<PrMergeArgs, PrResult> {
  const s = settings(options);
  return defineTool({
    ...builtinDeclaration('pr_merge'),
    description: 'Merges a pull request (by number or branch) with GitHub’s `gh`.',
    schema: mergeSchema,
    extract: (args) =>
      Promise.resolve({
        actions: ['prPublish'],
        command: shellLine(['gh', ...mergeArgv(args)]),
        ...(args.base === undefined ? {} : { args: { refs: [args.base] } }),
      }),
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      return { output: await runGh(s, c.root, mergeArgv(args), ctx.signal) };
    },
  });
}
