// Warden's reference built-in tools, the ones agents actually need: file reads
// and writes, deletes, a shell, git commit and push, pull requests, and HTTP. Each declares
// its classes or says it only reads (G5), and each passes the registry's gate
// (G1); the file tools share the one path confinement (I5).

import type { ToolDefinition } from '../registry.js';
import type { ToolRegistry } from '../registry.js';
import { deleteFileTool } from './delete-file.js';
import { listFilesTool, readFileTool } from './file-reads.js';
import { gitCommitTool } from './git-commit.js';
import { gitPushTool } from './git-push.js';
import { prCreateTool, prMergeTool } from './gh-pr.js';
import { httpFetchTool } from './http-fetch.js';
import type { BuiltinOptions } from './options.js';
import { settings } from './options.js';
import { runCommandTool } from './run-command.js';
import { writeFileTool } from './write-file.js';

export type { BuiltinOptions } from './options.js';
export type { BuiltinClasses, BuiltinName } from './classes.js';
export { BUILTIN_CLASSES, BUILTIN_NAMES, isBuiltinName } from './classes.js';
export type { DeleteFileArgs, DeleteFileResult } from './delete-file.js';
export type { ListFilesArgs, ListFilesResult, ReadFileArgs, ReadFileResult } from './file-reads.js';
export type { GitCommitArgs, GitCommitResult } from './git-commit.js';
export type { GitPushArgs, GitPushResult } from './git-push.js';
export type { PrCreateArgs, PrMergeArgs, PrResult } from './gh-pr.js';
export type { HttpFetchArgs, HttpFetchResult } from './http-fetch.js';
export type { RunCommandArgs, RunCommandResult } from './run-command.js';
export type { WriteFileArgs, WriteFileResult } from './write-file.js';
export { childEnv } from './process.js';
export {
  deleteFileTool,
  gitCommitTool,
  gitPushTool,
  httpFetchTool,
  listFilesTool,
  prCreateTool,
  prMergeTool,
  readFileTool,
  runCommandTool,
  writeFileTool,
};

/** Every built-in tool, configured alike. */
export function builtinTools(options: BuiltinOptions = {}): ToolDefinition<never, unknown>[] {
  settings(options); // a bad option fails here, once, rather than in each factory
  return [
    readFileTool(options),
    listFilesTool(options),
    writeFileTool(options),
    deleteFileTool(options),
    runCommandTool(options),
    gitCommitTool(options),
    gitPushTool(options),
    prCreateTool(options),
    prMergeTool(options),
    httpFetchTool(options),
  ] as unknown as ToolDefinition<never, unknown>[];
}

/**
 * Registers every built-in tool. The worktree comes from `options` or else
 * from the registry's call context; with neither, nothing is registered.
 */
export function registerBuiltins(
  registry: ToolRegistry,
  options: BuiltinOptions = {},
): ToolRegistry {
  const worktree = options.worktree ?? registry.context.worktree;
  if (worktree === undefined) {
    throw new TypeError(
      'the built-in tools need a worktree: give one in the options or in the call context',
    );
  }
  for (const tool of builtinTools({ ...options, worktree })) registry.register(tool);
  return registry;
}
