// Policy tests: cases a policy must decide as written — a request (or a
// command line) and the decision expected of it, optionally the deciding
// rule, its scope, the outcome and words of the reason — in a YAML or JSON
// file beside the policy. Reading a cases document and running it is pure:
// the policy, the managed layer and the classifier come in compiled; the
// CLI reads the files (`warden policy test`).

import type { RenderedIssue } from './problems.js';
import { issueText } from '@warden/engine';
import type {
  ActionRequest,
  ClassifierTable,
  CompiledPolicy,
  DecisionResult,
  ManagedSource,
} from '@warden/engine';
import {
  checkRequestAgainstPolicy,
  explainDecision,
  parseTimestamp,
  validateRequest,
} from '@warden/engine';
import { z } from 'zod';
import { zodIssues } from './problems.js';

const DECISIONS = ['allow', 'prompt', 'deny'] as const;
const OUTCOMES = ['allow', 'ask', 'deny'] as const;

const expectation = z.union([
  z.enum(DECISIONS),
  z.strictObject({
    decision: z.enum(DECISIONS),
    outcome: z.enum(OUTCOMES).optional(),
    rule: z.string().min(1).optional(),
    scope: z.string().min(1).optional(),
    reason: z.string().min(1).optional().describe('words the reason contains'),
  }),
]);

const caseSchema = z
  .strictObject({
    name: z.string().min(1).max(500),
    request: z.record(z.string(), z.unknown()).optional(),
    command: z.string().min(1).optional(),
    agent: z.string().min(1).optional(),
    space: z.string().min(1).optional(),
    mode: z.string().min(1).optional(),
    approver: z.enum(['connected', 'none']).optional(),
    at: z.string().optional(),
    expect: expectation,
  })
  .refine((c) => (c.request === undefined) !== (c.command === undefined), {
    message: 'give either `request` or `command`',
  });

export const casesSchema = z.strictObject({
  policy: z.string().min(1).optional().describe('the policy file, relative to this file'),
  managed: z.string().min(1).optional().describe('a managed policy file, relative to this file'),
  cases: z.array(caseSchema).min(1, 'a cases file has at least one case').max(10_000),
});

export type CasesDocument = z.infer<typeof casesSchema>;
export type PolicyCase = z.infer<typeof caseSchema>;

/** The fields of a decision a case can expect. */
export interface Expected {
  readonly decision: (typeof DECISIONS)[number];
  readonly outcome?: (typeof OUTCOMES)[number] | undefined;
  readonly rule?: string | undefined;
  readonly scope?: string | undefined;
  readonly reason?: string | undefined;
}

export interface CaseResult {
  readonly name: string;
  readonly passed: boolean;
  readonly expected: Expected;
  /** What the policy decided; null when the case itself is not valid (see `problems`). */
  readonly actual: Pick<
    DecisionResult,
    'decision' | 'outcome' | 'rule' | 'scope' | 'reason'
  > | null;
  /** Each expected field the decision does not match, or what is wrong with the case. */
  readonly problems: readonly string[];
}

/** The cases of a document, or every problem with it (paths into the document). */
export function readCases(
  raw: unknown,
): { ok: true; value: CasesDocument } | { ok: false; issues: RenderedIssue[] } {
  const parsed = casesSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, issues: zodIssues(parsed.error) };
}

function expectedOf(c: PolicyCase): Expected {
  return typeof c.expect === 'string' ? { decision: c.expect } : c.expect;
}

function requestOf(c: PolicyCase, workspace: string): ActionRequest | string {
  const raw: Record<string, unknown> =
    c.request !== undefined
      ? { workspace, agent: c.agent ?? 'test', ...c.request }
      : { workspace, agent: c.agent ?? 'test', command: c.command };
  if (c.space !== undefined) raw.space = c.space;
  if (c.mode !== undefined) raw.mode = c.mode;
  const validated = validateRequest(raw);
  if (!validated.ok)
    return `the request is not valid: ${validated.issues.map(issueText).join('; ')}`;
  return validated.value;
}

