// Claude Code: `.claude/settings.json` in the project or `~/.claude/settings.json`,
// one `PreToolUse`, one `PostToolUse` and one `PostToolUseFailure` group with
// matcher `*` (every tool) running `warden hook claude-code`; `timeout` in seconds.

import { join } from 'node:path';
import { homeOf } from './common.js';
import { inspectJson, writeWardenGroups } from './json-settings.js';
import type { HookStatus, RuntimeInstaller, Target } from './runtime.js';

const EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const;

function file(target: Target): string {
  return target.scope === 'user'
    ? join(homeOf(target.env), '.claude', 'settings.json')
    : join(target.project, '.claude', 'settings.json');
}

export const claudeCodeInstaller: RuntimeInstaller = {
  runtime: 'claude-code',
  label: 'Claude Code',
  events: EVENTS,
  timeoutUnit: 's',
  file,
  install(target, hook) {
    const path = file(target);
    const entry = { type: 'command', command: hook.command, timeout: hook.runtimeSeconds };
    const written = writeWardenGroups(path, EVENTS, { matcher: '*', hooks: [entry] });
    if (!written.ok) return written;
    return {
      ok: true,
      files: [path],
      replaced: written.replaced,
      timeout: hook.runtimeSeconds,
      todo: [],
    };
  },
  inspect(target): HookStatus {
    return inspectJson(target, 'claude-code', file(target), EVENTS);
  },
};
