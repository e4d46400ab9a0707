// The `warden` command line exactly as contracts §4 fixes it: verbs, --json,
// exit codes, usage errors, and the managed layer's source.

import { describe, expect, it } from 'vitest';
import { EXAMPLES, files, warden } from '../helpers.js';

const POLICY = `${EXAMPLES}/policy.yaml`;
const PUSH_MAIN = `${EXAMPLES}/push-main.json`;
const DECISION_KEYS = [
  'decision',
  'outcome',
  'rule',
  'scope',
  'enforcement',
  'overridable',
  'prompts',
  'facets',
  'managed',
  'managedSource',
  'advisories',
  'reason',
];

describe('warden explain', () => {
  it('prints the decision JSON of contracts §3 with --json, and exits 0 even for a deny', () => {
    const ran = warden([
      'explain',
      '--policy',
      POLICY,
      '--request',
      PUSH_MAIN,
      '--json',
      '--at',
      '2026-11-30T12:00:00Z',
    ]);
    expect(ran.code).toBe(0);
    const decision = JSON.parse(ran.stdout) as Record<string, unknown>;
    expect(Object.keys(decision)).toEqual(DECISION_KEYS);
    expect(decision).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'protect-main',
      scope: 'space:payments',
      enforcement: 'hard',
      overridable: false,
      prompts: [],
      managed: null,
      managedSource: null,
      advisories: [],
    });
    expect(decision.facets).toEqual([
      {
        facet: 'gitPush',
        decision: 'deny',
        scope: 'space:payments',
        rule: 'protect-main',
        because: 'ref `main` matches refs [main]',
      },
      { facet: 'processSpawn', decision: 'allow', scope: 'default', rule: 'default:processSpawn' },
      { facet: 'command:git push origin main', decision: null },
    ]);
    expect(decision.reason).toContain('protect-main');
    expect(decision.reason).toContain('main');
    expect(decision.reason).toContain('space:payments');
  });

  it('prints a table a person reads at a glance', () => {
    const ran = warden(['explain', '--policy', POLICY, '--request', PUSH_MAIN]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^DENY {2}git push origin main/);
    expect(ran.stdout).toContain('gitPush');
    expect(ran.stdout).toContain('protect-main');
    expect(ran.stdout).toContain('managed layer: none loaded');
  });

  it('reads the request from standard input with `-`', () => {
    const ran = warden(['explain', '--policy', POLICY, '--request', '-', '--json'], {
      input: JSON.stringify({
        workspace: 'acme',
        agent: 'coder-1',
        command: 'git push origin feature/login',
      }),
    });
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ decision: 'allow' });
  });

  it('builds the request from --agent and --command', () => {
    const ran = warden([
      'explain',
      '--policy',
      POLICY,
      '--agent',
      'coder-1',
      '--space',
      'payments',
      '--command',
      'git push origin main',
      '--json',
    ]);
    expect(JSON.parse(ran.stdout)).toMatchObject({ decision: 'deny', rule: 'protect-main' });
  });
});

describe('warden check', () => {
  it('exits 0 for allow, 3 for deny and 4 for ask (contracts §4)', () => {
    expect(
      warden(['check', '--policy', POLICY, '--agent', 'coder-1', '--action', 'processSpawn']).code,
    ).toBe(0);
    expect(warden(['check', '--policy', POLICY, '--request', PUSH_MAIN]).code).toBe(3);
    expect(
      warden([
        'check',
        '--policy',
        POLICY,
        '--agent',
        'coder-1',
        '--action',
        'gitPush',
        '--approver',
        'connected',
      ]).code,
    ).toBe(4);
  });

  it('is fail-closed by default: a prompt with no approver is denied (G22)', () => {
    const ran = warden(['check', '--policy', POLICY, '--agent', 'coder-1', '--action', 'gitPush']);
    expect(ran.code).toBe(3);
    expect(ran.stdout).toMatch(/^deny: needs approval/);
  });

  it('prints the same decision JSON as explain with --json (E31)', () => {
    const args = [
      '--policy',
      POLICY,
      '--request',
      PUSH_MAIN,
      '--json',
      '--at',
      '2026-11-30T12:00:00Z',
    ];
    const checked = warden(['check', ...args]);
    expect(checked.code).toBe(3);
    expect(JSON.parse(checked.stdout)).toEqual(JSON.parse(warden(['explain', ...args]).stdout));
  });
});

