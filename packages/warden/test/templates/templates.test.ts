// The shipped policy templates: each one, applied to a small policy, makes the
// engine decide what its title promises (§2, §3, E4, E10–E12, E30), its rules
// are real policy rules with origin `template` that validate (contracts §1),
// and bad arguments are refused whole, every problem listed.

import {
  DEFAULT_TABLE,
  compilePolicy,
  decide,
  validatePolicy,
  validateRequest,
} from '@warden/engine';
import type { DecisionResult } from '@warden/engine';
import { describe, expect, it } from 'vitest';
import type { TemplateArgs } from '../../src/templates/index.js';
import {
  TEMPLATES,
  applyTemplate,
  previewTemplate,
  templateRules,
} from '../../src/templates/index.js';

const AT = Date.parse('2026-11-30T12:00:00Z');

const BASE = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: {}, free: { autonomy: 'actFreely' } },
  modes: { ship: { preset: [{ action: 'gitPush', decision: 'allow' }] } },
  rules: [{ id: 'commits', action: 'gitCommit', decision: 'allow' }],
};

/** Parameters that every template accepts, for the checks that apply to all of them. */
const EXAMPLE_PARAMS: Record<string, TemplateArgs['params']> = {
  'never-delete-outside-worktree': { worktrees: ['/srv/agents/*'] },
  'egress-allowlist': { hosts: ['api.internal', '*.internal'] },
};

function applied(name: string, args: TemplateArgs = {}, doc: unknown = BASE) {
  const result = applyTemplate(doc, name, args);
  if (!result.ok) throw new Error(`${name} did not apply: ${JSON.stringify(result.problems)}`);
  return result.document;
}

function problemsOf(name: string, args: TemplateArgs, doc: unknown = BASE) {
  const result = applyTemplate(doc, name, args);
  if (result.ok) throw new Error(`${name} applied, but should have been refused`);
  return result.problems;
}

function decideOn(
  doc: unknown,
  request: Record<string, unknown>,
  approverConnected = false,
): DecisionResult {
  const policy = validatePolicy(doc, 'workspace');
  if (!policy.ok) throw new Error(`policy is invalid: ${JSON.stringify(policy.issues)}`);
  const valid = validateRequest({ workspace: 'acme', agent: 'coder-1', ...request });
  if (!valid.ok) throw new Error(`request is invalid: ${JSON.stringify(valid.issues)}`);
  return decide({
    policy: compilePolicy(policy.value),
    managed: null,
    request: valid.value,
    at: AT,
    approverConnected,
    classifier: DEFAULT_TABLE,
  });
}

function facet(result: DecisionResult, name: string) {
  const entry = result.facets.find((f) => f.facet === name);
  if (entry === undefined) throw new Error(`no facet ${name} in ${JSON.stringify(result.facets)}`);
  return entry;
}

const byTemplate = (result: DecisionResult, name: string) =>
  result.facets.some((f) => f.facet === name && (f.rule ?? '').startsWith('tpl-'));

