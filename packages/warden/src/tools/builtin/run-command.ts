// `run_command`: a shell for the agent. It declares `processSpawn` and hands the
// gate the command line, so the classifier finds every other class the command
// reveals and command rules meet it word by word (G14b, G14c, E2). Nothing runs
// before the whole line is allowed; a non-zero exit is a result, not a failure.

import { join } from 'node:path';
import { z } from 'zod';
import type { Confinement } from '../../paths/index.js';
import { checkLexical, listConfined } from '../../paths/index.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool } from '../registry.js';
import type { BuiltinOptions } from './options.js';
import { accepted, callConfinement, settings } from './options.js';
import { childEnv, cutNote, inFolder, runProcess } from './process.js';

const schema = z.strictObject({
  command: z.string().min(1).max(100_000).describe('a POSIX shell command line'),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe('a folder relative to the worktree root; default: the root'),
  timeoutMs: z.number().int().positive().optional(),
});
export type RunCommandArgs = z.infer<typeof schema>;

export interface RunCommandResult {
  /** `null` when the process was ended by a signal (a timeout, an abort). */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly timedOut: boolean;
  readonly timeoutMs: number;
  readonly durationMs: number;
  /** Sentences about cuts, the timeout and a clamped timeout, when there are any. */
  readonly notes: readonly string[];
}

/** The working folder, checked by the shared confinement: a folder inside the worktree. */
async function workingFolder(c: Confinement, cwd: string | undefined): Promise<string> {
  if (cwd === undefined) return '.';
  const { rel } = accepted(checkLexical(c, cwd));
  // Refuses a file, `.trash`, and links leading out; no entry is needed, so none is read.
  accepted(await listConfined(c, rel, { maxEntries: 0 }));
  return rel;
}

export function runCommandTool(
  options: BuiltinOptions = {},
): ToolDefinition<RunCommandArgs, RunCommandResult> {
  const s = settings(options);
  return defineTool({
    name: 'run_command',
    description: `Runs a shell command in the worktree (\`/bin/sh -c\`). Output is cut at ${s.maxOutputBytes} bytes per stream; the default timeout is ${s.commandTimeoutMs} ms.`,
    actions: ['processSpawn'],
    schema,
    extract: async (args, ctx) => {
      const cwd = await workingFolder(await callConfinement(s, ctx), args.cwd);
      return { command: inFolder(cwd, args.command) };
    },
    run: async (args, ctx) => {
      const c = await callConfinement(s, ctx);
      const cwd = await workingFolder(c, args.cwd);
      const notes: string[] = [];
      let timeoutMs = args.timeoutMs ?? s.commandTimeoutMs;
      if (timeoutMs > s.maxTimeoutMs) {
        notes.push(
          `the timeout was lowered from ${timeoutMs} ms to the most allowed, ${s.maxTimeoutMs} ms`,
        );
        timeoutMs = s.maxTimeoutMs;
      }
      const done = await runProcess({
        file: '/bin/sh',
        args: ['-c', args.command],
        cwd: join(c.root, cwd),
        env: childEnv(s.env),
        timeoutMs,
        maxOutputBytes: s.maxOutputBytes,
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      });
      for (const note of [
        cutNote('stdout', done.stdout, s.maxOutputBytes),
        cutNote('stderr', done.stderr, s.maxOutputBytes),
      ]) {
        if (note !== undefined) notes.push(note);
      }
      if (done.timedOut) notes.push(`the command ran longer than ${timeoutMs} ms and was killed`);
      if (done.aborted) notes.push('the call was aborted and the command killed');
      return {
        exitCode: done.exitCode,
        signal: done.signal,
        stdout: done.stdout.text,
        stderr: done.stderr.text,
        stdoutTruncated: done.stdout.truncated,
        stderrTruncated: done.stderr.truncated,
        timedOut: done.timedOut,
        timeoutMs,
        durationMs: done.durationMs,
        notes,
      };
    },
  });
}
