// The reference lives in the repository (docs/reference/): every promise id
// (G22, E41, I5, A6, G14b …) and every `contracts §N` the code, tests and docs
// cite is defined there; the generated CLI and HTTP pages are what
// `npm run reference` writes now; and what users read — each command's
// `--help`, the OpenAPI summaries and descriptions — carries no ids.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/main.js';
import {
  CLI_PAGE,
  HTTP_PAGE,
  ROOT,
  commandsOf,
  openapiDocument,
  renderCli,
  renderHttp,
  silentIo,
} from '../../../scripts/reference.js';

const REFERENCE = join(ROOT, 'docs', 'reference');

/** Where ids are cited: sources, tests, the console, the bench, scripts, docs and the corpus. */
const SCANNED = [
  ...readdirSync(join(ROOT, 'packages')).flatMap((p) => [
    join('packages', p, 'src'),
    join('packages', p, 'test'),
  ]),
  'packages/warden/web',
  'bench',
  'scripts',
  'corpus',
  'examples',
  'docs',
  'README.md',
  'CHANGELOG.md',
];
const TEXT = /\.(ts|tsx|js|mjs|md|ya?ml|json|html)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage']);

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return [];
  }
  if (stat.isFile()) return TEXT.test(path) ? [path] : [];
  return readdirSync(full)
    .filter((name) => !SKIPPED.has(name))
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/**
 * A promise id as the code cites it: `(G14b, E26)`, `'A6: …'`, `E6/E42:`,
 * `G22–G26`. Not a part of a longer word (`E2E`, hex digits, `A4B`), and not
 * a value in quotes (`approvalId: 'A1'`, `` `A1` ``).
 */
const ID = /(?<![\w.-])([GEIA]\d{1,2}[a-z]?)(?![\w-])/g;
const QUOTES = new Set(["'", '"', '`']);
/** `contracts §8`, `contracts.md §1`, `inspector.md §2`, `guard-rules §11`. */
const SECTION = /\b(contracts|inspector|guard-rules)(?:\.md)? §\s?(\d+)/g;

interface Cite {
  readonly key: string;
  readonly where: string;
}

function citesIn(file: string): Cite[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const lines = text.split('\n');
  const out: Cite[] = [];
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const match of line.matchAll(ID)) {
      const before = line[(match.index ?? 0) - 1] ?? '';
      const after = line[(match.index ?? 0) + (match[1] as string).length] ?? '';
      if (QUOTES.has(before) && before === after) continue;
      out.push({ key: match[1] as string, where });
    }
    for (const match of line.matchAll(SECTION)) {
      const doc = match[1] === 'guard-rules' ? 'policy' : (match[1] as string);
      out.push({ key: `${doc} §${match[2] as string}`, where });
    }
  });
  return out;
}

