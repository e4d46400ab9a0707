// Codex CLI: `.codex/config.toml` in the project or `$CODEX_HOME/config.toml`
// (default `~/.codex`), one `[[hooks.PreToolUse]]` and one
// `[[hooks.PostToolUse]]` group (no matcher: every tool) running `warden hook
// codex`; `timeout` in seconds. The file is read and written as TOML data:
// every other table and value stays, comments and layout do not.
//
// Codex runs a hook from these files only once it is trusted, and skips an
// untrusted one silently. Trust is kept in the user's config.toml, per entry:
// `[hooks.state."<config.toml path>:<event>:<group>:<handler>"] trusted_hash =
// "sha256:…"`, the SHA-256 of the entry's normalized form (Codex 0.171,
// `hooks/src/engine/discovery.rs`: its event's snake_case name, matcher and
// the one handler with `timeout` and `async` filled in, as JSON with sorted
// keys). Installing writes that hash for the entries it writes, so Codex
// calls them as if the user had trusted them in `/hooks`; an entry edited by
// hand afterwards no longer matches and is skipped until trusted again.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse, stringify } from 'smol-toml';
import { commandPaths, homeOf, isWardenCommand, writeWhole } from './common.js';
import { putGroup } from './json-settings.js';
import type { HookStatus, RuntimeInstaller, Target } from './runtime.js';
import { notInstalled } from './runtime.js';

const EVENTS = ['PreToolUse', 'PostToolUse'] as const;
/** Codex's names for the events in trust keys and hashes. */
const EVENT_KEYS: Readonly<Record<string, string>> = {
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
};
/** Codex's timeout for a hook entry that gives none. */
const CODEX_DEFAULT_TIMEOUT = 600;

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `$CODEX_HOME/config.toml`, where Codex keeps the user's configuration and hook trust. */
function userFile(env: NodeJS.ProcessEnv): string {
  const home = env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? env.CODEX_HOME : undefined;
  return join(home ?? join(homeOf(env), '.codex'), 'config.toml');
}

function file(target: Target): string {
  return target.scope === 'user'
    ? userFile(target.env)
    : join(target.project, '.codex', 'config.toml');
}

/** The TOML document in `path` (`{}` when there is none), or why it cannot be used. */
function readToml(path: string): { ok: true; doc: Table } | { ok: false; message: string } {
  if (!existsSync(path)) return { ok: true, doc: {} };
  try {
    // Integers as BigInt and numbers written as floats: a float stays a float, a large integer exact.
    return { ok: true, doc: parse(readFileSync(path, 'utf8'), { integersAsBigInt: true }) };
  } catch (error) {
    return {
      ok: false,
      message: `\`${path}\` is not TOML (${(error as Error).message.split('\n')[0] ?? ''}): fix it first, nothing was written`,
    };
  }
}

/**
 * Writes the document to `path`. Its comments cannot be kept: a file that had
 * any is first copied to `<path>.before-warden`, whose name is returned.
 */
function writeToml(path: string, doc: Table): string | null {
  let kept: string | null = null;
  if (existsSync(path)) {
    const before = readFileSync(path, 'utf8');
    if (/^\s*#|[^\s"'\\]\s+#/m.test(before)) {
      kept = `${path}.before-warden`;
      writeFileSync(kept, before);
    }
  }
  writeWhole(path, stringify(doc, { numbersAsFloat: true }));
  return kept;
}

/** The path Codex knows a config file by in trust keys: its folder's real path. */
function keyPath(path: string): string {
  const folder = dirname(path);
  return join(existsSync(folder) ? realpathSync(folder) : resolve(folder), 'config.toml');
}

/** Codex's trust key of one hook entry. */
export function codexTrustKey(path: string, event: string, group: number, handler: number): string {
  return `${keyPath(path)}:${EVENT_KEYS[event] ?? event}:${group}:${handler}`;
}

/** JSON with every object's keys sorted, as Codex hashes it. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isTable(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key])]),
    );
  return typeof value === 'bigint' ? Number(value) : value;
}

/** Codex's hash of one command entry (what `trusted_hash` must equal for Codex to run it). */
export function codexHookHash(event: string, matcher: string | undefined, handler: Table): string {
  const timeout = handler.timeout === undefined ? CODEX_DEFAULT_TIMEOUT : Number(handler.timeout);
  const normalized: Table = {
    type: 'command',
    command: handler.command,
    timeout: Math.max(1, timeout),
    async: handler.async === true,
  };
  if (typeof handler.statusMessage === 'string') normalized.statusMessage = handler.statusMessage;
  const identity: Table = { event_name: EVENT_KEYS[event] ?? event, hooks: [normalized] };
  if (matcher !== undefined) identity.matcher = matcher;
  const json = JSON.stringify(canonical(identity));
  return `sha256:${createHash('sha256').update(json).digest('hex')}`;
}

/** Warden's entries in a config document: event, place and handler. */
function wardenEntries(doc: Table) {
  const hooks = isTable(doc.hooks) ? doc.hooks : {};
  const found: { event: string; group: number; handler: number; matcher?: string; entry: Table }[] =
    [];
  for (const event of EVENTS) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, g) => {
      if (!isTable(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((entry: unknown, h) => {
        if (isTable(entry) && isWardenCommand(entry.command))
          found.push({
            event,
            group: g,
            handler: h,
            ...(typeof group.matcher === 'string' ? { matcher: group.matcher } : {}),
            entry,
          });
      });
    });
  }
  return found;
}

/** The `[hooks.state]` table of the user's config document, made if missing. */
function stateTable(doc: Table): Table {
  const hooks = isTable(doc.hooks) ? doc.hooks : (doc.hooks = {});
  return isTable(hooks.state) ? hooks.state : (hooks.state = {});
}