describe('usage and validation errors exit 1 with every problem listed', () => {
  it('refuses --at without a zone, as `{ "errors": [...] }` with path `--at` (E31, E36)', () => {
    const ran = warden([
      'explain',
      '--policy',
      POLICY,
      '--request',
      PUSH_MAIN,
      '--at',
      '2026-11-30T12:00:00',
      '--json',
    ]);
    expect(ran.code).toBe(1);
    const body = JSON.parse(ran.stdout) as { errors: { path: string; message: string }[] };
    expect(body.errors[0]?.path).toBe('--at');
    expect(body.errors[0]?.message).toContain('zone');
  });

  it('refuses an approver other than connected or none', () => {
    const ran = warden([
      'check',
      '--policy',
      POLICY,
      '--request',
      PUSH_MAIN,
      '--approver',
      'maybe',
      '--json',
    ]);
    expect(ran.code).toBe(1);
    expect((JSON.parse(ran.stdout) as { errors: { path: string }[] }).errors[0]?.path).toBe(
      '--approver',
    );
  });

  it('names a missing file without a stack trace', () => {
    const ran = warden(['explain', '--policy', '/nonexistent/policy.yaml', '--request', PUSH_MAIN]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('no such file `/nonexistent/policy.yaml`');
    expect(ran.stderr).not.toMatch(/\n\s+at /);
  });

  it('lists every problem of an invalid policy with its path, and loads none of it', () => {
    const policy = files({
      'policy.yaml':
        'version: 1\nworkspace: acme\nrules:\n  - { action: gitPushh, decision: deny }\n  - { scope: team:x, action: gitPush, decision: nope }\n',
    })['policy.yaml'] as string;
    const ran = warden(['explain', '--policy', policy, '--request', PUSH_MAIN, '--json']);
    expect(ran.code).toBe(1);
    const errors = (JSON.parse(ran.stdout) as { errors: { path: string; message: string }[] })
      .errors;
    expect(errors.map((e) => e.path)).toEqual([
      'rules[0].action',
      'rules[1].scope',
      'rules[1].decision',
    ]);
    expect(errors[0]?.message).toContain('did you mean `gitPush`');
  });

  it('refuses an unknown class in a request with a suggestion (E1)', () => {
    const { request } = files({
      request: { workspace: 'acme', agent: 'a', actions: ['fileDeletee'] },
    });
    const ran = warden(['check', '--policy', POLICY, '--request', request as string]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(
      'actions[0]: unknown action class `fileDeletee`: did you mean `fileDelete`?',
    );
  });

  it('refuses a request for another workspace or an undefined mode (E3)', () => {
    const { request } = files({
      request: { workspace: 'acme', agent: 'a', mode: 'reveiw', actions: ['gitPush'] },
    });
    const ran = warden(['check', '--policy', POLICY, '--request', request as string, '--json']);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout)).toMatchObject({ errors: [{ path: 'mode' }] });
  });

  it('reports a YAML syntax error with its line', () => {
    const policy = files({ 'policy.yaml': 'version: 1\nworkspace: [acme\n' })[
      'policy.yaml'
    ] as string;
    const ran = warden(['policy', 'lint', policy]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/line \d+, column \d+/);
  });

  it('refuses a YAML document whose aliases expand without bound, as a listed error', () => {
    const bomb = [
      'version: 1',
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
    ].join('\n');
    const policy = files({ 'bomb.yaml': bomb })['bomb.yaml'] as string;
    const ran = warden(['policy', 'lint', policy, '--json']);
    expect(ran.code).toBe(1);
    expect(
      (JSON.parse(ran.stdout) as { errors: { message: string }[] }).errors[0]?.message,
    ).toMatch(/^cannot read the document/);
  });

  it('says which approver values exist, in the message style of every error', () => {
    const ran = warden([
      'check',
      '--policy',
      POLICY,
      '--request',
      PUSH_MAIN,
      '--approver',
      'maybe',
    ]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toBe(
      'error: --approver: unknown approver `maybe`: use `connected` or `none`\n',
    );
  });

  it('prints usage errors of the command line as JSON with --json', () => {
    const ran = warden(['explain', '--request', PUSH_MAIN, '--json']);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout)).toMatchObject({ errors: [{ path: '--policy' }] });
  });
});

describe('the managed layer (G28, G29, contracts §4)', () => {
  const managedFiles = files({
    'pin-deny.yaml': 'version: 1\nrules:\n  - { id: no-push, action: gitPush, decision: deny }\n',
    'pin-prompt.yaml':
      'version: 1\nrules:\n  - { id: ask-push, action: gitPush, decision: prompt }\n',
  });
  const args = [
    'explain',
    '--policy',
    POLICY,
    '--agent',
    'coder-1',
    '--command',
    'git push origin feature/x',
    '--json',
  ];

  it('comes from WARDEN_MANAGED_POLICY, and the output says so', () => {
    const ran = warden(args, {
      env: { WARDEN_MANAGED_POLICY: managedFiles['pin-deny.yaml'] as string },
    });
    expect(JSON.parse(ran.stdout)).toMatchObject({
      decision: 'deny',
      rule: 'no-push',
      scope: 'managed:workspace',
      managedSource: 'env',
    });
  });

  it('comes from an explicit --managed first', () => {
    const ran = warden([...args, '--managed', managedFiles['pin-prompt.yaml'] as string], {
      env: { WARDEN_MANAGED_POLICY: managedFiles['pin-deny.yaml'] as string },
    });
    expect(JSON.parse(ran.stdout)).toMatchObject({
      decision: 'prompt',
      rule: 'ask-push',
      managedSource: 'flag',
    });
  });

  it('is null when none is loaded', () => {
    expect(JSON.parse(warden(args).stdout)).toMatchObject({ managed: null, managedSource: null });
  });

  it('refuses a managed file that names a workspace (E4)', () => {
    const ran = warden([...args, '--managed', POLICY]);
    expect(ran.code).toBe(1);
    expect(
      (JSON.parse(ran.stdout) as { errors: { path: string }[] }).errors.map((e) => e.path),
    ).toEqual(['workspace', 'spaces', 'modes']);
  });
});

