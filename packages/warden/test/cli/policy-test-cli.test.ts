// `warden policy test`: cases a policy must decide as written (G38's what-if
// check, run as a test suite). Each case passes or fails with the expected
// and decided fields side by side; `--json` and JUnit XML say the same; exit
// 0 only when every case passed; a cases file that cannot be run is a failure
// that says why, never a silent pass.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import { junitXml, readCases, runCase } from '../../src/policy/tests.js';
import { compilePolicy, validatePolicy } from '@warden/engine';

const POLICY = `version: 1
workspace: acme
modes:
  review: { commandNet: [git push --force] }
rules:
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
  - id: tests
    command: npm test
    decision: allow
`;

const CASES = `policy: policy.yaml
cases:
  - name: a push to main is denied
    request: { agent: coder-1, actions: [gitPush], args: { refs: [main] } }
    expect: { decision: deny, rule: protect-main, scope: workspace, reason: matches refs }
  - name: npm test runs
    command: npm test
    expect: allow
  - name: a forced push in review is stopped by the net
    command: git push --force origin x
    mode: review
    expect: { decision: deny, rule: "modeNet:review" }
  - name: a push to a feature branch asks an approver
    command: git push origin feature/x
    approver: connected
    expect: { decision: prompt, outcome: ask }
`;

function folder(cases = CASES): string {
  const dir = tempDir('warden-policy-test-');
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  writeFileSync(join(dir, 'policy.tests.yaml'), cases);
  return dir;
}

