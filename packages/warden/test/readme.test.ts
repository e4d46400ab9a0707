// The README is a newcomer's path: what Warden is, the quickstart and one
// walkthrough, short enough to read through (at most 250 lines); the rest is in
// the guides under docs/, each linked from it. This keeps that true, and keeps
// the links between the pages working: every relative link in README.md and in
// docs/ lands on a file of the repository, and on a heading there when it names
// one (GitHub's anchors), so moving a section cannot leave a dead link behind.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const GUIDES = join(DOCS, 'guides');
const MAX_README_LINES = 250;

/** Every Markdown file under `dir`, as absolute paths, in a stable order. */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return markdownUnder(path);
      return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
    });
}

/** The pages whose links are checked: the README and every page under docs/. */
const PAGES = [README, ...markdownUnder(DOCS)];

/** Blanks a piece of text, keeping its line breaks: offsets and line numbers stay where they were. */
const blank = (s: string): string => s.replace(/[^\n]/g, ' ');

/** The text with fenced code blocks blanked out: a `# comment` inside one is not a heading. */
function withoutFences(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null && marker !== undefined) {
        fence = marker;
        return blank(line);
      }
      if (fence !== null) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length)
          fence = null;
        return blank(line);
      }
      return line;
    })
    .join('\n');
}

/**
 * The text with all code blanked out, fenced blocks and inline code spans, so
 * that a `[x](y)` inside code is not a link. A code span cannot cross a blank
 * line, so each paragraph is taken on its own.
 */
function withoutCode(text: string): string {
  return withoutFences(text)
    .split(/(\n[ \t]*\n)/)
    .map((part) => part.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank))
    .join('');
}

