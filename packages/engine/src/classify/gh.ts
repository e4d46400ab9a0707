// Reading the GitHub CLI (G14c, E26): `gh pr create` opens a pull request;
// `gh pr merge|review` publishes; `gh repo sync` and the REST calls of
// `gh api` that merge, push or move refs are pushes with the refs they name
// (`-f base=main` → refs [main]); other writes through `gh api` are writes to
// the provider (vendorSyncWrite); GraphQL cannot be read (it can merge and
// push): unparseable.

import { normalizeRef } from '../match/refs.js';
import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext } from './effects.js';
import { effect } from './effects.js';
import { operandsAndOptions } from './options.js';
import type { Extraction } from './programs.js';
import type { OptionSpec } from './table.js';

const NONE: Extraction = { effects: [] };

const GH: OptionSpec = {
  values: ['-R', '--repo', '--hostname'],
};

const API: OptionSpec = {
  flags: ['-i', '--include', '--paginate', '--slurp', '--silent', '--verbose', '-h', '--help'],
  values: [
    '-X',
    '--method',
    '-f',
    '--raw-field',
    '-F',
    '--field',
    '-H',
    '--header',
    '--input',
    '-p',
    '--preview',
    '-q',
    '--jq',
    '-t',
    '--template',
    '--cache',
    '--hostname',
  ],
};

const PR_MERGE_VERBS = new Set(['merge', 'review']);
const PR_CREATE_VERBS = new Set(['create', 'new']);
/** Other `gh` commands that write to GitHub: issues, releases, workflows, secrets, … */
const VENDOR_WRITES: Readonly<Record<string, ReadonlySet<string>>> = {
  issue: new Set([
    'create',
    'new',
    'edit',
    'comment',
    'close',
    'reopen',
    'delete',
    'lock',
    'unlock',
    'pin',
    'unpin',
    'transfer',
    'develop',
  ]),
  pr: new Set(['edit', 'comment', 'close', 'reopen', 'ready', 'lock', 'unlock']),
  release: new Set(['edit', 'delete', 'upload', 'delete-asset']),
  workflow: new Set(['run', 'enable', 'disable']),
  run: new Set(['rerun', 'cancel', 'delete']),
  secret: new Set(['set', 'delete', 'remove']),
  variable: new Set(['set', 'delete', 'remove']),
  label: new Set(['create', 'edit', 'delete', 'clone']),
  repo: new Set(['create', 'edit', 'delete', 'rename', 'archive', 'unarchive', 'fork']),
  gist: new Set(['create', 'new', 'edit', 'delete', 'clone']),
  project: new Set(['create', 'edit', 'delete', 'item-add', 'item-edit', 'item-delete', 'close']),
  cache: new Set(['delete']),
  ruleset: new Set([]),
};

/** The value of `name=value` fields given with `-f`/`-F`, by name; null when not literal or read from a file. */
function fieldsOf(
  seen: readonly { name: string; value: Word | null }[],
): Map<string, string | null> {
  const fields = new Map<string, string | null>();
  for (const option of seen) {
    if (!['-f', '--raw-field', '-F', '--field'].includes(option.name)) continue;
    const value = option.value;
    if (value === null || !value.literal) {
      fields.set('*', null);
      continue;
    }
    const eq = value.value.indexOf('=');
    if (eq < 0) continue;
    const name = value.value.slice(0, eq);
    const text = value.value.slice(eq + 1);
    // `-F key=@file` reads the value from a file.
    const typed = option.name === '-F' || option.name === '--field';
    fields.set(name, typed && text.startsWith('@') ? null : text);
  }
  return fields;
}

/** A branch name given as a field, as a ref; null when unknown. */
function branchRef(value: string | null | undefined): string[] | null {
  if (value === null || value === undefined || value === '') return null;
  const ref = normalizeRef(value);
  return ref === null ? null : [ref];
}

