// Loads the decision corpus (corpus/*.yaml): files of policy + request +
// expected decision that read as the specification.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { DecideInput, DecisionResult, Issue } from '../src/index.js';
import {
  formatPath,
  checkRequestAgainstPolicy,
  compilePolicy,
  decide,
  parseTimestamp,
  validatePolicy,
  validateRequest,
} from '../src/index.js';

export const CORPUS_DIR = join(import.meta.dirname, '..', '..', '..', 'corpus');
export const DEFAULT_AT = '2026-11-30T12:00:00Z';

export interface ExpectedIssue {
  readonly path: string;
  readonly messageIncludes?: string;
}

export interface Expectation {
  readonly decision?: string;
  readonly outcome?: string;
  readonly rule?: string;
  readonly scope?: string;
  readonly enforcement?: string | null;
  readonly overridable?: boolean;
  readonly prompts?: readonly string[];
  readonly facetNames?: readonly string[];
  readonly facets?: readonly Record<string, unknown>[];
  readonly advisories?: readonly Record<string, unknown>[];
  readonly managed?: readonly Record<string, unknown>[] | null;
  readonly reasonIncludes?: readonly string[];
  readonly errors?: readonly ExpectedIssue[];
}

export interface CorpusCase {
  readonly name: string;
  readonly cites?: readonly string[];
  readonly request: unknown;
  readonly approver?: 'none' | 'connected';
  readonly at?: string;
  /** Facts beside the request (E44): the call runs transactionally; what its decision allowed. */
  readonly transactional?: boolean;
  readonly observed?: { readonly allowed: Record<string, string[] | null> };
  readonly expect: Expectation;
}

export interface CorpusFile {
  readonly file: string;
  readonly title: string;
  readonly cites: readonly string[];
  readonly policy: unknown;
  readonly managed?: unknown;
  /** Validate `policy` as this kind of document (default: workspace). */
  readonly policyKind?: 'workspace' | 'managed';
  readonly policyErrors?: readonly ExpectedIssue[];
  readonly cases: readonly CorpusCase[];
}

export function loadCorpus(): CorpusFile[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const data = parse(readFileSync(join(CORPUS_DIR, name), 'utf8')) as Omit<CorpusFile, 'file'>;
      return { ...data, file: name, cases: data.cases ?? [] };
    });
}

/** An issue with its place written out, as the corpus files name places (`rules[0].action`). */
export interface ShownIssue {
  readonly code: Issue['code'];
  readonly path: string;
  readonly message: string;
}

export function shown(issues: readonly Issue[]): ShownIssue[] {
  return issues.map((i) => ({ ...i, path: formatPath(i.path) }));
}

export function expectIssues(
  actual: readonly ShownIssue[],
  expected: readonly ExpectedIssue[],
): void {
  for (const want of expected) {
    const match = actual.find(
      (got) =>
        got.path === want.path &&
        (want.messageIncludes === undefined || got.message.includes(want.messageIncludes)),
    );
    expect(
      match,
      `expected an issue at \`${want.path}\`${want.messageIncludes === undefined ? '' : ` mentioning \`${want.messageIncludes}\``}; got ${JSON.stringify(actual)}`,
    ).toBeDefined();
  }
}

/** Runs one case; returns the decision, or the issues of an invalid request. */
export function runCase(
  file: CorpusFile,
  c: CorpusCase,
): { result?: DecisionResult; issues?: readonly ShownIssue[] } {
  const policy = validatePolicy(file.policy, 'workspace');
  if (!policy.ok) throw new Error(`${file.file}: policy invalid: ${JSON.stringify(policy.issues)}`);
  let managed = null;
  if (file.managed !== undefined) {
    const m = validatePolicy(file.managed, 'managed');
    if (!m.ok) throw new Error(`${file.file}: managed policy invalid: ${JSON.stringify(m.issues)}`);
    managed = compilePolicy(m.value);
  }
  const request = validateRequest(c.request);
  if (!request.ok) return { issues: shown(request.issues) };
  const mismatch = checkRequestAgainstPolicy(request.value, policy.value);
  if (mismatch.length > 0) return { issues: shown(mismatch) };
  const at = parseTimestamp(c.at ?? DEFAULT_AT);
  // A clock without a zone is a usage error, as `--at` on the command line (E31).
  if (typeof at !== 'number')
    return { issues: [{ code: 'bad_timestamp', path: '--at', message: at.problem }] };
  const result = decide({
    policy: compilePolicy(policy.value),
    managed,
    managedSource: managed === null ? null : 'flag',
    request: request.value,
    at,
    approverConnected: c.approver === 'connected',
    ...(c.transactional === undefined ? {} : { transactional: c.transactional }),
    ...(c.observed === undefined
      ? {}
      : { observed: c.observed as NonNullable<DecideInput['observed']> }),
  });
  return { result };
}

export function checkResult(result: DecisionResult, want: CorpusCase['expect']): void {
  const got = result as unknown as Record<string, unknown>;
  for (const key of [
    'decision',
    'outcome',
    'rule',
    'scope',
    'enforcement',
    'overridable',
  ] as const) {
    if (want[key] !== undefined) expect(got[key], key).toEqual(want[key]);
  }
  if (want.prompts !== undefined) expect(result.prompts, 'prompts').toEqual(want.prompts);
  if (want.facetNames !== undefined)
    expect(
      result.facets.map((f) => f.facet),
      'facet names',
    ).toEqual(want.facetNames);
  for (const facet of want.facets ?? []) {
    const found = result.facets.find((f) => f.facet === facet.facet);
    expect(found, `facet ${String(facet.facet)}`).toBeDefined();
    expect(found).toMatchObject(facet);
  }
  if (want.advisories !== undefined)
    expect(result.advisories, 'advisories').toEqual(want.advisories);
  if (want.managed !== undefined) {
    if (want.managed === null) expect(result.managed).toBeNull();
    else {
      const stripped = (result.managed ?? []).map(({ because: _because, ...rest }) => rest);
      expect(stripped, 'managed').toEqual(want.managed);
    }
  }
  for (const part of want.reasonIncludes ?? []) expect(result.reason, 'reason').toContain(part);
}
