// Claude Code's and Gemini CLI's settings are JSON files holding hooks in one
// shape: `hooks.<Event>` is a list of `{ matcher, hooks: [handler] }` groups.
// Reading such a file, putting Warden's group in, and finding it again are the
// same for both; what differs (events, matcher, timeout unit) is passed in.

import { existsSync, readFileSync } from 'node:fs';
import { commandPaths, isWardenCommand, writeWhole } from './common.js';
import type { HookStatus, Target } from './runtime.js';
import { notInstalled } from './runtime.js';

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The settings object in `file` (`{}` when there is none), or why it cannot be used. */
export function readJsonSettings(
  file: string,
): { ok: true; settings: JsonObject } | { ok: false; message: string } {
  if (!existsSync(file)) return { ok: true, settings: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    return {
      ok: false,
      message: `\`${file}\` is not JSON (${(error as Error).message}): fix it first, nothing was written`,
    };
  }
  if (!isObject(parsed))
    return { ok: false, message: `\`${file}\` is not a settings object: nothing was written` };
  return { ok: true, settings: parsed };
}

const isWardenGroup = (group: unknown): boolean =>
  isObject(group) &&
  Array.isArray(group.hooks) &&
  group.hooks.some((h) => isObject(h) && isWardenCommand(h.command));

/**
 * `groups` with Warden's group in: where an earlier one was (so the other
 * groups keep their places), else at the end. Warden's handlers that share a
 * group with others are taken out of it; every other group stays as it is.
 */
export function putGroup(
  groups: readonly unknown[],
  ours: JsonObject,
): { groups: unknown[]; replaced: boolean } {
  const next: unknown[] = [];
  let placed = false;
  for (const group of groups) {
    if (!isWardenGroup(group)) {
      next.push(group);
      continue;
    }
    const others = ((group as JsonObject).hooks as unknown[]).filter(
      (h) => !(isObject(h) && isWardenCommand(h.command)),
    );
    if (others.length > 0) next.push({ ...(group as JsonObject), hooks: others });
    else if (!placed) {
      next.push(ours);
      placed = true;
    }
  }
  if (!placed) next.push(ours);
  return { groups: next, replaced: groups.some(isWardenGroup) };
}

/** `settings` with Warden's group put into each of `events` (see `putGroup`). */
export function withWardenGroups(
  settings: JsonObject,
  events: readonly string[],
  ours: JsonObject,
): { settings: JsonObject; replaced: boolean } {
  const hooks = isObject(settings.hooks) ? { ...settings.hooks } : {};
  let replaced = false;
  for (const event of events) {
    const put = putGroup(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [], ours);
    hooks[event] = put.groups;
    replaced ||= put.replaced;
  }
  return { settings: { ...settings, hooks }, replaced };
}

/**
 * Puts Warden's group into each of `events` of the settings file at `path`
 * and writes it whole (`finish` may change the settings before), or says why
 * the file cannot be used; then nothing is written.
 */
export function writeWardenGroups(
  path: string,
  events: readonly string[],
  ours: JsonObject,
  finish: (settings: JsonObject) => JsonObject = (settings) => settings,
): { ok: true; replaced: boolean } | { ok: false; path: string; message: string } {
  const read = readJsonSettings(path);
  if (!read.ok) return { ok: false, path, message: read.message };
  const next = withWardenGroups(read.settings, events, ours);
  writeWhole(path, `${JSON.stringify(finish(next.settings), null, 2)}\n`);
  return { ok: true, replaced: next.replaced };
}

/** One Warden handler found in a settings file: under which event, and what it runs. */
export interface FoundHook {
  readonly event: string;
  readonly matcher: string | null;
  readonly command: string;
  readonly timeout: number | null;
}

/** Warden's handlers under `events` in `settings`. */
export function findWardenHooks(settings: JsonObject, events: readonly string[]): FoundHook[] {
  const found: FoundHook[] = [];
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  for (const event of events) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const handler of group.hooks)
        if (isObject(handler) && isWardenCommand(handler.command))
          found.push({
            event,
            matcher: typeof group.matcher === 'string' ? group.matcher : null,
            command: handler.command,
            timeout: typeof handler.timeout === 'number' ? handler.timeout : null,
          });
    }
  }
  return found;
}

/** A runtime's own checks of its installed hook: fields to report, problems, and whether they stop the calls. */
export interface ExtraChecks {
  readonly fields?: Partial<HookStatus>;
  readonly problems: readonly string[];
  /** Whether the problems keep the runtime from calling the hook (not only from connecting it). */
  readonly blocking: boolean;
}

/** The status of a JSON settings file's Warden hooks; `extra` adds a runtime's own checks. */
export function inspectJson(
  target: Target,
  runtime: HookStatus['runtime'],
  path: string,
  events: readonly string[],
  extra: (settings: Record<string, unknown>, command: string) => ExtraChecks = () => ({
    problems: [],
    blocking: false,
  }),
): HookStatus {
  const read = readJsonSettings(path);
  const base = { runtime, scope: target.scope, file: path };
  if (!read.ok)
    return notInstalled(base, [
      read.message.replace(/: (fix it first, )?nothing was written$/, ''),
    ]);
  const found = findWardenHooks(read.settings, events);
  const command = found[0]?.command ?? null;
  const paths = command === null ? [] : commandPaths(command);
  const more: ExtraChecks =
    command === null ? { problems: [], blocking: false } : extra(read.settings, command);
  const missing = paths.filter((p) => !p.exists).map((p) => `\`${p.path}\` does not exist`);
  const decides = found.some((f) => f.event === events[0]);
  return {
    ...base,
    ...more.fields,
    installed: found.length > 0,
    events: [...new Set(found.map((f) => f.event))],
    command,
    paths,
    called: decides && missing.length === 0 && !more.blocking,
    problems: [...missing, ...more.problems],
  };
}
