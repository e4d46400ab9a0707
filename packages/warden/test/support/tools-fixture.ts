// The setup every built-in tools test repeats: a fresh worktree per test, a
// Warden on the test's policy with the built-ins registered for one agent, and
// what the audit log recorded of a call; all closed and removed after each test.

import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { BuiltinOptions } from '../../src/tools/builtin/index.js';
import { registerBuiltins } from '../../src/tools/builtin/index.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import type { AuditEntry } from '../../src/store/types.js';
import { auditLog, openTestWarden } from './warden.js';
import type { TestWarden } from './warden.js';

export interface BuiltinsFixture {
  /** This test's worktree, under its real path (the tools report real paths). */
  readonly worktree: string;
  /** The Warden the last `open` made. */
  readonly t: TestWarden;
  /** The built-in tools the last `open` registered. */
  readonly tools: ToolRegistry;
  /**
   * Opens a Warden on `policy` and registers the built-ins for agent `coder-1`
   * of workspace `acme` (source `builtin`) in the worktree, with `options`.
   */
  open(policy: object, options?: BuiltinOptions): Promise<void>;
  /** Another fresh folder for this test, under its real path, removed after it. */
  folder(prefix: string): string;
  /** The audit entries of one call, oldest first. */
  entriesFor(callId: string): Promise<AuditEntry[]>;
  /** The decision recorded for one call, if there is one. */
  decisionOf(callId: string): Promise<AuditEntry | undefined>;
  /** The value of a call that must succeed: a failure throws with the call's error. */
  value<T>(tool: string, args: object): Promise<T>;
}

function realTemp(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * Registers, in the calling suite, the hooks that make a worktree (named
 * `<prefix>…`) before each test and close and remove everything after it.
 */
export function useBuiltins(prefix = 'warden-wt-'): BuiltinsFixture {
  let folders: string[] = [];
  let opened: { t: TestWarden; tools: ToolRegistry } | undefined;
  const current = () => {
    if (opened === undefined) throw new Error('no Warden yet: call `open` in the test first');
    return opened;
  };
  beforeEach(() => {
    folders = [realTemp(prefix)];
  });
  afterEach(async () => {
    const last = opened;
    opened = undefined;
    await last?.t.cleanup();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  const fixture: BuiltinsFixture = {
    get worktree() {
      const worktree = folders[0];
      if (worktree === undefined) throw new Error('no worktree outside a test');
      return worktree;
    },
    get t() {
      return current().t;
    },
    get tools() {
      return current().tools;
    },
    async open(policy, options = {}) {
      const t = await openTestWarden(policy);
      const context = { workspace: 'acme', agent: 'coder-1', source: 'builtin' };
      const tools = registerBuiltins(
        t.warden.tools({ ...context, worktree: fixture.worktree }),
        options,
      );
      opened = { t, tools };
    },
    folder(folderPrefix) {
      const folder = realTemp(folderPrefix);
      folders.push(folder);
      return folder;
    },
    async entriesFor(callId) {
      return (await auditLog(current().t.warden.store)).filter((e) => e.callId === callId);
    },
    async decisionOf(callId) {
      return (await fixture.entriesFor(callId)).find((e) => e.kind === 'decision');
    },
    async value<T>(tool: string, args: object) {
      const result = await current().tools.call<T>(tool, args);
      if (!result.ok) throw new Error(`${tool} failed: ${result.error}`);
      return result.value;
    },
  };
  return fixture;
}
