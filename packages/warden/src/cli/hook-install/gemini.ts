// Gemini CLI: `.gemini/settings.json` in the project or `~/.gemini/settings.json`,
// one `BeforeTool` and one `AfterTool` group with matcher `.*` (every tool)
// running `warden hook gemini`; `timeout` in milliseconds. Connected, the hook
// needs WARDEN_URL and WARDEN_TOKEN from Gemini CLI's environment, which it
// strips from hooks when its environment redaction is on (a setting, and
// always under GitHub Actions): the install lets both through by name.

import { join } from 'node:path';
import { homeOf } from './common.js';
import type { JsonObject } from './json-settings.js';
import { inspectJson, readJsonSettings, writeWardenGroups } from './json-settings.js';
import type { HookStatus, RuntimeInstaller, Target } from './runtime.js';

const EVENTS = ['BeforeTool', 'AfterTool'] as const;
/** What a connected hook reads from its environment. */
export const GEMINI_HOOK_ENV = ['WARDEN_URL', 'WARDEN_TOKEN'] as const;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function file(target: Target): string {
  return target.scope === 'user'
    ? join(homeOf(target.env), '.gemini', 'settings.json')
    : join(target.project, '.gemini', 'settings.json');
}

/** `security.environmentVariableRedaction.allowed` of the settings (names, as written). */
function allowedEnv(settings: JsonObject): string[] {
  const security = isObject(settings.security) ? settings.security : {};
  const redaction = isObject(security.environmentVariableRedaction)
    ? security.environmentVariableRedaction
    : {};
  return Array.isArray(redaction.allowed)
    ? redaction.allowed.filter((n): n is string => typeof n === 'string')
    : [];
}

/** The settings with WARDEN_URL and WARDEN_TOKEN added to the redaction's allowed names. */
function withAllowedEnv(settings: JsonObject): JsonObject {
  const security = isObject(settings.security) ? settings.security : {};
  const redaction = isObject(security.environmentVariableRedaction)
    ? security.environmentVariableRedaction
    : {};
  const allowed = Array.isArray(redaction.allowed) ? [...(redaction.allowed as unknown[])] : [];
  for (const name of GEMINI_HOOK_ENV)
    if (!allowed.some((n) => typeof n === 'string' && n.toUpperCase() === name)) allowed.push(name);
  return {
    ...settings,
    security: { ...security, environmentVariableRedaction: { ...redaction, allowed } },
  };
}

/** Whether the hook's command line decides from a policy file (it then needs no server). */
const standalone = (command: string) => /\s--policy\s/.test(command);

export const geminiInstaller: RuntimeInstaller = {
  runtime: 'gemini',
  label: 'Gemini CLI',
  events: EVENTS,
  timeoutUnit: 'ms',
  file,
  install(target, hook) {
    const path = file(target);
    const timeout = hook.runtimeSeconds * 1000;
    const entry = { name: 'warden', type: 'command', command: hook.command, timeout };
    const written = writeWardenGroups(
      path,
      EVENTS,
      { matcher: '.*', hooks: [entry] },
      standalone(hook.command) ? undefined : withAllowedEnv,
    );
    if (!written.ok) return written;
    return {
      ok: true,
      files: [path],
      replaced: written.replaced,
      timeout,
      todo:
        target.scope === 'project'
          ? [
              `Gemini CLI runs a project's hooks only in a trusted folder when folder trust is on: trust ${target.project} when it asks`,
            ]
          : [],
    };
  },
  inspect(target): HookStatus {
    return inspectJson(target, 'gemini', file(target), EVENTS, (settings, command) => {
      if (standalone(command)) return { problems: [], blocking: false };
      // Gemini CLI merges the user's and the project's settings; either may let them through.
      const other = readJsonSettings(
        file({ ...target, scope: target.scope === 'user' ? 'project' : 'user' }),
      );
      const allowed = new Set(
        [...allowedEnv(settings), ...(other.ok ? allowedEnv(other.settings) : [])].map((n) =>
          n.toUpperCase(),
        ),
      );
      const missing = GEMINI_HOOK_ENV.filter((n) => !allowed.has(n));
      return {
        fields: { envAllowed: missing.length === 0 },
        problems:
          missing.length === 0
            ? []
            : [
                `${missing.join(' and ')} not in \`security.environmentVariableRedaction.allowed\`: with redaction on, the hook cannot reach the server and denies every call`,
              ],
        blocking: false,
      };
    });
  },
};
