// The ratchet over the built-in tools (G5, G6): every tool declares classes
// from the closed taxonomy or says it only reads, and the set of reads is
// pinned here — marking a new mutating tool `readOnly` must fail this test.

import { isActionClass } from '@warden/engine';
import { beforeEach, describe, expect, it } from 'vitest';
import { builtinTools, registerBuiltins } from '../../src/tools/builtin/index.js';
import { defineTool, ToolRegistrationError } from '../../src/tools/registry.js';
import { useBuiltins } from '../support/tools-fixture.js';

/** The only built-in tools that may skip the gate. Grow it only for a true read. */
const READ_ONLY = ['list_files', 'read_file'];

/** What each mutating built-in declares (G5); a change here is a change of what is gated. */
const DECLARED: Record<string, string[]> = {
  write_file: ['fileWriteOutsideWorktree'],
  delete_file: ['fileDelete'],
  run_command: ['processSpawn'],
  git_commit: ['gitCommit'],
  git_push: ['gitPush'],
  pr_create: ['prCreate'],
  pr_merge: ['prPublish'],
  http_fetch: ['networkEgress'],
};

/** One argument object per tool that its schema accepts, to check unknown keys are refused. */
const VALID_ARGS: Record<string, object> = {
  read_file: { path: 'a' },
  list_files: {},
  write_file: { path: 'a', content: '' },
  delete_file: { path: 'a' },
  run_command: { command: 'true' },
  git_commit: { message: 'm' },
  git_push: {},
  pr_create: { base: 'main', title: 't' },
  pr_merge: { pr: 1 },
  http_fetch: { url: 'http://127.0.0.1/' },
};

describe('the built-in tools', () => {
  const fx = useBuiltins();
  beforeEach(() => fx.open({ version: 1, workspace: 'acme', rules: [] }));

  it('each declare classes from the closed taxonomy or only read, and the reads are exactly the pinned list (G5)', () => {
    const tools = builtinTools({ worktree: fx.worktree });
    const readOnly = tools.filter((tool) => tool.readOnly === true).map((tool) => tool.name);
    expect(readOnly.sort()).toEqual(READ_ONLY);
    for (const tool of tools) {
      if (tool.readOnly === true) {
        expect(tool.actions ?? [], tool.name).toEqual([]);
        expect(tool.extract, tool.name).toBeUndefined();
        continue;
      }
      expect(tool.actions, tool.name).toEqual(DECLARED[tool.name]);
      expect(
        tool.actions?.every((a) => isActionClass(a)),
        tool.name,
      ).toBe(true);
      expect(tool.extract, `${tool.name} says what each call does`).toBeTypeOf('function');
    }
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [...READ_ONLY, ...Object.keys(DECLARED)].sort(),
    );
  });

  it('all register on an agent registry, each with a strict schema (G5)', async () => {
    const registry = fx.tools;
    expect(
      registry
        .list()
        .map((info) => info.name)
        .sort(),
    ).toEqual(Object.keys(VALID_ARGS).sort());
    for (const tool of builtinTools({ worktree: fx.worktree })) {
      const args = VALID_ARGS[tool.name];
      expect(tool.schema?.safeParse(args).success, tool.name).toBe(true);
      expect(tool.schema?.safeParse({ ...args, agentId: 'admin' }).success, tool.name).toBe(false);
    }
    const refused = await registry.call('run_command', { command: 'true', shell: '/bin/bash' });
    expect(refused).toMatchObject({ ok: false, status: 'Error', decision: null });
  });

  it('a tool that declares no class cannot be registered (G5)', () => {
    const registry = fx.t.warden.tools({ workspace: 'acme', agent: 'coder-1', source: 'builtin' });
    const sneaky = defineTool({
      name: 'rm_everything',
      description: 'changes things, declares nothing',
      run: () => Promise.resolve(null),
    });
    expect(() => registry.register(sneaky)).toThrow(ToolRegistrationError);
    const empty = defineTool({ ...sneaky, actions: [] });
    expect(() => registry.register(empty)).toThrow(ToolRegistrationError);
  });

  it('need a worktree: without one in the options or the call context nothing is registered (E10)', () => {
    const registry = fx.t.warden.tools({ workspace: 'acme', agent: 'coder-1', source: 'builtin' });
    expect(() => registerBuiltins(registry)).toThrow(/worktree/);
    expect(registry.list()).toEqual([]);
  });
});
