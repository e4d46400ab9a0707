// `warden hook install claude-code [--project DIR | --user]`: writes the
// `PreToolUse` entry that sends every Claude Code tool call (matcher `*`)
// through `warden hook claude-code`, into the project's
// `.claude/settings.json` or the user's `~/.claude/settings.json`. The rest
// of the settings file is kept as it is; an entry written before is replaced,
// so installing twice leaves one. A token is never written into the file:
// connected, the hook reads WARDEN_TOKEN from Claude Code's environment.
// `--gateway-config FILE` is checked and passed on to the hook, which then
// maps the MCP servers Claude Code reaches directly with that file's `tools`.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGatewayConfig } from '../gateway/config.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../hook/run.js';
import { HOOK_SANDBOX_MODES, shellQuote } from '../hook/sandboxed.js';
import type { HookInstallOptions } from './commands/hook.js';
import type { Io } from './io.js';
import { EXIT, printJson, style, usage } from './io.js';

/** Claude Code waits this long for the hook (its `timeout`); the hook answers 5 s before. */
const HOOK_TIMEOUT_SECONDS = DEFAULT_TIMEOUT_SECONDS + 5;
const BIN = fileURLToPath(new URL('../../bin/warden.js', import.meta.url));

function isWardenHook(entry: unknown): boolean {
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof (entry as { command?: unknown }).command === 'string' &&
    /\bhook claude-code\b/.test((entry as { command: string }).command)
  );
}

export function runHookInstall(io: Io, options: HookInstallOptions): number {
  const json = options.json === true;
  if (options.user === true && options.project !== undefined)
    return usage(io, json, '--user', 'give `--project DIR` or `--user`, not both');
  if (options.server !== undefined && options.policy !== undefined)
    return usage(
      io,
      json,
      '--policy',
      'give `--server URL` (connected) or `--policy FILE` (standalone), not both',
    );
  if (options.policy !== undefined && !existsSync(options.policy))
    return usage(io, json, '--policy', `no file \`${options.policy}\``);
  if (
    options.sandbox !== undefined &&
    !(HOOK_SANDBOX_MODES as readonly string[]).includes(options.sandbox)
  )
    return usage(
      io,
      json,
      '--sandbox',
      `\`--sandbox ${options.sandbox}\` is not one of ${HOOK_SANDBOX_MODES.join(', ')}`,
    );
  if (options.gatewayConfig !== undefined) {
    // Checked now: a file the hook cannot read would deny every MCP call it was meant to map.
    const loaded = loadGatewayConfig(options.gatewayConfig);
    if (!loaded.ok)
      return usage(
        io,
        json,
        '--gateway-config',
        `\`${options.gatewayConfig}\` cannot be used, nothing was written: ${loaded.problems
          .map((p) => (p.path === '--config' ? p.message : `${p.path}: ${p.message}`))
          .join('; ')}`,
      );
  }
  const file =
    options.user === true
      ? join(homedir(), '.claude', 'settings.json')
      : join(resolve(options.project ?? '.'), '.claude', 'settings.json');

  let settings: Record<string, unknown> = {};
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch (error) {
      return usage(
        io,
        json,
        file,
        `\`${file}\` is not JSON (${(error as Error).message}): fix it first, nothing was written`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return usage(io, json, file, `\`${file}\` is not a settings object: nothing was written`);
    settings = parsed as Record<string, unknown>;
  }

  const words = [process.execPath, BIN, 'hook', 'claude-code'];
  if (options.server !== undefined) words.push('--server', options.server);
  if (options.policy !== undefined) words.push('--policy', resolve(options.policy));
  if (options.data !== undefined) words.push('--data', resolve(options.data));
  if (options.agent !== undefined) words.push('--agent', options.agent);
  if (options.gatewayConfig !== undefined)
    words.push('--gateway-config', resolve(options.gatewayConfig));
  if (options.sandbox !== undefined) words.push('--sandbox', options.sandbox);
  const command = words.map(shellQuote).join(' ');

  const hooks =
    typeof settings.hooks === 'object' && settings.hooks !== null && !Array.isArray(settings.hooks)
      ? (settings.hooks as Record<string, unknown>)
      : {};
  const groups = Array.isArray(hooks.PreToolUse) ? (hooks.PreToolUse as unknown[]) : [];
  // Earlier Warden entries go, whatever matcher they had; everything else stays.
  const kept = groups
    .map((group) => {
      if (typeof group !== 'object' || group === null) return group;
      const inner = (group as { hooks?: unknown }).hooks;
      if (!Array.isArray(inner)) return group;
      return { ...group, hooks: inner.filter((h) => !isWardenHook(h)) };
    })
    .filter(
      (group) =>
        !(
          typeof group === 'object' &&
          group !== null &&
          Array.isArray((group as { hooks?: unknown }).hooks) &&
          (group as { hooks: unknown[] }).hooks.length === 0
        ),
    );
  const entry = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
  const next = {
    ...settings,
    hooks: { ...hooks, PreToolUse: [...kept, { matcher: '*', hooks: [entry] }] },
  };
  const replaced = kept.length < groups.length || JSON.stringify(kept) !== JSON.stringify(groups);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.warden-${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(temporary, file);

  if (json) {
    printJson(io, { installed: true, file, command, timeout: HOOK_TIMEOUT_SECONDS, replaced });
    return EXIT.ok;
  }
  const s = style(io.color);
  io.out(
    `${s.green('installed')}: every Claude Code tool call now asks Warden (${file}${replaced ? ', the earlier entry replaced' : ''})\n`,
  );
  io.out(`  ${command}\n`);
  io.out(
    options.server !== undefined
      ? '  connected: start Claude Code with WARDEN_TOKEN set to an `agent` token of this server\n'
      : options.policy !== undefined
        ? '  standalone: decisions from the policy file; prompts are denied (no approver)\n'
        : '  give it a policy: set WARDEN_URL and WARDEN_TOKEN for Claude Code, or install again with --server or --policy; until then every call is denied\n',
  );
  return EXIT.ok;
}
