// The folders the confinement tests run against, built from a description: an
// agent folder `<agents>/<id>/{AgentSettings.json, Identity.md, Soul.md,
// Workspace/…}`, worktrees, links, hard links and FIFOs — each test asks for
// what it needs instead of rebuilding the layout by hand.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll } from 'vitest';

/** A credential inside the agent folder: no answer may ever show it. */
export const SECRET = 'SECRET-API-KEY-4711';
/** The content of a file beyond every root: no answer may ever show it. */
export const OUTSIDE = 'OUTSIDE-CONTENT-0815';

/** What stands at one path of a layout: a file's content, or a folder, link or FIFO. */
export type Entry =
  | string
  | { readonly folder: true }
  | { readonly link: string }
  | { readonly hardLink: string }
  | { readonly fifo: true };

/** Entries by their path below the layout's root, `/`-separated. */
export type Layout = Readonly<Record<string, Entry>>;

/** An empty folder. */
export const FOLDER: Entry = { folder: true };
/** A FIFO, where `mkfifo` exists. */
export const FIFO: Entry = { fifo: true };

/** A symbolic link with the text `target`: relative to the link's folder, or absolute. */
export function link(target: string): Entry {
  return { link: target };
}

/** A hard link to the file `target` of the layout, named relative to the link's folder. */
export function hardLink(target: string): Entry {
  return { hardLink: target };
}

/** Writes a file, making its folders first. */
export function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/**
 * Makes `layout` below `root` (and `root` itself): files and folders first,
 * then links, hard links and FIFOs, so a link may name what is listed after
 * it. Returns whether every FIFO could be made: `mkfifo` is not everywhere.
 */
export function build(root: string, layout: Layout): boolean {
  mkdirSync(root, { recursive: true });
  const at = Object.entries(layout).map(([path, entry]) => [join(root, path), entry] as const);
  let fifos = true;
  for (const [path, entry] of at) {
    if (typeof entry === 'string') write(path, entry);
    else if ('folder' in entry) mkdirSync(path, { recursive: true });
    else mkdirSync(dirname(path), { recursive: true });
  }
  for (const [path, entry] of at) {
    if (typeof entry === 'string') continue;
    if ('link' in entry) symlinkSync(entry.link, path);
    if ('hardLink' in entry) linkSync(resolve(dirname(path), entry.hardLink), path);
    if ('fifo' in entry) fifos = spawnSync('mkfifo', [path]).status === 0 && fifos;
  }
  return fifos;
}

/** An agent folder: the allowlisted files where given, anything beside them, and its Workspace. */
export interface AgentSpec {
  /** `AgentSettings.json`, the agent's credentials: never readable. */
  readonly settings?: string;
  /** `Identity.md`. */
  readonly identity?: string;
  /** `Soul.md`. */
  readonly soul?: string;
  /** Entries in the agent folder beside the allowlist (`history.log`, `Workspace-Backup/…`). */
  readonly beside?: Layout;
  /** Entries below `Workspace/`. */
  readonly workspace?: Layout;
}

/** The layout of agent `id`'s folder, for a `build` of the agents folder. */
export function agentFolder(id: string, spec: AgentSpec = {}): Layout {
  const files: [string, string | undefined][] = [
    ['AgentSettings.json', spec.settings],
    ['Identity.md', spec.identity],
    ['Soul.md', spec.soul],
  ];
  const layout: Record<string, Entry> = {};
  for (const [name, content] of files) if (content !== undefined) layout[`${id}/${name}`] = content;
  for (const [path, entry] of Object.entries(spec.beside ?? {})) layout[`${id}/${path}`] = entry;
  for (const [path, entry] of Object.entries(spec.workspace ?? {})) {
    layout[`${id}/Workspace/${path}`] = entry;
  }
  return layout;
}

/** The places a confine test names, all below one temporary folder of its own. */
export interface ConfineFolder {
  /** The temporary folder: made by the first `build` in it, removed after the file's tests. */
  readonly base: string;
  /** `<base>/outside`: beyond every root, for links that lead out. */
  readonly outside: string;
  /** `<base>/agents`, the agents folder. */
  readonly agents: string;
  /** `<base>/agents/a1`, the agent under test. */
  readonly agent: string;
  /** `<agent>/Workspace`. */
  readonly ws: string;
  /** `<base>/worktree`, a tools worktree. */
  readonly worktree: string;
}

/**
 * Names a fresh temporary folder for one test file (`real`: below the real
 * path of the system's temporary folder) and registers its removal after the
 * file's tests. Call it at the top of the file; nothing is made on disk yet.
 */
export function confineFolder(name: string, options: { real?: boolean } = {}): ConfineFolder {
  const tmp = options.real === true ? realpathSync(tmpdir()) : tmpdir();
  const base = join(tmp, `warden-confine-${name}-${randomBytes(6).toString('hex')}`);
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });
  const agent = join(base, 'agents', 'a1');
  return {
    base,
    outside: join(base, 'outside'),
    agents: join(base, 'agents'),
    agent,
    ws: join(agent, 'Workspace'),
    worktree: join(base, 'worktree'),
  };
}