export interface RunOptions {
  readonly policy: CompiledPolicy;
  readonly managed?: CompiledPolicy | null;
  readonly managedSource?: ManagedSource;
  readonly classifier?: ClassifierTable;
  /** The time a case without `at` is decided at. */
  readonly at: number;
}

/** Decides one case and compares the decision with what it expects. */
export function runCase(c: PolicyCase, options: RunOptions): CaseResult {
  const expected = expectedOf(c);
  const fail = (problem: string): CaseResult => ({
    name: c.name,
    passed: false,
    expected,
    actual: null,
    problems: [problem],
  });
  const workspace = options.policy.policy.workspace ?? '';
  const request = requestOf(c, workspace);
  if (typeof request === 'string') return fail(request);
  const mismatch = checkRequestAgainstPolicy(request, options.policy.policy);
  if (mismatch.length > 0)
    return fail(`the request does not fit the policy: ${mismatch.map(issueText).join('; ')}`);
  let at = options.at;
  if (c.at !== undefined) {
    const parsed = parseTimestamp(c.at);
    if (typeof parsed !== 'number') return fail(`\`at\`: ${parsed.problem}`);
    at = parsed;
  }
  let result: DecisionResult;
  try {
    result = explainDecision({
      policy: options.policy,
      managed: options.managed ?? null,
      managedSource: options.managedSource ?? null,
      request,
      at,
      approverConnected: c.approver === 'connected',
      ...(options.classifier === undefined ? {} : { classifier: options.classifier }),
    }).result;
  } catch (error) {
    return fail(`the engine could not decide it: ${(error as Error).message}`);
  }
  const problems: string[] = [];
  for (const key of ['decision', 'outcome', 'rule', 'scope'] as const) {
    const want = expected[key];
    if (want !== undefined && result[key] !== want)
      problems.push(`${key}: expected \`${want}\`, got \`${String(result[key])}\``);
  }
  if (expected.reason !== undefined && !result.reason.includes(expected.reason))
    problems.push(`reason: expected it to contain “${expected.reason}”, got “${result.reason}”`);
  return {
    name: c.name,
    passed: problems.length === 0,
    expected,
    actual: {
      decision: result.decision,
      outcome: result.outcome,
      rule: result.rule,
      scope: result.scope,
      reason: result.reason,
    },
    problems,
  };
}

function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd]/gu, '\ufffd')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

export interface SuiteResult {
  /** The cases file. */
  readonly file: string;
  /** The policy it ran against; null when the file could not be run. */
  readonly policy: string | null;
  readonly cases: readonly CaseResult[];
  /** Why the file could not be run at all. */
  readonly problems: readonly string[];
}

/** JUnit XML, as CI systems read test results: one suite per cases file, one test case per case. */
export function junitXml(suites: readonly SuiteResult[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = suites.reduce((n, s) => n + s.cases.length + (s.problems.length > 0 ? 1 : 0), 0);
  const failed = suites.reduce(
    (n, s) => n + s.cases.filter((c) => !c.passed).length + (s.problems.length > 0 ? 1 : 0),
    0,
  );
  lines.push(`<testsuites name="warden policy test" tests="${total}" failures="${failed}">`);
  for (const suite of suites) {
    const broken = suite.problems.length > 0 ? 1 : 0;
    const failures = suite.cases.filter((c) => !c.passed).length + broken;
    lines.push(
      `  <testsuite name="${xml(suite.file)}" tests="${suite.cases.length + broken}" failures="${failures}">`,
    );
    if (broken === 1)
      lines.push(
        `    <testcase classname="${xml(suite.file)}" name="the cases file"><failure message="${xml(suite.problems.join('; '))}"/></testcase>`,
      );
    for (const c of suite.cases) {
      const head = `    <testcase classname="${xml(suite.file)}" name="${xml(c.name)}"`;
      if (c.passed) {
        lines.push(`${head}/>`);
        continue;
      }
      lines.push(
        `${head}><failure message="${xml(c.problems.join('; '))}">${xml(c.actual === null ? '' : JSON.stringify(c.actual, null, 2))}</failure></testcase>`,
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