describe('warden policy test', () => {
  it('G38: passes a policy that decides every case as written, exit 0', () => {
    const dir = folder();
    const ran = warden(['policy', 'test', join(dir, 'policy.tests.yaml')]);
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
    expect(ran.stdout).toContain('✓ a push to main is denied');
    expect(ran.stdout).toContain('✓ a forced push in review is stopped by the net');
    expect(ran.stdout).toContain('4 cases: 4 passed, 0 failed');
  });

  it('fails a case the policy decides otherwise, showing expected and decided fields, exit 1', () => {
    const dir = folder(
      `${CASES}  - name: wrong on purpose
    command: git push origin main
    expect: { decision: allow, rule: tests }
`,
    );
    const junit = join(dir, 'results.xml');
    const ran = warden(['policy', 'test', join(dir, 'policy.tests.yaml'), '--junit', junit]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('✗ wrong on purpose');
    expect(ran.stdout).toContain('decision: expected `allow`, got `deny`');
    expect(ran.stdout).toContain('- "rule": "tests"');
    expect(ran.stdout).toContain('+ "rule": "protect-main"');
    expect(ran.stdout).toContain('5 cases: 4 passed, 1 failed');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites name="warden policy test" tests="5" failures="1">');
    expect(xml).toContain('<testcase classname=');
    expect(xml).toMatch(/name="wrong on purpose"><failure message="decision: expected `allow`/);
  });

  it('--json says the same as data; --policy tests another policy with the same cases', () => {
    const dir = folder();
    const other = join(dir, 'other.yaml');
    writeFileSync(
      other,
      POLICY.replace(
        'decision: deny\n    when: { refs: [main] }',
        'decision: allow\n    when: { refs: [main] }',
      ),
    );
    const ran = warden([
      'policy',
      'test',
      join(dir, 'policy.tests.yaml'),
      '--policy',
      other,
      '--json',
    ]);
    expect(ran.code).toBe(1);
    const out = JSON.parse(ran.stdout);
    expect(out).toMatchObject({ ok: false, passed: 3, failed: 1, broken: 0 });
    expect(out.files[0].policy).toBe(other);
    expect(out.files[0].cases[0]).toMatchObject({
      name: 'a push to main is denied',
      passed: false,
      expected: { decision: 'deny', rule: 'protect-main' },
      actual: { decision: 'allow', rule: 'protect-main' },
    });
  });

  it('a cases file that cannot be run fails with every problem, and no case counts as passed', () => {
    const dir = folder(`cases:
  - name: no expectation
    command: ls
  - name: both
    command: ls
    request: { actions: [gitPush] }
    expect: allow
`);
    const ran = warden(['policy', 'test', join(dir, 'policy.tests.yaml'), '--json']);
    expect(ran.code).toBe(1);
    const out = JSON.parse(ran.stdout);
    expect(out).toMatchObject({ ok: false, passed: 0, broken: 1 });
    const problems = out.files[0].problems.join('\n');
    expect(problems).toContain('cases[0].expect');
    expect(problems).toContain('give either `request` or `command`');
    const missing = folder(`cases:\n  - { name: x, command: ls, expect: allow }\n`);
    const noPolicy = warden(['policy', 'test', join(missing, 'policy.tests.yaml')]);
    expect(noPolicy.code).toBe(1);
    expect(noPolicy.stdout).toContain('name the policy');
    const absent = warden(['policy', 'test', join(dir, 'nope.yaml')]);
    expect(absent.code).toBe(1);
    expect(absent.stdout).toContain('cannot run');
  });

  it('an invalid request in a case fails that case, saying why', () => {
    const dir = folder(`policy: policy.yaml
cases:
  - name: an unknown class
    request: { actions: [teleport] }
    expect: deny
`);
    const ran = warden(['policy', 'test', join(dir, 'policy.tests.yaml')]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('✗ an unknown class');
    expect(ran.stdout).toContain('the request is not valid: actions[0]');
  });
});

describe('the cases runner and JUnit XML', () => {
  const validated = validatePolicy(
    {
      version: 1,
      workspace: 'acme',
      rules: [{ id: 'no-rm', command: 'rm -rf', decision: 'deny' }],
    },
    'workspace',
  );
  if (!validated.ok) throw new Error('policy');
  const policy = compilePolicy(validated.value);

  it('escapes what XML cannot carry in names and messages', () => {
    const read = readCases({
      cases: [{ name: 'a <b> & "c" \u0001', command: 'rm -rf /', expect: 'allow' }],
    });
    if (!read.ok) throw new Error('cases');
    const result = runCase(read.value.cases[0] as never, { policy, at: 0 });
    expect(result.passed).toBe(false);
    const xml = junitXml([{ file: 'x<y>.yaml', policy: 'p', cases: [result], problems: [] }]);
    expect(xml).toContain('name="a &lt;b&gt; &amp; &quot;c&quot; \ufffd"');
    expect(xml).toContain('classname="x&lt;y&gt;.yaml"');
    expect(xml).not.toContain('\u0001');
  });
});

describe("a rule's examples are checked whenever the policy is loaded", () => {
  const WITH_EXAMPLES = `version: 1
workspace: acme
rules:
  - id: no-rm
    command: rm -rf
    decision: deny
    examples:
      deny: [rm -rf /, sudo rm -rf build, 'bash -c "rm -rf x"']
      allow: [ls -la]
`;

  it('lint, apply and the what-if check accept a policy whose examples hold', () => {
    const dir = tempDir('warden-examples-');
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, WITH_EXAMPLES);
    expect(warden(['policy', 'lint', file]).code).toBe(0);
    expect(warden(['policy', 'apply', file, '--data', join(dir, 'data')]).code).toBe(0);
  });

  it('and refuse one whose example the policy decides otherwise, naming the example', () => {
    const dir = tempDir('warden-examples-');
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, WITH_EXAMPLES.replace('allow: [ls -la]', 'allow: [rm notes.txt]'));
    for (const args of [
      ['policy', 'lint', file, '--json'],
      ['policy', 'apply', file, '--data', join(dir, 'data'), '--json'],
      ['explain', '--policy', file, '--agent', 'a', '--command', 'ls', '--json'],
    ]) {
      const ran = warden(args);
      expect(ran.code, args.join(' ')).toBe(1);
      expect(JSON.parse(ran.stdout).errors[0]).toMatchObject({
        path: 'rules[0].examples.allow[0]',
        message: expect.stringContaining(
          'lists `rm notes.txt` as allow, but the policy decides prompt',
        ),
      });
    }
  });
});
