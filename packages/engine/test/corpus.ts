// Loads the decision corpus (corpus/*.yaml): files of policy + request +
// expected decision that read as the specification.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

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