describe('the template library', () => {
  it('ships six templates with stable kebab-case names, a title, a description and plain-data params', () => {
    expect(TEMPLATES.map((t) => t.name)).toEqual([
      'never-push-without-asking',
      'never-delete-outside-worktree',
      'reads-always-allowed',
      'protect-main',
      'no-package-installs',
      'egress-allowlist',
    ]);
    for (const template of TEMPLATES) {
      expect(template.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(template.title.length).toBeGreaterThan(0);
      expect(template.description.length).toBeGreaterThan(100);
      // Users read sentences, never the specification's ids.
      expect(template.description).not.toMatch(/\b[GEIA][0-9]{1,2}[a-c]?\b/);
      for (const param of template.params) {
        expect(param.description.length).toBeGreaterThan(0);
        expect(['string', 'list']).toContain(param.kind);
      }
    }
    expect(JSON.parse(JSON.stringify(TEMPLATES))).toEqual(TEMPLATES);
  });

  it.each(TEMPLATES.map((t) => t.name))(
    '`%s` adds rules with origin `template` that the engine validates (contracts §1)',
    (name) => {
      const params = EXAMPLE_PARAMS[name];
      const doc = applied(name, params === undefined ? {} : { params });
      expect(validatePolicy(doc, 'workspace').ok).toBe(true);
      const added = (doc.rules as Record<string, unknown>[]).slice(1);
      expect(added.length).toBeGreaterThan(0);
      added.forEach((rule, index) => {
        expect(rule.origin).toBe('template');
        expect(rule.id).toBe(`tpl-${name}-${index + 1}`);
        expect(rule.scope).toBe('workspace');
        expect(rule.note).toBe(`template \`${name}\``);
      });
    },
  );

  it('refuses an unknown template name with a did-you-mean, or lists the templates', () => {
    expect(problemsOf('protect-mian', {})).toEqual([
      {
        path: 'template',
        message: 'unknown template `protect-mian`: did you mean `protect-main`?',
      },
    ]);
    const [far] = problemsOf('allow-everything', {});
    expect(far?.message).toMatch(
      /^unknown template `allow-everything`: the templates are `never-push/,
    );
  });

  it('previews exactly the rules that applying adds, each as a sentence (G19)', () => {
    const args = { scope: 'space:payments', params: { branches: ['release/**'] } };
    const preview = previewTemplate('protect-main', args, BASE);
    const result = applyTemplate(BASE, 'protect-main', args);
    if (!preview.ok || !result.ok) throw new Error('expected both to succeed');
    expect(result.added).toEqual(preview.rules);
    expect((result.document.rules as unknown[]).slice(1)).toEqual(preview.rules);
    expect(preview.rules).toEqual([
      {
        id: 'tpl-protect-main-1',
        scope: 'space:payments',
        action: 'gitPush',
        decision: 'deny',
        enforcement: 'hard',
        when: { refs: ['main', 'master', 'release/**'] },
        origin: 'template',
        note: 'template `protect-main`',
      },
    ]);
    expect(preview.sentences).toEqual([
      'tpl-protect-main-1: In space `payments`, pushing to a git remote (`gitPush`) is denied when any ref matches `main`, `master`, `release/**` (from a template) — template `protect-main`.',
    ]);
  });
});

describe('never-push-without-asking', () => {
  const doc = applied('never-push-without-asking');

  it('prompts for every push, also one inside a compound command, and denies it with no approver (G14b, G22)', () => {
    for (const command of ['git push origin feature/x', 'cd api && git push origin main']) {
      const result = decideOn(doc, { command });
      expect(facet(result, 'gitPush')).toMatchObject({
        decision: 'prompt',
        rule: 'tpl-never-push-without-asking-1',
      });
      expect(result.outcome).toBe('deny');
      expect(decideOn(doc, { command }, true).outcome).toBe('ask');
    }
  });

  it('holds over a mode preset that allows pushes: the workspace scope is narrower (G8)', () => {
    expect(decideOn(BASE, { actions: ['gitPush'], mode: 'ship' }).decision).toBe('allow');
    expect(decideOn(doc, { actions: ['gitPush'], mode: 'ship' }).decision).toBe('prompt');
  });

  it('is pre-approved in an `actFreely` space, as its description says (G32)', () => {
    const result = decideOn(doc, { actions: ['gitPush'], space: 'free' });
    expect(result).toMatchObject({ decision: 'allow', rule: 'autonomy:actFreely' });
  });

  it('refuses `soft` (its rule prompts, E4) and only reports under `advisory` (G25)', () => {
    expect(problemsOf('never-push-without-asking', { enforcement: 'soft' })).toEqual([
      {
        path: 'enforcement',
        message:
          '`soft` applies only to `deny`: template `never-push-without-asking` adds a `prompt` rule: use `hard` or `advisory`',
      },
    ]);
    const advisory = applied('never-push-without-asking', { enforcement: 'advisory' });
    const result = decideOn(advisory, { actions: ['gitPush'], mode: 'ship' });
    expect(result.decision).toBe('allow');
    expect(result.advisories).toEqual([
      { rule: 'tpl-never-push-without-asking-1', facet: 'gitPush', wouldBe: 'prompt' },
    ]);
  });
});

describe('never-delete-outside-worktree', () => {
  const worktree = '/srv/agents/api';
  const doc = applied('never-delete-outside-worktree', {
    params: { worktrees: ['/srv/agents/*'] },
  });
  const del = (paths: string[], withWorktree: boolean) =>
    decideOn(doc, {
      actions: ['fileDelete'],
      args: { paths },
      ...(withWorktree ? { worktree } : {}),
    });

  it('denies deleting an absolute path outside the worktree, with or without a known worktree (E10)', () => {
    for (const withWorktree of [false, true]) {
      expect(facet(del(['/etc/passwd'], withWorktree), 'fileDelete')).toMatchObject({
        decision: 'deny',
        rule: 'tpl-never-delete-outside-worktree-1',
      });
    }
    expect(decideOn(doc, { command: 'cd /tmp && rm x', worktree }).decision).toBe('deny');
  });

  it('does not deny deleting inside the worktree, also when the request names its worktree (E10, E36)', () => {
    for (const [paths, withWorktree] of [
      [['src/a.ts'], false],
      [['src/a.ts'], true],
      [['/srv/agents/api/src/a.ts'], true],
      [['.'], true],
    ] as const) {
      const result = del([...paths], withWorktree);
      expect(byTemplate(result, 'fileDelete')).toBe(false);
      expect(facet(result, 'fileDelete')).toMatchObject({
        decision: 'prompt',
        rule: 'default:fileDelete',
      });
    }
    expect(byTemplate(decideOn(doc, { command: 'rm src/a.ts', worktree }), 'fileDelete')).toBe(
      false,
    );
  });

  it('needs the worktree folders: a bare `/**` would deny every deletion once the worktree is known (E36)', () => {
    const bare = {
      ...BASE,
      rules: [{ id: 'bare', action: 'fileDelete', decision: 'deny', when: { paths: ['/**'] } }],
    };
    const result = decideOn(bare, {
      actions: ['fileDelete'],
      args: { paths: ['src/a.ts'] },
      worktree,
    });
    expect(facet(result, 'fileDelete')).toMatchObject({ decision: 'deny', rule: 'bare' });
  });

  it('denies a relative path that climbs out: placed with the worktree, or outright without one (E10)', () => {
    expect(facet(del(['../x'], false), 'fileDelete').decision).toBe('deny');
    expect(facet(del(['../../x'], true), 'fileDelete').decision).toBe('deny');
    // Into a sibling worktree under the glob: inside, as the description says.
    expect(byTemplate(del(['../other/x'], true), 'fileDelete')).toBe(false);
    const exact = applied('never-delete-outside-worktree', { params: { worktrees: [worktree] } });
    const sibling = decideOn(exact, {
      actions: ['fileDelete'],
      args: { paths: ['../other/x'] },
      worktree,
    });
    expect(facet(sibling, 'fileDelete').decision).toBe('deny');
  });

  it('escalates a deletion whose paths are unknown to a prompt that `actFreely` keeps a deny (G18, E17b)', () => {
    const result = decideOn(doc, { command: 'rm -rf ~', worktree });
    expect(facet(result, 'fileDelete')).toMatchObject({
      decision: 'prompt',
      rule: 'tpl-never-delete-outside-worktree-1',
    });
    expect(decideOn(doc, { command: 'rm -rf ~', worktree, space: 'free' }).decision).toBe('deny');
  });

  it('refuses a missing, relative, negated or all-covering worktree folder', () => {
    expect(problemsOf('never-delete-outside-worktree', {})).toEqual([
      {
        path: 'params.worktrees',
        message: expect.stringMatching(
          /^missing parameter `worktrees`: template `never-delete-outside-worktree` needs /,
        ) as unknown as string,
      },
    ]);
    const problems = problemsOf('never-delete-outside-worktree', {
      params: { worktrees: ['src', '!/srv/agents/*', '/', '/a/../b'] },
    });
    expect(problems.map((p) => p.path)).toEqual([
      'params.worktrees[0]',
      'params.worktrees[1]',
      'params.worktrees[2]',
      'params.worktrees[3]',
    ]);
    expect(problems[0]?.message).toBe(
      '`src` is not absolute: name the worktree folders by absolute path, such as `/srv/agents/*`',
    );
    expect(problems[2]?.message).toBe('`/` holds every path: the rule would deny nothing');
    expect(problems[3]?.message).toMatch(
      /^`\/a\/\.\.\/b`: patterns cannot hold `\.` or `\.\.` segments/,
    );
  });
});

describe('reads-always-allowed', () => {
  const doc = applied('reads-always-allowed');

  it('allows the command facet of a read (`cat a.txt`)', () => {
    const result = decideOn(doc, { command: 'cat a.txt | grep x' });
    expect(result.decision).toBe('allow');
    expect(facet(result, 'command:cat a.txt')).toMatchObject({
      decision: 'allow',
      rule: 'tpl-reads-always-allowed-1',
    });
    expect(facet(result, 'command:grep x').decision).toBe('allow');
  });

  it('lifts no class: `find . -delete` still prompts for `fileDelete` (G15)', () => {
    const result = decideOn(doc, { command: 'find . -delete' });
    expect(facet(result, 'command:find . -delete').decision).toBe('allow');
    expect(facet(result, 'fileDelete')).toMatchObject({
      decision: 'prompt',
      rule: 'default:fileDelete',
    });
    expect(result.decision).toBe('prompt');
  });

  it('beats a shorter stricter command rule in the same scope: the longer prefix wins (G13)', () => {
    const strict = { ...BASE, rules: [{ id: 'ask-git', command: 'git', decision: 'prompt' }] };
    const both = applied('reads-always-allowed', {}, strict);
    expect(decideOn(strict, { command: 'git status' }).decision).toBe('prompt');
    expect(decideOn(both, { command: 'git status' }).decision).toBe('allow');
    expect(
      facet(decideOn(both, { command: 'git push origin x' }), 'command:git push origin x').rule,
    ).toBe('ask-git');
  });

  it('yields to a narrower scope and to a `processSpawn` rule (G8, G15)', () => {
    const narrow = {
      ...BASE,
      rules: [{ id: 'no-cat', scope: 'agent:coder-1', command: 'cat', decision: 'deny' }],
      modes: { careful: { preset: [{ action: 'processSpawn', decision: 'prompt' }] } },
    };
    const doc2 = applied('reads-always-allowed', {}, narrow);
    expect(decideOn(doc2, { command: 'cat a' })).toMatchObject({
      decision: 'deny',
      rule: 'no-cat',
    });
    const spawn = decideOn(doc2, { command: 'ls', mode: 'careful' });
    expect(spawn.decision).toBe('prompt');
    expect(facet(spawn, 'processSpawn').rule).toBe('mode:careful#0');
  });

  it('covers a standard system path, never a look-alike binary or an unparseable command (G14b, E27)', () => {
    expect(
      facet(decideOn(doc, { command: '/usr/bin/cat a' }), 'command:/usr/bin/cat a').decision,
    ).toBe('allow');
    expect(facet(decideOn(doc, { command: './cat a' }), 'command:./cat a').decision).toBeNull();
    expect(decideOn(doc, { command: 'cat `whoami`' })).toMatchObject({
      decision: 'prompt',
      rule: 'unparseable',
    });
  });

  it('takes more prefixes, judged by the engine, and refuses `soft` and `advisory` (E4)', () => {
    const more = applied('reads-always-allowed', { params: { commands: ['jq', 'cat'] } });
    const ids = (more.rules as Record<string, unknown>[]).filter((r) => r.command === 'cat');
    expect(ids).toHaveLength(1);
    expect(facet(decideOn(more, { command: 'jq . a.json' }), 'command:jq . a.json').decision).toBe(
      'allow',
    );
    expect(problemsOf('reads-always-allowed', { params: { commands: ['a && b'] } })).toEqual([
      {
        path: 'params.commands[0]',
        message: '`a && b` holds more than one command: a prefix names one simple command',
      },
    ]);
    expect(problemsOf('reads-always-allowed', { enforcement: 'advisory' })).toEqual([
      {
        path: 'enforcement',
        message:
          '`advisory` does not apply to `allow`, which is always hard: template `reads-always-allowed` adds only `allow` rules',
      },
    ]);
    expect(problemsOf('reads-always-allowed', { enforcement: 'soft' })[0]?.message).toBe(
      '`soft` applies only to `deny`: template `reads-always-allowed` adds only `allow` rules',
    );
  });
});

describe('protect-main', () => {
  const doc = applied('protect-main');

  it('denies a push to `main` and `refs/heads/main` alike, and to `master` (E11)', () => {
    for (const command of [
      'git push origin main',
      'git push origin refs/heads/main',
      'git push origin master',
      'git push origin feature:main',
      'git push origin :main',
    ]) {
      expect(facet(decideOn(doc, { command }), 'gitPush'), command).toMatchObject({
        decision: 'deny',
        rule: 'tpl-protect-main-1',
      });
    }
  });

  it('does not deny a push to `feature/x`: the other rules decide (the default prompts)', () => {
    const result = decideOn(doc, { command: 'git push origin feature/x' });
    expect(facet(result, 'gitPush')).toMatchObject({ decision: 'prompt', rule: 'default:gitPush' });
  });

  it('escalates a push whose ref is unknown, and `actFreely` keeps it a deny (G18, E17b)', () => {
    expect(facet(decideOn(doc, { command: 'git push origin HEAD' }), 'gitPush')).toMatchObject({
      decision: 'prompt',
      rule: 'tpl-protect-main-1',
    });
    expect(decideOn(doc, { command: 'git push origin HEAD', space: 'free' }).decision).toBe('deny');
  });

  it('protects more branches given as ref globs, and refuses a negation that would lift main', () => {
    const more = applied('protect-main', { params: { branches: ['release/**'] } });
    expect(decideOn(more, { actions: ['gitPush'], args: { refs: ['release/1.0'] } }).decision).toBe(
      'deny',
    );
    expect(problemsOf('protect-main', { params: { branches: ['!main'] } })).toEqual([
      {
        path: 'params.branches[0]',
        message: 'a negation would lift the protection: list only the branches to protect',
      },
    ]);
  });

  it('applies in the scope given, and a `soft` denial is overridable (G26)', () => {
    const scoped = applied('protect-main', { scope: 'space:payments', enforcement: 'soft' });
    const inSpace = decideOn(scoped, {
      actions: ['gitPush'],
      args: { refs: ['main'] },
      space: 'payments',
    });
    expect(inSpace).toMatchObject({
      decision: 'deny',
      enforcement: 'soft',
      overridable: true,
      scope: 'space:payments',
    });
    const elsewhere = decideOn(scoped, { actions: ['gitPush'], args: { refs: ['main'] } });
    expect(elsewhere.rule).toBe('default:gitPush');
  });
});

describe('no-package-installs', () => {
  const doc = applied('no-package-installs');

  it('denies installs the classifier reads and a tool that declares `packageInstall`', () => {
    for (const command of [
      'npm install left-pad',
      'pip install requests',
      'cd web && pnpm add x',
    ]) {
      expect(facet(decideOn(doc, { command }), 'packageInstall'), command).toMatchObject({
        decision: 'deny',
        rule: 'tpl-no-package-installs-1',
      });
    }
    expect(decideOn(doc, { actions: ['packageInstall'] }).decision).toBe('deny');
  });

  it('does not see an install the classifier does not know (`make install`), as its description says', () => {
    expect(decideOn(doc, { command: 'make install' }).decision).toBe('allow');
  });

  it('sees a runner that fetches a package to run it (`npx`), as its description says', () => {
    expect(decideOn(doc, { command: 'npx cowsay hi' }).decision).toBe('deny');
  });

  it('takes no parameters, and says so', () => {
    expect(problemsOf('no-package-installs', { params: { allow: ['lodash'] } })).toEqual([
      {
        path: 'params.allow',
        message: 'unknown parameter `allow`: template `no-package-installs` takes no parameters',
      },
    ]);
  });
});

describe('egress-allowlist', () => {
  const doc = applied('egress-allowlist', { params: { hosts: ['api.internal', '*.internal'] } });
  const egress = (hosts: string[] | undefined, d: unknown = doc) =>
    decideOn(d, {
      actions: ['networkEgress'],
      ...(hosts === undefined ? {} : { args: { hosts } }),
    });

  it('allows listed hosts: the constrained allow beats the unconstrained deny (G11, E12)', () => {
    for (const host of ['api.internal', 'x.y.internal', 'https://API.internal:8443/v1']) {
      expect(facet(egress([host]), 'networkEgress'), host).toMatchObject({
        decision: 'allow',
        rule: 'tpl-egress-allowlist-1',
      });
    }
    expect(decideOn(doc, { command: 'curl https://api.internal/x' }).decision).toBe('allow');
  });

  it('denies every other host, an IP literal under `*.internal`, and `internal` itself (E30)', () => {
    for (const host of ['example.com', '10.0.0.1', 'internal']) {
      expect(facet(egress([host]), 'networkEgress'), host).toMatchObject({
        decision: 'deny',
        rule: 'tpl-egress-allowlist-2',
      });
    }
    expect(decideOn(doc, { command: 'curl https://example.com' }).decision).toBe('deny');
  });

  it('denies a request that packs a listed host beside another, or says no host (G16, E8)', () => {
    expect(egress(['api.internal', 'example.com']).decision).toBe('deny');
    expect(egress(undefined).decision).toBe('deny');
    expect(decideOn(doc, { command: 'git fetch origin' }).decision).toBe('deny');
  });

  it('under `advisory` only reports what the deny would have done (G25)', () => {
    const rollout = applied('egress-allowlist', {
      params: { hosts: ['api.internal'] },
      enforcement: 'advisory',
    });
    const rules = rollout.rules as Record<string, unknown>[];
    expect(rules.map((r) => r.enforcement)).toEqual([undefined, undefined, 'advisory']);
    const result = egress(['example.com'], rollout);
    expect(result.decision).toBe('allow');
    expect(result.advisories).toEqual([
      { rule: 'tpl-egress-allowlist-2', facet: 'networkEgress', wouldBe: 'deny' },
    ]);
  });

  it('applies in an agent scope only to that agent', () => {
    const scoped = applied('egress-allowlist', {
      scope: 'agent:coder-1',
      params: { hosts: ['api.internal'] },
    });
    expect(egress(['example.com'], scoped).decision).toBe('deny');
    const other = decideOn(scoped, {
      agent: 'coder-2',
      actions: ['networkEgress'],
      args: { hosts: ['example.com'] },
    });
    expect(other.decision).toBe('allow');
  });

  it('refuses missing hosts, `*` alone, and a list of negations only', () => {
    expect(problemsOf('egress-allowlist', {})[0]?.path).toBe('params.hosts');
    expect(problemsOf('egress-allowlist', { params: { hosts: [] } })).toEqual([
      { path: 'params.hosts', message: 'empty `hosts`: name at least one value' },
    ]);
    expect(problemsOf('egress-allowlist', { params: { hosts: ['*'] } })).toEqual([
      { path: 'params.hosts[0]', message: '`*` alone matches every host: omit `hosts` instead' },
    ]);
    expect(problemsOf('egress-allowlist', { params: { hosts: ['!a.internal'] } })).toEqual([
      { path: 'params.hosts', message: 'only negations: name at least one host to allow' },
    ]);
    expect(problemsOf('egress-allowlist', { params: { hosts: 'api.internal' } })[0]?.message).toBe(
      'expected a list of strings, got the string `api.internal`: write `hosts: ["api.internal"]`',
    );
  });
});

describe('ids, scopes and enforcement across templates', () => {
  it('gives ids that do not collide with the rule and preset ids already in the document (E29)', () => {
    const taken = {
      ...BASE,
      rules: [{ id: 'tpl-egress-allowlist-1', action: 'gitCommit', decision: 'allow' }],
      modes: {
        m: { preset: [{ id: 'tpl-egress-allowlist-2', action: 'gitPush', decision: 'prompt' }] },
      },
    };
    const rules = templateRules('egress-allowlist', { params: { hosts: ['a.internal'] } }, taken);
    if (!rules.ok) throw new Error(JSON.stringify(rules.problems));
    expect(rules.rules.map((r) => r.id)).toEqual([
      'tpl-egress-allowlist-1-2',
      'tpl-egress-allowlist-2-2',
    ]);
    expect(applyTemplate(taken, 'egress-allowlist', { params: { hosts: ['a.internal'] } }).ok).toBe(
      true,
    );
  });

  it('applying twice adds the rules again, with fresh ids; the document still validates', () => {
    const once = applied('protect-main');
    const twice = applied('protect-main', {}, once);
    expect((twice.rules as Record<string, unknown>[]).map((r) => r.id)).toEqual([
      'commits',
      'tpl-protect-main-1',
      'tpl-protect-main-1-2',
    ]);
    expect(validatePolicy(twice, 'workspace').ok).toBe(true);
  });

  it('places the rules in `agent:<id>` and `space:<id>` scopes, and refuses a malformed scope with the engine’s message (E4)', () => {
    for (const scope of ['agent:coder-1', 'space:payments']) {
      const rules = templateRules('no-package-installs', { scope }, BASE);
      expect(rules.ok && rules.rules[0]?.scope).toBe(scope);
    }
    expect(problemsOf('no-package-installs', { scope: 'team:x' })).toEqual([
      {
        path: 'scope',
        message: 'unknown scope `team:x`: use `workspace`, `agent:<id>` or `space:<id>`',
      },
    ]);
    expect(problemsOf('no-package-installs', { scope: 'agent:' })[0]?.message).toBe(
      '`agent:` names no agent: write `agent:<id>`',
    );
  });

  it('lists every problem with the arguments at once, and names an unknown argument or enforcement', () => {
    const problems = problemsOf('protect-main', {
      scope: 'mode:x',
      enforcement: 'sfot' as 'soft',
      params: { brnaches: ['x'] },
      ...({ scpoe: 'workspace' } as object),
    });
    expect(problems).toEqual([
      {
        path: 'scpoe',
        message:
          'unknown argument `scpoe`: use `scope`, `enforcement` and `params`: did you mean `scope`?',
      },
      {
        path: 'scope',
        message:
          '`mode:x` is not a rule scope: mode preset rules are written under `modes.x.preset`',
      },
      {
        path: 'enforcement',
        message:
          'unknown enforcement `sfot`: use `hard`, `soft` or `advisory`: did you mean `soft`?',
      },
      {
        path: 'params.brnaches',
        message:
          'unknown parameter `brnaches`: template `protect-main` takes `branches`: did you mean `branches`?',
      },
    ]);
  });

  it('applies nothing to an invalid document, and lists its problems; the input is never changed', () => {
    const broken = { ...BASE, rules: [{ id: 'x', action: 'gitPushh', decision: 'deny' }] };
    const result = applyTemplate(broken, 'protect-main', {});
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          path: 'rules[0].action',
          message: 'unknown action class `gitPushh`: did you mean `gitPush`?',
        },
      ],
    });
    const before = JSON.stringify(BASE);
    applied('protect-main');
    expect(JSON.stringify(BASE)).toBe(before);
  });
});
