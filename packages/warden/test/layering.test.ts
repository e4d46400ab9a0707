// The read-only side imports nothing that acts (STYLE 10): the inspector and the
// report read evidence, so no module they load — directly or through others —
// may run a tool, decide or record a call, settle an approval, open a store,
// write the instance or spawn a process.
//
// The rule, precisely: walk every runtime import (static `import`/`export … from`,
// side-effect `import '…'` and `import('…')`; `import type` and `export type` are
// erased and do not load code) from each file under `src/inspector/` and
// `src/report/`, and from `src/api/inspector.ts`, which exports them. No file
// reached may be one of FORBIDDEN below, and no file reached may import a
// FORBIDDEN_BUILTIN. Packages outside `src/` are not walked: the MCP SDK's stdio
// transport is how the inspector answers, and `croner` and `pino` schedule and
// log reports. The inspector reads the store through the `StoreReader` it is
// handed and the report writes only its own records through the `ReportStore`
// it is handed; both are types from `store/types.ts`.
//
// And the server acts through the `Warden` facade's capabilities
// (`src/capabilities/`), never on its store: no file under `src/server/`
// reaches `warden.store` — as `warden.store`, `ctx.warden.store`, or a `store`
// destructured from a Warden — so each rule about a record lives in one place.
// The capabilities sit beneath the server: no file under `src/capabilities/`
// imports from `src/server/`, not even a type.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
/** The read-only side: two folders and the subpath export that offers them (`warden/inspector`). */
const ROOTS = ['inspector', 'report', 'api/inspector.ts'];

/** Source paths (relative to `src/`, a folder ends in `/`) that act, and why. */
const FORBIDDEN: readonly (readonly [string, string])[] = [
  ['tools/builtin/', 'the built-in tools act (their classes are data in tools/builtin/classes.ts)'],
  ['gate/', 'the gate decides and records calls'],
  ['approvals/', 'the broker settles approvals'],
  ['audit/writer.ts', 'writes the audit log'],
  ['warden.ts', 'opens the gate and the store'],
  ['store/', 'opens and writes stores (only store/types.ts is read)'],
  ['paths/write.ts', 'writes files'],
  ['paths/trash.ts', 'deletes files'],
  ['instance/create.ts', 'creates agent folders'],
  ['sandbox/', 'runs commands under the OS sandbox'],
  ['server/', 'the HTTP server acts on requests'],
  ['gateway/', 'the gateway forwards calls upstream'],
  ['hook/', 'the hook decides on an agent host'],
  ['cli/', 'the CLI acts on commands'],
  ['templates/', 'templates write policy'],
];
const ALLOWED: readonly string[] = ['tools/builtin/classes.ts', 'store/types.ts'];

/** Node modules that start processes, threads or connections. */
const FORBIDDEN_BUILTINS = new Set(
  [
    'child_process',
    'cluster',
    'worker_threads',
    'net',
    'tls',
    'dgram',
    'http',
    'https',
    'http2',
  ].flatMap((name) => [name, `node:${name}`]),
);

const STATEMENT =
  /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*([^)]*?)\s*\)/g;

interface Found {
  readonly spec: string;
  /** A dynamic import whose specifier is no string literal: its target cannot be checked. */
  readonly unresolvable?: true;
}

