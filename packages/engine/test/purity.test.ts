// The engine is pure (STYLE 1, 11): no `node:*` import, no IO module, no clock
// or environment read, in its own code or in what it depends on.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENGINE = join(import.meta.dirname, '..');
const SRC = join(ENGINE, 'src');
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name === 'test' || name === 'tests' ? [] : files(path, ext);
    return ext.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function specifiers(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** The installed folder of a dependency, found the way Node finds it. */
function packageRoot(name: string): string {
  for (let dir = ENGINE; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

const manifest = JSON.parse(readFileSync(join(ENGINE, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const dependencies = Object.keys(manifest.dependencies ?? {});

describe('the engine is pure', () => {
  it('imports no node built-in module in its own code', () => {
    const offenders = files(SRC, /\.ts$/).flatMap((path) =>
      specifiers(path)
        .filter((spec) => BUILTINS.has(spec) || spec.startsWith('node:'))
        .map((spec) => `${path.slice(SRC.length + 1)}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('imports only its own modules and its declared dependencies', () => {
    const offenders = files(SRC, /\.ts$/).flatMap((path) =>
      specifiers(path)
        .filter(
          (spec) =>
            !spec.startsWith('.') &&
            !dependencies.some((dep) => spec === dep || spec.startsWith(`${dep}/`)),
        )
        .map((spec) => `${path.slice(SRC.length + 1)}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('depends only on packages that themselves import no node built-in', () => {
    expect(dependencies.sort()).toEqual(['@noble/hashes', 'zod']);
    const offenders: string[] = [];
    for (const dep of dependencies) {
      const root = packageRoot(dep);
      for (const path of files(root, /\.(c|m)?js$/)) {
        for (const spec of specifiers(path)) {
          if (BUILTINS.has(spec) || spec.startsWith('node:'))
            offenders.push(`${path.slice(root.length + 1)} (${dep}): ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('reads no clock, randomness or environment in its own code', () => {
    const offenders = files(SRC, /\.ts$/).flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      return [/Date\.now\(/, /new Date\(\)/, /Math\.random\(/, /\bprocess\./, /\bglobalThis\./]
        .filter((pattern) => pattern.test(text))
        .map((pattern) => `${path.slice(SRC.length + 1)}: ${pattern.source}`);
    });
    expect(offenders).toEqual([]);
  });
});