/**
 * Whether Codex loads the project's `.codex/config.toml`: it does only in a
 * trusted project, trusted by its own folder or one above it (its repository's).
 */
function projectTrusted(user: Table, project: string): boolean {
  const projects = isTable(user.projects) ? user.projects : {};
  const trusted = (folder: string): boolean => {
    const entry = projects[folder];
    if (isTable(entry) && entry.trust_level === 'trusted') return true;
    const up = dirname(folder);
    return up !== folder && trusted(up);
  };
  return trusted(resolve(project)) || (existsSync(project) && trusted(realpathSync(project)));
}

const untrustedProject = (project: string) =>
  `Codex reads ${join(project, '.codex', 'config.toml')} only in a trusted project: trust ${project} when Codex asks on its first start there (or run \`codex exec --trust\` there once)`;

export const codexInstaller: RuntimeInstaller = {
  runtime: 'codex',
  label: 'Codex',
  events: EVENTS,
  timeoutUnit: 's',
  file,
  install(target, hook) {
    const path = file(target);
    const trustPath = userFile(target.env);
    const read = readToml(path);
    if (!read.ok) return { ok: false, path, message: read.message };
    const doc = read.doc;
    if (doc.hooks !== undefined && !isTable(doc.hooks))
      return {
        ok: false,
        path,
        message: `\`${path}\`: \`hooks\` is not a table: nothing was written`,
      };
    let user = doc;
    if (trustPath !== path) {
      const readUser = readToml(trustPath);
      if (!readUser.ok) return { ok: false, path: trustPath, message: readUser.message };
      user = readUser.doc;
      if (user.hooks !== undefined && !isTable(user.hooks))
        return {
          ok: false,
          path: trustPath,
          message: `\`${trustPath}\`: \`hooks\` is not a table: nothing was written`,
        };
    }
    mkdirSync(dirname(path), { recursive: true });
    const hooks = isTable(doc.hooks) ? doc.hooks : (doc.hooks = {});
    let replaced = false;
    const trust: [string, string][] = [];
    for (const event of EVENTS) {
      const entry = {
        type: 'command',
        command: hook.command,
        timeout: BigInt(hook.runtimeSeconds),
      };
      const ours = { hooks: [entry] };
      const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
      const put = putGroup(groups, ours);
      hooks[event] = put.groups;
      replaced ||= put.replaced;
      trust.push([
        codexTrustKey(path, event, put.groups.indexOf(ours), 0),
        codexHookHash(event, undefined, entry),
      ]);
    }
    const state = stateTable(user);
    for (const [key, hash] of trust)
      state[key] = { ...(isTable(state[key]) ? state[key] : {}), trusted_hash: hash };
    const kept = [writeToml(path, doc), trustPath === path ? null : writeToml(trustPath, user)];
    return {
      ok: true,
      files: trustPath === path ? [path] : [path, trustPath],
      replaced,
      timeout: hook.runtimeSeconds,
      notes: [
        ...kept
          .filter((copy): copy is string => copy !== null)
          .map(
            (copy) =>
              `${copy.slice(0, -'.before-warden'.length)} is rewritten from its data, without its comments: the file as it was is in ${copy}`,
          ),
        ...(/--sandbox '?(required|off)'?/.test(hook.command)
          ? []
          : [
              "under Codex's own sandbox (`-s workspace-write`, `read-only`, Codex's default) Warden's cannot start: allowed commands then run under Codex's sandbox alone, which lets them read ~/.ssh and Warden's data folder. Run Codex with `-s danger-full-access`, and Warden's sandbox runs every allowed command; or install with `--sandbox required` to deny the commands Warden cannot sandbox",
            ]),
      ],
      todo:
        target.scope === 'project' && !projectTrusted(user, target.project)
          ? [untrustedProject(target.project)]
          : [],
    };
  },
  inspect(target): HookStatus {
    const path = file(target);
    const base = { runtime: 'codex' as const, scope: target.scope, file: path };
    const read = readToml(path);
    const readUser = path === userFile(target.env) ? read : readToml(userFile(target.env));
    if (!read.ok)
      return notInstalled(base, [read.message.replace(/: fix it first, nothing was written$/, '')]);
    const found = wardenEntries(read.doc);
    if (found.length === 0) return notInstalled(base, []);
    const command = found[0]?.entry.command as string;
    const paths = commandPaths(command);
    const state =
      readUser.ok && isTable(readUser.doc.hooks) && isTable(readUser.doc.hooks.state)
        ? readUser.doc.hooks.state
        : {};
    const problems = paths.filter((p) => !p.exists).map((p) => `\`${p.path}\` does not exist`);
    let trusted = true;
    for (const f of found) {
      const entryState = state[codexTrustKey(path, f.event, f.group, f.handler)];
      const hash = codexHookHash(f.event, f.matcher, f.entry);
      if (isTable(entryState) && entryState.enabled === false)
        problems.push(`the ${f.event} entry is disabled in Codex (\`/hooks\`)`);
      if (!isTable(entryState) || entryState.trusted_hash !== hash) {
        trusted = false;
        problems.push(
          `the ${f.event} entry is not trusted: Codex skips it without a word; install again, or trust it in Codex's \`/hooks\``,
        );
      }
    }
    if (
      target.scope === 'project' &&
      !(readUser.ok && projectTrusted(readUser.doc, target.project))
    )
      problems.push(untrustedProject(target.project));
    const decides = found.some((f) => f.event === EVENTS[0]);
    return {
      ...base,
      installed: true,
      events: [...new Set(found.map((f) => f.event))],
      command,
      paths,
      called: decides && problems.length === 0,
      problems,
      trusted,
    };
  },
};
