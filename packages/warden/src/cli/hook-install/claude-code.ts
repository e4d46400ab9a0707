// Claude Code: `.claude/settings.json` in the project or `~/.claude/settings.json`,
// one `PreToolUse`, one `PostToolUse` and one `PostToolUseFailure` group with
// matcher `*` (every tool) running `warden hook claude-code`; `timeout` in seconds.

import { join } from 'node:path';
import { homeOf, writeWhole } from './common.js';
import { inspectJson, readJsonSettings, withWardenGroups } from './json-settings.js';
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
    const read = readJsonSettings(path);
    if (!read.ok) return { ok: false, path, message: read.message };
    const entry = { type: 'command', command: hook.command, timeout: hook.runtimeSeconds };
    const next = withWardenGroups(read.settings, EVENTS, { matcher: '*', hooks: [entry] });
    writeWhole(path, `${JSON.stringify(next.settings, null, 2)}\n`);
    return {
      ok: true,
      files: [path],
      replaced: next.replaced,
      timeout: hook.runtimeSeconds,
      todo: [],
    };
  },
  inspect(target): HookStatus {
    return inspectJson(target, 'claude-code', file(target), EVENTS);
  },
};
