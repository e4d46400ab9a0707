// `run_command`: a shell for the agent. It declares `processSpawn` and hands the
// gate the command line, so the classifier finds every other class the command
// reveals and command rules meet it word by word (G14b, G14c, E2). Nothing runs
// before the whole line is allowed; a non-zero exit is a result, not a failure.
// Where the host offers a sandbox backend, the allowed command runs under it
// (G2): it writes only in the worktree, and reaches only the hosts its command
// line named (which the gate saw) and those the operator listed.

import { join } from 'node:path';
import { analyzeCommand, DEFAULT_TABLE, normalizeHost } from '@warden/engine';
import { z } from 'zod';
import type { Confinement } from '../../paths/index.js';
import { checkLexical, listConfined } from '../../paths/index.js';
import type { CommandSandbox } from '../../sandbox/runtime.js';
import { commandSandbox, SandboxUnavailable } from '../../sandbox/runtime.js';
import type { ToolDefinition } from '../registry.js';
import { defineTool, ToolRefusal } from '../registry.js';
import type { BuiltinOptions, Settings } from './options.js';
import { accepted, callConfinement, settings } from './options.js';
import { childEnv, cutNote, inFolder, runProcess } from './process.js';
import { builtinDeclaration } from './classes.js';

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
  /** The sandbox the command ran under, or `null` when it ran without one. */
  readonly sandbox: {
    readonly backend: string;
    /** The hosts its proxy let the command reach. */
    readonly hosts: readonly string[];
    /** What the sandbox refused while the command ran. */
    readonly violations: readonly string[];
  } | null;
}

/**
 * The hosts a command line names, as the classifier reads them (those the gate
 * decided on), reduced to host names as the engine matches them (E12).
 * A host the classifier could not read (a variable) adds nothing.
 */
export function commandHosts(command: string): string[] {
  const hosts = new Set<string>();
  for (const unit of analyzeCommand(command, DEFAULT_TABLE, null).units) {
    for (const e of unit.effects) {
      if (e.cls !== 'networkEgress') continue;
      const named = e.args['hosts'];
      if (!Array.isArray(named)) continue;
      for (const h of named) {
        const value = typeof h === 'string' ? normalizeHost(h) : null;
        if (value !== null && (!value.ip || !value.host.includes(':'))) hosts.add(value.host);
      }
    }
  }
  return [...hosts].sort();
}

/** The sandbox `run_command` runs under by its settings, or why it cannot run at all. */
function chooseSandbox(s: Settings): CommandSandbox | null | SandboxUnavailable {
  try {
    return commandSandbox(s.sandbox, s.sandboxHost);
  } catch (error) {
    if (error instanceof SandboxUnavailable) return error;
    throw error;
  }
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
  const sandbox = chooseSandbox(s);
  return defineTool({
    ...builtinDeclaration('run_command'),
    description: `Runs a shell command in the worktree (\`/bin/sh -c\`)${sandbox !== null && !(sandbox instanceof SandboxUnavailable) ? ' under an OS sandbox: it can write only inside the worktree and reach only the hosts its command line names' : ''}. Output is cut at ${s.maxOutputBytes} bytes per stream; the default timeout is ${s.commandTimeoutMs} ms.`,
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
      if (sandbox instanceof SandboxUnavailable) throw new ToolRefusal(sandbox.message);
      const signal = ctx.signal === undefined ? {} : { signal: ctx.signal };
      const hosts =
        sandbox === null
          ? []
          : [...new Set([...commandHosts(inFolder(cwd, args.command)), ...s.sandboxAllowedHosts])];
      // A command that should run sandboxed and cannot be is refused, never run without it.
      const launch =
        sandbox === null
          ? null
          : await sandbox
              .launch(args.command, {
                worktree: c.root,
                cwd: join(c.root, cwd),
                hosts,
                denyRead: s.sandboxDenyRead,
                ...signal,
              })
              .catch((error: unknown) => {
                throw new ToolRefusal(error instanceof Error ? error.message : String(error));
              });
      let done;
      try {
        done = await runProcess({
          file: launch?.file ?? '/bin/sh',
          args: launch?.args ?? ['-c', args.command],
          cwd: join(c.root, cwd),
          env: childEnv(s.env),
          timeoutMs,
          maxOutputBytes: s.maxOutputBytes,
          ...signal,
        });
      } finally {
        await launch?.release();
      }
      const violations = launch?.violations() ?? [];
      for (const note of [
        cutNote('stdout', done.stdout, s.maxOutputBytes),
        cutNote('stderr', done.stderr, s.maxOutputBytes),
      ]) {
        if (note !== undefined) notes.push(note);
      }
      if (done.timedOut) notes.push(`the command ran longer than ${timeoutMs} ms and was killed`);
      if (done.aborted) notes.push('the call was aborted and the command killed');
      if (violations.length > 0)
        notes.push(`the sandbox refused what the command tried: ${violations.join('; ')}`);
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
        sandbox:
          sandbox === null ? null : { backend: sandbox.backend, hosts: hosts.sort(), violations },
      };
    },
  });
}