describe('warden policy', () => {
  it('lint says a valid policy is valid, and warns about rules that never decide', () => {
    expect(warden(['policy', 'lint', POLICY])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('valid'),
    });
    const policy = files({
      'policy.yaml': [
        'version: 1',
        'workspace: acme',
        'modes:',
        '  review: { preset: [ { action: gitPush, decision: allow } ] }',
        'rules:',
        '  - { id: a, action: gitPush, decision: deny }',
        '  - { id: b, action: gitPush, decision: deny }',
        '  - { id: c, action: fileDelete, decision: allow, when: { paths: ["build/**"] } }',
        '  - { id: d, action: fileDelete, decision: deny, when: { paths: ["build/**"] } }',
        '  - { id: e, scope: "agent:bot", action: fileDelete, decision: allow }',
        '  - { id: f, action: networkEgress, decision: deny, expiresAt: 2026-01-01T00:00:00Z }',
      ].join('\n'),
    })['policy.yaml'] as string;
    const ran = warden(['policy', 'lint', policy, '--json', '--at', '2026-11-30T00:00:00Z']);
    expect(ran.code).toBe(0);
    const report = JSON.parse(ran.stdout) as {
      valid: boolean;
      warnings: { code: string; rule: string }[];
    };
    expect(report.valid).toBe(true);
    expect(report.warnings.map((w) => `${w.code}:${w.rule}`).sort()).toEqual(
      [
        'contradictory:c',
        'duplicate:b',
        'expired:f',
        'shadowed:c',
        'shadowed:d',
        'unreachable:mode:review#0',
      ].sort(),
    );
  });

  it('describe reads every rule as a sentence (G19)', () => {
    const ran = warden(['policy', 'describe', POLICY, '--json']);
    const body = JSON.parse(ran.stdout) as { rules: { id: string; sentence: string }[] };
    expect(body.rules.map((r) => r.id)).toEqual([
      'protect-main',
      'feature-branches',
      'keep-env-files',
      'no-publish',
      'mode:review#0',
    ]);
    expect(body.rules[0]?.sentence).toBe(
      'In space `payments`, pushing to a git remote (`gitPush`) is denied when any ref matches `main` — nobody pushes to main in payments.',
    );
  });

  it('enumerate lists every class for an agent, with the constrained exceptions (G20)', () => {
    const ran = warden([
      'policy',
      'enumerate',
      POLICY,
      '--agent',
      'coder-1',
      '--space',
      'payments',
      '--json',
    ]);
    const body = JSON.parse(ran.stdout) as {
      classes: { class: string; decision: string; exceptions: { rule: string }[] }[];
    };
    expect(body.classes).toHaveLength(13);
    const push = body.classes.find((c) => c.class === 'gitPush');
    expect(push?.decision).toBe('prompt');
    expect(push?.exceptions.map((e) => e.rule)).toEqual(['protect-main', 'feature-branches']);
  });

  it('enumerate shows what actFreely does to prompts (G32)', () => {
    const ran = warden([
      'policy',
      'enumerate',
      POLICY,
      '--agent',
      'coder-1',
      '--space',
      'sandbox',
      '--json',
    ]);
    const push = (
      JSON.parse(ran.stdout) as {
        classes: { class: string; decision: string; effective: string }[];
      }
    ).classes.find((c) => c.class === 'gitPush');
    expect(push).toMatchObject({ decision: 'prompt', effective: 'allow' });
  });
});

describe('warden classifier', () => {
  it('shows the table and what it reads in a command', () => {
    expect(warden(['classifier']).stdout).toContain('xargs');
    const ran = warden(['classifier', 'cd x && git push origin main', '--json']);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      units: [
        { kind: 'command', facet: 'command:cd x' },
        {
          kind: 'command',
          facet: 'command:git push origin main',
          classes: [{ class: 'gitPush', args: { refs: ['main'] } }, { class: 'processSpawn' }],
        },
      ],
    });
  });
});

describe('warden', () => {
  it('prints help and its version', () => {
    expect(warden(['--help']).stdout).toContain('explain');
    expect(warden(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('refuses an unknown verb with exit 1', () => {
    expect(warden(['frobnicate']).code).toBe(1);
  });
});