/**
 * GitHub's anchor for a heading: its text as rendered, lower case, punctuation
 * dropped but for `-` and `_` (GitHub keeps both), each space a hyphen.
 */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image reads as its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[`*]/g, ''); // code and emphasis markers; a code span's text stays
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings; a repeated one gets `-1`, `-2`, … as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(text).split('\n')) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  readonly target: string;
  readonly line: number;
}

/** The link targets of a Markdown text: `[x](y)`, `![x](y)`, `[x]: y`, and HTML `src`/`href`. */
function linksOf(text: string): Link[] {
  const plain = withoutCode(text);
  const lineAt = (index: number): number => plain.slice(0, index).split('\n').length;
  const found: Link[] = [];
  const patterns = [
    /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^\s)>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
    /^ {0,3}\[[^\]]+\]:[ \t]*<?([^\s>]+)>?/gm,
    /<(?:a|img)\b[^>]*?\s(?:href|src)="([^"]+)"/g,
  ];
  for (const pattern of patterns)
    for (const match of plain.matchAll(pattern))
      found.push({ target: match[1] as string, line: lineAt(match.index ?? 0) });
  return found.sort((a, b) => a.line - b.line);
}

/** A link leaves the repository (a URL with a scheme, or protocol-relative): not checked here. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** Where a relative link from `page` lands: the file, and the anchor it names (or null). */
function resolveLink(page: string, target: string): { file: string; anchor: string | null } {
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const file =
    path === '' ? page : path.startsWith('/') ? join(ROOT, path) : resolve(dirname(page), path);
  return { file, anchor };
}

/** What is wrong with each relative link of `page` (whose text is `text`), one line each. */
function brokenLinks(page: string, text: string): string[] {
  const broken: string[] = [];
  const where = relative(ROOT, page);
  for (const { target, line } of linksOf(text)) {
    if (EXTERNAL.test(target)) continue;
    const { file, anchor } = resolveLink(page, target);
    const at = `${where}:${line}: \`${target}\``;
    const inRepo = relative(ROOT, file);
    if (inRepo.startsWith(`..${sep}`) || inRepo === '..') {
      broken.push(`${at} leads out of the repository`);
      continue;
    }
    const self = file === page;
    if (!self && !existsSync(file)) {
      broken.push(`${at}: no file ${inRepo}`);
      continue;
    }
    if (anchor === null || anchor === '') continue;
    if (!self && (!statSync(file).isFile() || !file.endsWith('.md'))) {
      broken.push(`${at}: an anchor into ${inRepo}, which is not a Markdown file`);
      continue;
    }
    const headings = anchorsOf(self ? text : readFileSync(file, 'utf8'));
    if (!headings.has(anchor))
      broken.push(`${at}: no heading of ${inRepo} has the anchor #${anchor}`);
  }
  return broken;
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('the README is a short path in, and the guides hold the rest', () => {
  it(`README.md has at most ${MAX_README_LINES} lines`, () => {
    expect(lineCount(readFileSync(README, 'utf8'))).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('README.md links to every guide in docs/guides/, to docs/architecture.md and to the reference', () => {
    const linked = new Set(
      linksOf(readFileSync(README, 'utf8'))
        .filter((link) => !EXTERNAL.test(link.target))
        .map((link) => resolveLink(README, link.target).file),
    );
    const wanted = [
      ...markdownUnder(GUIDES),
      join(DOCS, 'architecture.md'),
      join(DOCS, 'reference', 'README.md'),
    ];
    // There are guides to link: the check is not vacuous.
    expect(markdownUnder(GUIDES).length).toBeGreaterThan(5);
    expect(wanted.filter((file) => !linked.has(file)).map((file) => relative(ROOT, file))).toEqual(
      [],
    );
  });

  it('every relative link in README.md and docs/ lands on a file, and on a heading when it names one', () => {
    const checked = PAGES.flatMap((page) => linksOf(readFileSync(page, 'utf8')));
    // The scan reads real links, with anchors among them.
    expect(checked.length).toBeGreaterThan(50);
    expect(checked.some((link) => link.target.includes('#'))).toBe(true);
    expect(PAGES.flatMap((page) => brokenLinks(page, readFileSync(page, 'utf8')))).toEqual([]);
  });
});

describe('the link check sees a broken link where one is', () => {
  const page = join(DOCS, 'guides', 'example.md');
  const text = [
    '# An example',
    '',
    '## `warden exec` — one command',
    '',
    'See [the server](server.md), [above](#warden-exec--one-command), [the reference](../reference/README.md#how-the-ids-are-used),',
    'the [corpus](../../corpus) and <https://example.com> and [a site](https://example.com/x.md#y).',
    '',
    '```sh',
    '# not a heading, and [not a link](nowhere.md)',
    '```',
    '',
    'Not a link either: `[x](nowhere.md)`.',
  ].join('\n');

  it('reads headings as GitHub anchors them, code left out', () => {
    expect([...anchorsOf(text)]).toEqual(['an-example', 'warden-exec--one-command']);
    expect(slug('G22 — Fail-closed approvals')).toBe('g22--fail-closed-approvals');
    expect(slug('§6 Audit entry')).toBe('6-audit-entry');
    expect(slug('The resident runner: what a call costs')).toBe(
      'the-resident-runner-what-a-call-costs',
    );
    expect([...anchorsOf('# Notes\n\n## Notes\n\n## Notes\n')]).toEqual([
      'notes',
      'notes-1',
      'notes-2',
    ]);
  });

  it('accepts links that land, and names each that does not', () => {
    expect(brokenLinks(page, text)).toEqual([]);
    const broken = brokenLinks(
      page,
      [
        '# An example',
        '[gone](no-such-guide.md)',
        '[no such heading](#nowhere)',
        '[no such heading there](../reference/README.md#nowhere)',
        '[out](../../../outside.md)',
      ].join('\n'),
    );
    expect(broken).toEqual([
      'docs/guides/example.md:2: `no-such-guide.md`: no file docs/guides/no-such-guide.md',
      'docs/guides/example.md:3: `#nowhere`: no heading of docs/guides/example.md has the anchor #nowhere',
      'docs/guides/example.md:4: `../reference/README.md#nowhere`: no heading of docs/reference/README.md has the anchor #nowhere',
      'docs/guides/example.md:5: `../../../outside.md` leads out of the repository',
    ]);
  });
});