/** `gh api [flags] ENDPOINT`: what a REST call does, by method and path. */
function api(words: readonly Word[], start: number): Extraction {
  const { operands, seen } = operandsAndOptions(words, start, API);
  const endpoint = operands[0];
  if (endpoint === undefined) return NONE;
  if (!endpoint.literal)
    return { effects: [], unparseable: 'the `gh api` endpoint is not literal' };
  const methodOption = seen.find((o) => o.name === '-X' || o.name === '--method');
  const fields = fieldsOf(seen);
  const hasBody = fields.size > 0 || seen.some((o) => o.name === '--input');
  let method: string;
  if (methodOption !== undefined) {
    if (methodOption.value === null || !methodOption.value.literal)
      return { effects: [], unparseable: 'the `gh api` method is not literal' };
    method = methodOption.value.value.toUpperCase();
  } else method = hasBody ? 'POST' : 'GET';
  const path =
    endpoint.value
      .replace(/^https?:\/\/[^/]+/, '')
      .replace(/^\/+/, '')
      .split(/[?#]/)[0] ?? '';
  if (path === 'graphql')
    return {
      effects: [],
      unparseable: 'a GraphQL call through `gh api` can merge or push: it cannot be read',
    };
  if (method === 'GET' || method === 'HEAD') return NONE;
  // With a body from a file, the fields that name refs are not known.
  const fromFile = seen.some((o) => o.name === '--input') || fields.has('*');
  const field = (name: string): string | null | undefined => (fromFile ? null : fields.get(name));
  const repo = /^repos\/[^/]+\/[^/]+\/(.*)$/.exec(path);
  const rest = repo?.[1] ?? '';
  const push = (refs: string[] | null): Extraction => ({ effects: [effect('gitPush', { refs })] });
  if (repo !== null) {
    if (rest === 'merges') return push(branchRef(field('base')));
    if (rest === 'merge-upstream') return push(branchRef(field('branch')));
    if (/^pulls\/[^/]+\/merge$/.test(rest)) return { effects: [effect('prPublish')] };
    if (/^pulls\/[^/]+\/(reviews|reviews\/[^/]+\/events)$/.test(rest))
      return { effects: [effect('prPublish')] };
    if (rest === 'pulls') return { effects: [effect('prCreate')] };
    // Merging the base into a pull request's branch pushes to that branch, whose name is not given.
    if (/^pulls\/[^/]+\/update-branch$/.test(rest)) return push(null);
    if (rest === 'git/refs') {
      const ref = field('ref');
      return push(ref === null || ref === undefined ? null : branchRef(ref));
    }
    const refPath = /^git\/refs\/(.+)$/.exec(rest);
    if (refPath !== null) {
      const name = refPath[1] as string;
      return push(branchRef(name.startsWith('heads/') ? name.slice(6) : `refs/${name}`));
    }
    if (/^contents\/./.test(rest)) return push(branchRef(field('branch')));
    const renamed = /^branches\/([^/]+)\/rename$/.exec(rest);
    if (renamed !== null) {
      const target = field('new_name');
      return push(target === null || target === undefined ? null : [renamed[1] as string, target]);
    }
    if (/^branches\/[^/]+\/protection/.test(rest) || /^rulesets/.test(rest))
      return { effects: [effect('vendorSyncWrite'), effect('gitPush', { refs: null })] };
    if (/^releases$/.test(rest)) {
      const tag = field('tag_name');
      return {
        effects: [
          effect('vendorSyncWrite'),
          effect('gitPush', {
            refs: tag === null || tag === undefined ? null : [`refs/tags/${tag}`],
          }),
        ],
      };
    }
  }
  return { effects: [effect('vendorSyncWrite')] };
}

/**
 * `gh pr create --base B --head H` proposes H for B: the refs are the base
 * and the head, as the built-in `create_pr` tool gives them. Without
 * `--base` the target is the repository's default branch, which the command
 * line does not name.
 */
function prCreate(words: readonly Word[], start: number): Extraction {
  const { seen } = operandsAndOptions(words, start, {
    flags: [
      '-d',
      '--draft',
      '-f',
      '--fill',
      '--fill-first',
      '--fill-verbose',
      '-w',
      '--web',
      '--dry-run',
      '--no-maintainer-edit',
    ],
    values: [
      '-B',
      '--base',
      '-H',
      '--head',
      '-t',
      '--title',
      '-b',
      '--body',
      '-F',
      '--body-file',
      '-a',
      '--assignee',
      '-l',
      '--label',
      '-m',
      '--milestone',
      '-p',
      '--project',
      '-r',
      '--reviewer',
      '-T',
      '--template',
      '--recover',
    ],
  });
  const named = (short: string, long: string) =>
    seen.filter((o) => o.name === short || o.name === long).at(-1);
  const base = named('-B', '--base');
  if (base === undefined) return { effects: [effect('prCreate')] };
  const head = named('-H', '--head');
  const literal = (o: typeof base) => o.value !== null && o.value.literal;
  if (!literal(base) || (head !== undefined && !literal(head)))
    return { effects: [effect('prCreate', { refs: null })] };
  const refs = [base.value?.value as string];
  if (head !== undefined) refs.push(head.value?.value as string);
  return { effects: [effect('prCreate', { refs })] };
}

/** `gh repo sync [DEST] [-b BRANCH]` updates a branch of a repository from its source: a push. */
function repoSync(words: readonly Word[], start: number): Extraction {
  const { seen } = operandsAndOptions(words, start, {
    flags: ['--force'],
    values: ['-b', '--branch', '-s', '--source'],
  });
  const branch = seen.find((o) => o.name === '-b' || o.name === '--branch');
  if (branch === undefined) return { effects: [effect('gitPush', { refs: null })] };
  const value = branch.value;
  return {
    effects: [
      effect('gitPush', { refs: value === null || !value.literal ? null : branchRef(value.value) }),
    ],
  };
}

export function gh(words: readonly Word[], _ctx: ExtractContext): Extraction {
  const { operands } = operandsAndOptions(words, 1, GH);
  const [group, action] = operands;
  if (group === undefined) return NONE;
  if (!group.literal) return { effects: [], unparseable: 'the gh command is not literal' };
  if (group.value === 'api') return api(words, words.indexOf(group) + 1);
  if (action === undefined) return NONE;
  if (!action.literal) return { effects: [], unparseable: 'the gh command is not literal' };
  if (group.value === 'pr' && PR_CREATE_VERBS.has(action.value))
    return prCreate(words, words.indexOf(action) + 1);
  if (group.value === 'pr' && PR_MERGE_VERBS.has(action.value))
    return { effects: [effect('prPublish')] };
  if (group.value === 'repo' && action.value === 'clone') {
    // `gh repo clone OWNER/REPO` clones from GitHub; a URL names its own host.
    const source = operands[2];
    const host =
      source === undefined || !source.literal
        ? null
        : /^[a-z][a-z0-9+.-]*:\/\/|^[^/]*@[^/]*:/i.test(source.value)
          ? source.value.replace(/^[^@]*@([^:]+):.*$/, '$1')
          : 'github.com';
    return { effects: [effect('networkEgress', { hosts: host === null ? null : [host] })] };
  }
  if (group.value === 'repo' && action.value === 'sync')
    return repoSync(words, words.indexOf(action) + 1);
  if (group.value === 'release' && action.value === 'create') {
    const tag = operands[2];
    const effects: Effect[] = [
      effect('vendorSyncWrite'),
      // A release creates its tag when the tag does not exist yet.
      effect('gitPush', {
        refs: tag === undefined || !tag.literal ? null : [`refs/tags/${tag.value}`],
      }),
    ];
    return { effects };
  }
  if (group.value === 'extension' || group.value === 'alias')
    return { effects: [], unparseable: `\`gh ${group.value}\` runs commands of its own` };
  if (VENDOR_WRITES[group.value]?.has(action.value) === true)
    return { effects: [effect('vendorSyncWrite')] };
  return NONE;
}

const GLAB: OptionSpec = { values: ['-R', '--repo', '-g', '--group'] };

/**
 * The GitLab CLI: `glab mr create` opens a merge request, `glab mr merge|approve`
 * publishes one; a write through `glab api` may merge or push and is not read.
 */
export function glab(words: readonly Word[], _ctx: ExtractContext): Extraction {
  const { operands, seen } = operandsAndOptions(words, 1, {
    ...GLAB,
    values: [
      ...(GLAB.values ?? []),
      '-X',
      '--method',
      '-f',
      '--field',
      '-F',
      '--raw-field',
      '--input',
      '-H',
      '--header',
    ],
  });
  const [group, action] = operands;
  if (group === undefined) return NONE;
  if (!group.literal) return { effects: [], unparseable: 'the glab command is not literal' };
  if (group.value === 'api') {
    const method = seen.find((o) => o.name === '-X' || o.name === '--method')?.value;
    const body = seen.some((o) =>
      ['-f', '--field', '-F', '--raw-field', '--input'].includes(o.name),
    );
    const reads =
      method === undefined || method === null
        ? !body
        : method.literal && /^(get|head)$/i.test(method.value);
    return reads
      ? NONE
      : {
          effects: [],
          unparseable: 'a write through `glab api` can merge or push: it cannot be read',
        };
  }
  if (action === undefined) return NONE;
  if (!action.literal) return { effects: [], unparseable: 'the glab command is not literal' };
  if (group.value === 'mr' && (action.value === 'create' || action.value === 'new'))
    return { effects: [effect('prCreate')] };
  if (group.value === 'mr' && ['merge', 'accept', 'approve'].includes(action.value))
    return { effects: [effect('prPublish')] };
  if (
    ['issue', 'release', 'ci', 'variable', 'label', 'mr'].includes(group.value) &&
    /^(create|new|update|delete|close|reopen|note|run|set|retry|cancel)$/.test(action.value)
  )
    return { effects: [effect('vendorSyncWrite')] };
  return NONE;
}

/** The option tables the `gh` and `glab` extractors read their global options with. */
export const GH_OPTIONS: Readonly<{ gh: OptionSpec; glab: OptionSpec }> = { gh: GH, glab: GLAB };
