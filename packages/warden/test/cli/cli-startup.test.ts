// What the `warden` command line loads before it runs a command: every command
// pays that start, and `warden exec` pays it on every shell call of an agent on
// a host without the runner. The static import graph of the compiled entry
// (what Node loads before the first line runs) holds the commands' flags, help
// and handlers, never what a handler needs: no engine, store, server, sandbox
// or audit module, no schema library, logger or database driver. Those load
// when a command runs. And each command is one module (or one folder) that no
// other command's module imports: what two commands share lives in a module of
// its own beside them in `cli/`.

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const COMMANDS = join(DIST, 'cli', 'commands');

/** The specifiers a compiled module imports statically (`import … from`, `export … from`, bare `import '…'`). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  const pattern =
    /^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) found.push((match[1] ?? match[2]) as string);
  return found;
}

/** The specifiers a compiled module imports when it runs (`import('…')`). */
function dynamicImports(source: string): string[] {
  return [...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] as string);
}

/** Every module the entry loads before it runs: relative files followed, packages listed. */
function startupGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  }
  return { files: [...files].map((f) => relative(DIST, f)).sort(), packages: [...packages].sort() };
}

/** The compiled modules under a folder. */
function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** The command a module under `commands` belongs to: its file's or its folder's name. */
function commandIn(commands: string, file: string): string {
  return (relative(commands, file).split(sep)[0] as string).replace(/\.[jt]s$/, '');
}

function commandOf(file: string): string {
  return commandIn(COMMANDS, file);
}

/** Folders of modules a handler needs, which load only when a command runs. */
const HEAVY_FOLDERS = ['store/', 'server/', 'sandbox/', 'audit/'];
/** Packages a handler needs: the engine, the schema library, the logger, the database drivers. */
const HEAVY_PACKAGES = [
  '@warden/engine',
  'zod',
  'pino',
  'kysely',
  'better-sqlite3',
  'pg',
  'eventsource-parser',
];

describe("the command line's start", () => {
  const { files, packages } = startupGraph(join(DIST, 'cli', 'main.js'));

  it('loads every command’s flags and help (the walk reaches them)', () => {
    for (const command of ['decision', 'exec', 'token', 'agent/index', 'policy/index'])
      expect(files).toContain(`cli/commands/${command}.js`);
  });

  it('loads no engine, schema library, logger or database driver', () => {
    expect(packages.filter((p) => HEAVY_PACKAGES.includes(p))).toEqual([]);
    expect(
      packages.every(
        (p) => p.startsWith('node:') || p === '@commander-js/extra-typings' || p === 'commander',
      ),
      packages.join(', '),
    ).toBe(true);
  });

  it('loads no store, server, sandbox or audit module, nor Warden itself', () => {
    expect(
      files.filter(
        (f) => HEAVY_FOLDERS.some((folder) => f.startsWith(folder)) || f === 'warden.js',
      ),
    ).toEqual([]);
  });

  it('reads imports the way Node does (the walk is not vacuous)', () => {
    const engine = startupGraph(join(DIST, 'warden.js'));
    expect(engine.packages).toContain('@warden/engine');
    expect(engine.files.some((f) => f.startsWith('store/'))).toBe(true);
  });
});

describe('one module (or one folder) per command', () => {
  const compiled = modules(COMMANDS);

  it('no command imports another command, statically or when it runs', () => {
    const crossing: string[] = [];
    for (const file of compiled) {
      const source = readFileSync(file, 'utf8');
      for (const specifier of [...staticImports(source), ...dynamicImports(source)]) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        if (!target.startsWith(COMMANDS + sep)) continue;
        if (commandOf(target) !== commandOf(file))
          crossing.push(`${relative(DIST, file)} → ${relative(DIST, target)}`);
      }
    }
    expect(crossing).toEqual([]);
  });

  it('no module outside the commands imports a command, but the entry', () => {
    const outside = modules(DIST).filter(
      (f) => !f.startsWith(COMMANDS + sep) && f !== join(DIST, 'cli', 'main.js'),
    );
    const reaching: string[] = [];
    for (const file of outside) {
      const source = readFileSync(file, 'utf8');
      for (const specifier of [...staticImports(source), ...dynamicImports(source)])
        if (
          specifier.startsWith('.') &&
          resolve(dirname(file), specifier).startsWith(COMMANDS + sep)
        )
          reaching.push(`${relative(DIST, file)} → ${specifier}`);
    }
    expect(reaching).toEqual([]);
  });

  it('in the source too, type imports included: a map of the tree draws no cycle through a command', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const commands = join(src, 'cli', 'commands');
    const found: string[] = [];
    for (const name of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts')) continue;
      const file = join(src, name);
      const source = readFileSync(file, 'utf8');
      const specifiers = [
        ...source.matchAll(/\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((m) => (m[1] ?? m[2]) as string);
      for (const specifier of specifiers) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        if (!target.startsWith(commands + sep)) continue;
        const from = file.startsWith(commands + sep) ? commandIn(commands, file) : null;
        if (from === commandIn(commands, target)) continue;
        if (file === join(src, 'cli', 'main.ts')) continue;
        found.push(`${name} → ${specifier}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('leaves no command split in two: no `*-command` module remains in the source', () => {
    const source = fileURLToPath(new URL('../../src/cli/', import.meta.url));
    const split = readdirSync(source, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('-command.ts'),
    );
    expect(split).toEqual([]);
  });
});
