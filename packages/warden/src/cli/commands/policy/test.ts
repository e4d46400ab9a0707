// `warden policy test FILE…`: runs each cases file against its policy and
// prints the results like a test runner — each case passed or failed, with
// the expected and decided fields side by side — or `--json`, and with
// `--junit FILE` also JUnit XML for CI. Exit 0 when every case passed, 1
// when one failed or a file could not be run. The policy and the cases load
// when it runs.

import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { InputIssue } from '../../../policy/load.js';
import type { CaseResult, SuiteResult } from '../../../policy/tests.js';
import type { Io } from '../../io.js';
import { EXIT, printJson, style } from '../../io.js';
import type { OptionsOf, Registration } from '../../registration.js';
import { registration } from '../../registration.js';

function test(policy: CommandUnknownOpts) {
  return policy
    .command('test')
    .description(
      'run cases against a policy: each request or command line must decide as its case expects (exit 1 when one does not)',
    )
    .argument('<files...>', 'cases files (YAML or JSON): `policy:` names the policy beside them')
    .option('--policy <file>', 'the policy to test (instead of the one each cases file names)')
    .option('--managed <file>', 'a managed policy file; wins over WARDEN_MANAGED_POLICY')
    .option('--at <iso>', 'decide cases without their own `at` at this time (default: now)')
    .option('--junit <file>', 'also write the results as JUnit XML, for CI')
    .option('--json', 'print JSON');
}

export type PolicyTestOptions = OptionsOf<typeof test>;

export const registerPolicyTest: Registration = registration(test, runPolicyTest);

function issueText(issues: readonly InputIssue[]): string[] {
  return issues.map(
    (i) =>
      `${i.file === undefined ? '' : `${i.file}: `}${i.path === '' ? '' : `${i.path}: `}${i.message}`,
  );
}

/** What running cases needs beyond the command line, loaded when it runs. */
async function library() {
  const [load, { parseText }, { renderedAll }, tests, { readAt }] = await Promise.all([
    import('../../../policy/load.js'),
    import('../../../policy/source.js'),
    import('../../../policy/problems.js'),
    import('../../../policy/tests.js'),
    import('../../read-at.js'),
  ]);
  const { chooseManaged, loadPolicyFile, readInput } = load;
  const { junitXml, readCases, runCase } = tests;
  return {
    chooseManaged,
    loadPolicyFile,
    readInput,
    parseText,
    renderedAll,
    junitXml,
    readCases,
    runCase,
    readAt,
  };
}

type Library = Awaited<ReturnType<typeof library>>;

function runFile(
  lib: Library,
  io: Io,
  file: string,
  options: PolicyTestOptions,
  at: number,
): SuiteResult {
  const broken = (problems: string[], policy: string | null = null): SuiteResult => ({
    file,
    policy,
    cases: [],
    problems,
  });
  const text = lib.readInput(file, io.stdin);
  if (!text.ok) return broken(issueText(text.issues));
  const parsed = lib.parseText(text.value);
  if (!parsed.ok) return broken(issueText(lib.renderedAll(parsed.issues)));
  const read = lib.readCases(parsed.value);
  if (!read.ok) return broken(issueText(read.issues));
  const beside = (name: string) => (file === '-' ? name : resolve(dirname(file), name));
  const policyFile =
    options.policy ?? (read.value.policy === undefined ? null : beside(read.value.policy));
  if (policyFile === null)
    return broken(['name the policy: `policy:` in the cases file, or `--policy FILE`']);
  const policy = lib.loadPolicyFile(policyFile, 'workspace', io.stdin);
  if (!policy.ok) return broken(issueText(policy.issues), policyFile);
  const choice =
    options.managed !== undefined || read.value.managed === undefined
      ? lib.chooseManaged(options.managed, io.env)
      : { file: beside(read.value.managed), source: 'flag' as const };
  const managed =
    choice.file === null ? null : lib.loadPolicyFile(choice.file, 'managed', io.stdin);
  if (managed !== null && !managed.ok) return broken(issueText(managed.issues), policyFile);
  const cases = read.value.cases.map((c) =>
    lib.runCase(c, {
      policy: policy.value.compiled,
      managed: managed?.ok === true ? managed.value.compiled : null,
      managedSource: choice.source,
      at,
    }),
  );
  return { file, policy: policyFile, cases, problems: [] };
}

function caseLines(c: CaseResult, s: ReturnType<typeof style>): string[] {
  if (c.passed) return [`  ${s.green('✓')} ${c.name}`];
  const lines = [`  ${s.red('✗')} ${c.name}`];
  for (const problem of c.problems) lines.push(`      ${problem}`);
  if (c.actual !== null) {
    for (const key of ['decision', 'outcome', 'rule', 'scope'] as const) {
      const want = c.expected[key];
      if (want === undefined || want === c.actual[key]) continue;
      lines.push(`      ${s.red(`- "${key}": "${want}"`)}`);
      lines.push(`      ${s.green(`+ "${key}": "${c.actual[key]}"`)}`);
    }
    lines.push(`      ${s.dim(`reason: ${c.actual.reason}`)}`);
  }
  return lines;
}

export async function runPolicyTest(
  io: Io,
  files: readonly string[],
  options: PolicyTestOptions,
): Promise<number> {
  const lib = await library();
  const json = options.json === true;
  const at = lib.readAt(io, json, options.at);
  const suites = files.map((file) => runFile(lib, io, file, options, at));
  const cases = suites.flatMap((suite) => suite.cases);
  const passed = cases.filter((c) => c.passed).length;
  const failed = cases.length - passed;
  const broken = suites.filter((suite) => suite.problems.length > 0).length;
  if (options.junit !== undefined) writeFileSync(options.junit, lib.junitXml(suites));
  const ok = failed === 0 && broken === 0;
  if (json) {
    printJson(io, { ok, passed, failed, broken, files: suites });
    return ok ? EXIT.ok : EXIT.usage;
  }
  const s = style(io.color);
  for (const suite of suites) {
    io.out(`${s.bold(suite.file)}${suite.policy === null ? '' : ` (${suite.policy})`}\n`);
    for (const problem of suite.problems) io.out(`  ${s.red('✗')} cannot run: ${problem}\n`);
    for (const c of suite.cases) io.out(`${caseLines(c, s).join('\n')}\n`);
  }
  const summary =
    `${cases.length} case${cases.length === 1 ? '' : 's'}: ${passed} passed, ${failed} failed` +
    (broken === 0 ? '' : `; ${broken} file${broken === 1 ? '' : 's'} could not be run`);
  io.out(`\n${ok ? s.green(summary) : s.red(summary)}\n`);
  return ok ? EXIT.ok : EXIT.usage;
}
