// `git_push`: gated as `gitPush` with the ref it updates on the remote, so
// "may push to `feature/**`" is a control (G16). Without a ref the current
// branch is read; a detached HEAD leaves the ref unknown, so a rule on refs
// escalates (E26, G18). What runs is exactly what was gated: an explicit
// `src:dst` refspec from an argument array, never a shell.

import { z } from 'zod';
import type { ToolDefinition } from '../registry.js';
import { defineTool } from '../registry.js';
import { currentBranch, git } from './git.js';
import { PUSH_PROGRAM } from './git-guard.js';
import type { BuiltinOptions, Settings } from './options.js';
import { callConfinement, settings } from './options.js';
import { shellLine } from './process.js';
import { builtinDeclaration } from './classes.js';

/** A configured remote's name: no URL, no path, no option. */
const REMOTE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** A branch, or a refspec `src:dst` (`:dst` deletes); no `+` (use `force`), no option. */
const REF = /^(?![-+])[A-Za-z0-9._/@-]*(?::[A-Za-z0-9._/@-]+)?$/;

const schema = z.strictObject({
  remote: z.string().regex(REMOTE, 'a remote name such as `origin`').optional(),
  ref: z
    .string()
    .min(1)
    .max(500)
    .regex(REF, 'a branch or a refspec `src:dst`')
    .optional()
    .describe('default: the current branch'),
  force: z.boolean().optional(),
});
export type GitPushArgs = z.infer<typeof schema>;

export interface GitPushResult {
  readonly remote: string;
  /** The refspec pushed, or `null` when none could be given (git then chose, or failed). */
  readonly refspec: string | null;
  readonly output: string;
}

interface Plan {
  readonly remote: string;
  readonly refspec: string | null;
  /** The remote ref updated; absent when unknown. */
  readonly dst: string | undefined;
  readonly argv: readonly string[];
}

async function plan(s: Settings, root: string, args: GitPushArgs): Promise<Plan> {
  const remote = args.remote ?? 'origin';
  let refspec: string | null = null;
  let dst: string | undefined;
  const ref = args.ref;
  if (ref === undefined || ref === 'HEAD' || ref === '@') {
    const branch = await currentBranch(s, root);
    if (branch !== undefined) {
      refspec = `refs/heads/${branch}:refs/heads/${branch}`;
      dst = branch;
    }
  } else if (ref.includes(':')) {
    refspec = ref;
    dst = ref.slice(ref.indexOf(':') + 1);
  } else {
    refspec = `${ref}:${ref}`;
    dst = ref;
  }
  const argv = [
    'push',
    ...(args.force === true ? ['--force'] : []),
    remote,
    ...(refspec === null ? [] : [refspec]),
  ];
  return { remote, refspec, dst, argv };
}

export function gitPushTool(
  options: BuiltinOptions = {},
): ToolDefinition<GitPushArgs, GitPushResult> {
  const s = settings(options);
  // The plan each call was gated with: the push runs it, even if HEAD moved since.
  const gated = new WeakMap<object, Plan>();
  return defineTool({
    ...builtinDeclaration('git_push'),
    description:
      'Pushes a branch (default: the current one) or a refspec `src:dst` to a remote (default `origin`).',
    schema,
    extract: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const p = await plan(s, c.root, args);
      gated.set(args, p);
      return {
        actions: ['gitPush'],
        command: shellLine(['git', ...p.argv]),
        // Unknown stays absent, never `[]` (E26).
        ...(p.dst === undefined ? {} : { args: { refs: [p.dst] } }),
      };
    },
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const p = gated.get(args) ?? (await plan(s, c.root, args));
      gated.delete(args);
      // The program run on the other side is named here, never taken from the repository.
      const [verb, ...rest] = p.argv;
      const said = await git(s, c.root, [verb as string, PUSH_PROGRAM, ...rest], ctx.signal);
      return { remote: p.remote, refspec: p.refspec, output: said.stderr.trim() };
    },
  });
}