/** The runtime imports of a module's text; type-only ones are left out. */
function runtimeImports(source: string): Found[] {
  const text = source.replace(/^\s*\/\/.*$/gm, '');
  const found: Found[] = [];
  for (const m of text.matchAll(STATEMENT)) {
    if (m[3] !== undefined) {
      if (m[2] === undefined) found.push({ spec: m[3] });
    } else if (m[4] !== undefined) {
      const literal = /^(['"`])([^'"`$]+)\1$/.exec(m[4]);
      found.push(
        literal?.[2] === undefined ? { spec: m[4], unresolvable: true } : { spec: literal[2] },
      );
    }
  }
  return found;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function rel(path: string): string {
  return relative(SRC, path).split('\\').join('/');
}

function why(path: string): string | null {
  const r = rel(path);
  if (ALLOWED.includes(r)) return null;
  const hit = FORBIDDEN.find(([prefix]) =>
    prefix.endsWith('/') ? r.startsWith(prefix) : r === prefix,
  );
  return hit === undefined ? null : hit[1];
}

/** Every chain from a root to something that acts, as `a -> b -> c: reason`. */
function violations(): string[] {
  const parent = new Map<string, string | null>();
  const queue = ROOTS.flatMap((root) =>
    root.endsWith('.ts') ? [join(SRC, root)] : files(join(SRC, root)),
  );
  for (const path of queue) parent.set(path, null);
  const chain = (path: string): string => {
    const names: string[] = [];
    for (let p: string | null | undefined = path; p != null; p = parent.get(p))
      names.unshift(rel(p));
    return names.join(' -> ');
  };
  const found: string[] = [];
  // An array's iterator also visits what is pushed while it runs: a breadth-first walk.
  for (const from of queue) {
    for (const { spec, unresolvable } of runtimeImports(readFileSync(from, 'utf8'))) {
      if (unresolvable) {
        found.push(`${chain(from)}: import(${spec}) cannot be checked`);
        continue;
      }
      if (FORBIDDEN_BUILTINS.has(spec)) {
        found.push(`${chain(from)} -> ${spec}: starts processes, threads or connections`);
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(from), spec).replace(/\.js$/, '.ts');
      if (!existsSync(target)) {
        found.push(`${chain(from)} -> ${spec}: not found`);
        continue;
      }
      if (parent.has(target)) continue;
      parent.set(target, from);
      const reason = why(target);
      if (reason !== null) found.push(`${chain(target)}: ${reason}`);
      else queue.push(target);
    }
  }
  return found;
}

describe('the read-only side imports nothing that acts', () => {
  it('no import chain from src/inspector/ or src/report/ reaches a module that acts', () => {
    expect(violations()).toEqual([]);
  });

  it('reads type-only imports as erased and every other form as an import', () => {
    const source = [
      "import type { Store } from '../store/types.js';",
      "export type { Gate } from '../gate/gate.js';",
      "import { quote } from '../paths/problem.js';",
      "import {\n  a,\n  b,\n} from './multi-line.js';",
      "export { c } from './re-export.js';",
      "export * from './star.js';",
      "import './side-effect.js';",
      "// import { gone } from './commented.js';",
      "const late = await import('./dynamic.js');",
      'const named = await import(name);',
    ].join('\n');
    expect(runtimeImports(source)).toEqual([
      { spec: '../paths/problem.js' },
      { spec: './multi-line.js' },
      { spec: './re-export.js' },
      { spec: './star.js' },
      { spec: './side-effect.js' },
      { spec: './dynamic.js' },
      { spec: 'name', unresolvable: true },
    ]);
  });
});

/** Where a server file reaches the Warden's store: `warden.store`, `warden?.store`, `warden['store']`, or `{ store } = …warden`. */
const STORE_REACH = [
  /\bwarden\s*\??\.\s*store\b/g,
  /\bwarden\s*\[\s*['"`]store['"`]\s*\]/g,
  /\{[^{}]*\bstore\b[^{}]*\}\s*=\s*(?:[\w$]+\s*\??\.\s*)*warden\b/g,
];

/** Each place in a module's text that reaches the Warden's store, as `line: text`. */
function storeReaches(source: string): string[] {
  // Comments say what the code does; only code counts. Stripped to spaces, so lines keep their numbers.
  const text = source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/\/\/.*$/gm, (comment) => ' '.repeat(comment.length));
  const lines = source.split('\n');
  const found = new Map<number, string>();
  for (const pattern of STORE_REACH)
    for (const m of text.matchAll(pattern)) {
      const line = text.slice(0, m.index).split('\n').length;
      found.set(line, `${line}: ${(lines[line - 1] ?? '').trim()}`);
    }
  return [...found].sort(([a], [b]) => a - b).map(([, shown]) => shown);
}

describe('the server acts through the Warden facade, not its store', () => {
  it('no file under src/server/ reaches warden.store', () => {
    const found = files(join(SRC, 'server')).flatMap((path) =>
      storeReaches(readFileSync(path, 'utf8')).map((at) => `${rel(path)}:${at}`),
    );
    expect(found).toEqual([]);
  });

  it('finds every way of reaching the store, and names its line', () => {
    const source = [
      'const a = await warden.store.runs.get(id);',
      'const b = await ctx.warden.store.tokens.list();',
      'startReports({ store: warden.store });',
      'const { store } = ctx.warden;',
      'const {\n  gate,\n  store,\n} = warden;',
      "const c = warden['store'];",
      'const d = ctx.warden?.store;',
      '// warden.store in a comment is no use',
      '/* nor warden.store here */',
      'const e = await warden.runs.get(id);',
      'const f = await warden.storage.ping();',
      'const { runs } = warden;',
    ].join('\n');
    expect(storeReaches(source)).toEqual([
      '1: const a = await warden.store.runs.get(id);',
      '2: const b = await ctx.warden.store.tokens.list();',
      '3: startReports({ store: warden.store });',
      '4: const { store } = ctx.warden;',
      '5: const {',
      "9: const c = warden['store'];",
      '10: const d = ctx.warden?.store;',
    ]);
  });
});

describe('the capabilities sit beneath the server', () => {
  it('no file under src/capabilities/ imports from src/server/, types included', () => {
    const found = files(join(SRC, 'capabilities')).flatMap((path) =>
      [
        ...readFileSync(path, 'utf8').matchAll(
          /\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/g,
        ),
      ]
        .map((m) => (m[1] ?? m[2]) as string)
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => rel(resolve(dirname(path), spec)).startsWith('server/'))
        .map((spec) => `${rel(path)} -> ${spec}`),
    );
    expect(files(join(SRC, 'capabilities')).length).toBeGreaterThan(5);
    expect(found).toEqual([]);
  });
});