/** What the reference defines: the ids and `§N` that open a heading of its pages. */
function defined(): Set<string> {
  const keys = new Set<string>();
  for (const page of ['policy', 'inspector', 'contracts']) {
    const text = readFileSync(join(REFERENCE, `${page}.md`), 'utf8');
    for (const match of text.matchAll(/^#{2,4} (?:§(\d+)|([GEIA]\d{1,2}[a-z]?))\b/gm)) {
      if (match[1] !== undefined) keys.add(`${page} §${match[1]}`);
      if (match[2] !== undefined) keys.add(match[2]);
    }
  }
  return keys;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

describe('the reference defines every id and section the repository cites', () => {
  it('each promise id, `contracts §N`, `inspector.md §N` and `guard-rules §N` has its heading in docs/reference', () => {
    const keys = defined();
    const cites = SCANNED.flatMap(filesUnder).flatMap(citesIn);
    // The scan reads real citations: hundreds of them, of every kind.
    expect(cites.length).toBeGreaterThan(500);
    for (const kind of [/^G/, /^E/, /^I/, /^A/, /^contracts §/])
      expect(cites.some((c) => kind.test(c.key))).toBe(true);
    const missing = cites.filter((c) => !keys.has(c.key)).map((c) => `${c.key} at ${c.where}`);
    expect(missing, 'cited, but not defined by a heading in docs/reference').toEqual([]);
  });

  it('the promise ranges are complete: G1–G39, E1–E44, I1–I11, A1–A6', () => {
    const keys = defined();
    const expected = [
      ...Array.from({ length: 39 }, (_, i) => `G${i + 1}`),
      ...Array.from({ length: 44 }, (_, i) => `E${i + 1}`),
      ...Array.from({ length: 11 }, (_, i) => `I${i + 1}`),
      ...Array.from({ length: 6 }, (_, i) => `A${i + 1}`),
      ...Array.from({ length: 8 }, (_, i) => `contracts §${i + 1}`),
    ];
    expect(expected.filter((key) => !keys.has(key))).toEqual([]);
  });

  it('every link between the reference pages lands on a heading', () => {
    const pages = readdirSync(REFERENCE).filter((name) => name.endsWith('.md'));
    const anchors = new Map<string, Set<string>>();
    for (const page of pages) {
      const text = readFileSync(join(REFERENCE, page), 'utf8');
      const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] as string));
      anchors.set(page, new Set(headings));
    }
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(REFERENCE, page), 'utf8');
      for (const match of text.matchAll(/\]\(([\w.-]*\.md)?#([^)\s]+)\)/g)) {
        const target = match[1] ?? page;
        if (!(anchors.get(target)?.has(match[2] as string) ?? false))
          broken.push(`${page}: ${target}#${match[2] as string}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the generated pages are what `npm run reference` writes now', () => {
  it('docs/reference/cli.md follows the commander program', async () => {
    const written = readFileSync(CLI_PAGE, 'utf8');
    expect(
      written === (await renderCli()),
      'docs/reference/cli.md is stale: run `npm run reference`',
    ).toBe(true);
  });

  it('docs/reference/http.md follows the server routes', async () => {
    const written = readFileSync(HTTP_PAGE, 'utf8');
    expect(
      written === (await renderHttp()),
      'docs/reference/http.md is stale: run `npm run reference`',
    ).toBe(true);
  });

  it('the pages name every command and every route', async () => {
    const cli = await renderCli();
    for (const { path } of commandsOf(buildProgram(silentIo(), false)))
      expect(cli).toContain(['warden', ...path].join(' '));
    const http = await renderHttp();
    const paths = openapiDocument().paths as Record<string, Record<string, unknown>>;
    for (const [path, methods] of Object.entries(paths))
      for (const method of Object.keys(methods))
        expect(http).toContain(`\`${method.toUpperCase()} ${path}\``);
  });
});

/** A promise id or a section of the reference, as it must not appear in what users read. */
const LEAK = /(?<![\w.-])[GEIA]\d{1,2}[a-z]?(?![\w-])|§\s?\d/;

describe('what users read carries no promise ids', () => {
  it('no `--help` of any command names a promise id or `contracts §`', async () => {
    const leaks: string[] = [];
    for (const { path } of commandsOf(buildProgram(silentIo(), false))) {
      let help = '';
      const program = buildProgram(
        silentIo((text) => (help += text)),
        false,
      );
      await program.parseAsync([...path, '--help'], { from: 'user' }).catch((error: unknown) => {
        if (!(error instanceof CommanderError)) throw error;
      });
      const shown = ['warden', ...path, '--help'].join(' ');
      expect(help, shown).toContain('Usage: warden');
      for (const line of help.split('\n'))
        if (LEAK.test(line)) leaks.push(`${shown}: ${line.trim()}`);
    }
    expect(leaks).toEqual([]);
  });

  it('no summary or description of the OpenAPI document names a promise id or `contracts §`', () => {
    const leaks: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
      else if (typeof value === 'object' && value !== null)
        for (const [key, v] of Object.entries(value)) {
          if ((key === 'summary' || key === 'description') && typeof v === 'string') {
            if (LEAK.test(v)) leaks.push(`${at}.${key}: ${v}`);
          } else walk(v, `${at}.${key}`);
        }
    };
    walk(openapiDocument().paths, 'paths');
    expect(leaks).toEqual([]);
  });

  it('the leak check sees an id where one is', () => {
    expect(LEAK.test('the honesty matrix (G37)')).toBe(true);
    expect(LEAK.test('the decision (contracts §3)')).toBe(true);
    expect(LEAK.test('run an E2E check on A4B paper')).toBe(false);
  });
});
