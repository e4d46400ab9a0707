// `warden policy prove`: every deny and prompt rule tried against the
// spellings of its command the classifier knows, through the real binary. The
// shipped templates hold; a classifier configuration that plants a gap makes
// a rule bypassable and the command exit 1; `--json` says the same as data.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import { TEMPLATES, applyTemplate } from '../../src/templates/index.js';

const POLICY = `version: 1
workspace: acme
rules:
  - { id: push-ok, action: gitPush, decision: allow }
  - { id: protect-main, action: gitPush, decision: deny, when: { refs: [main] } }
  - { id: ask-delete, action: fileDelete, decision: prompt }
  - { id: ask-delete-again, action: fileDelete, decision: prompt }
modes:
  review:
    preset:
      - { id: review-no-egress, action: networkEgress, decision: deny }
`;

/** `git` read by curl's extractor: a push is seen as a download and allowed. */
const GAP = JSON.stringify({ programs: { git: 'curl' } });

function write(files: Record<string, string>): string {
  const dir = tempDir('warden-prove-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

interface JsonRule {
  rule: string;
  scope: string;
  decision: string;
  verdict: string;
  tried: number;
  findings: { command: string; verdict: string; decision: string; how: string }[];
}

describe('warden policy prove', () => {
  it.each(TEMPLATES.map((t) => t.name))(
    'G14c: the shipped template %s, as applying it writes it, holds with the sandbox (exit 0)',
    (name) => {
      const template = TEMPLATES.find((t) => t.name === name);
      const params: Record<string, string | readonly string[]> = {};
      for (const p of template?.params ?? []) if (p.required) params[p.name] = p.example;
      const applied = applyTemplate({ version: 1, workspace: 'acme', rules: [] }, name, { params });
      if (!applied.ok) throw new Error(JSON.stringify(applied.problems));
      const dir = write({ 'policy.json': JSON.stringify(applied.document) });
      const ran = warden(['policy', 'prove', join(dir, 'policy.json')]);
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(/^RULE\s+SCOPE\s+DECISION\s+VERDICT\s+TARGET$/m);
      expect(ran.stdout).toMatch(/0 bypassable/);
      expect(ran.stdout).not.toMatch(/\bG\d/);
      for (const rule of applied.added.filter((r) => r.decision !== 'allow'))
        // Every rule needs the sandbox for a script written to a file, which no reader sees.
        expect(ran.stdout).toMatch(
          new RegExp(`^${rule.id}\\s+workspace\\s+${rule.decision}\\s+needs the sandbox`, 'm'),
        );
    },
  );

  it('G14c: a policy proves rule by rule: held but for a script in a file, dead with the lint finding, preset rules in their mode', () => {
    const dir = write({ 'policy.yaml': POLICY });
    const ran = warden([
      'policy',
      'prove',
      join(dir, 'policy.yaml'),
      '--at',
      '2026-12-01T00:00:00Z',
    ]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(
      /^protect-main\s+workspace\s+deny\s+needs the sandbox\s+class:gitPush: \d+ disguises, 1 not held$/m,
    );
    expect(ran.stdout).toMatch(/a file written, then sourced/);
    expect(ran.stdout).toMatch(/^ask-delete-again\s+workspace\s+prompt\s+dead/m);
    expect(ran.stdout).toMatch(/ask-delete-again \(rules\[3\]\): dead: .*repeats `ask-delete`/);
    expect(ran.stdout).toMatch(/^review-no-egress\s+mode:review\s+deny\s+needs the sandbox/m);
    expect(ran.stdout).toMatch(/4 rules: 0 hold, 3 need the sandbox, 0 bypassable, 1 dead/);
    expect(ran.stdout).not.toMatch(/\bG\d/);
  });

  it('G14c: a classifier configuration that plants a gap makes the rule bypassable, names the disguises, exit 1', () => {
    const dir = write({ 'policy.yaml': POLICY, 'gap.json': GAP });
    const ran = warden([
      'policy',
      'prove',
      join(dir, 'policy.yaml'),
      '--classifier',
      join(dir, 'gap.json'),
    ]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(/^protect-main\s+workspace\s+deny\s+bypassable/m);
    expect(ran.stdout).toMatch(
      /protect-main \(rules\[1\]\): \d+ disguises are allowed although the rule says deny/,
    );
    expect(ran.stdout).toMatch(
      /^ {4}git push origin refs\/heads\/main {3}\(ref `refs\/heads\/main`; allow/m,
    );
    expect(ran.stdout).toMatch(/1 bypassable/);
  });

  it('G14c: --json gives the same as data', () => {
    const dir = write({ 'policy.yaml': POLICY, 'gap.json': GAP });
    const ran = warden([
      'policy',
      'prove',
      join(dir, 'policy.yaml'),
      '--classifier',
      join(dir, 'gap.json'),
      '--json',
    ]);
    expect(ran.code).toBe(1);
    const out = JSON.parse(ran.stdout) as {
      ok: boolean;
      workspace: string;
      classifier: string;
      sandbox: { backend: string | null };
      counts: Record<string, number>;
      rules: JsonRule[];
    };
    expect(out.ok).toBe(false);
    expect(out.workspace).toBe('acme');
    expect(out.classifier).toBe(join(dir, 'gap.json'));
    expect(Object.keys(out.sandbox)).toEqual(['backend', 'transactional']);
    expect(out.counts).toMatchObject({ bypassable: 1, dead: 1 });
    const main = out.rules.find((r) => r.rule === 'protect-main');
    expect(main).toMatchObject({ scope: 'workspace', decision: 'deny', verdict: 'bypassable' });
    expect(main?.tried).toBeGreaterThan(100);
    expect(main?.findings).toContainEqual(
      expect.objectContaining({
        command: 'git push origin refs/heads/main',
        verdict: 'bypass',
        decision: 'allow',
      }),
    );
    expect(out.rules.map((r) => r.rule)).toEqual([
      'protect-main',
      'ask-delete',
      'ask-delete-again',
      'review-no-egress',
    ]);
    const clean = JSON.parse(
      warden(['policy', 'prove', join(dir, 'policy.yaml'), '--json']).stdout,
    ) as {
      ok: boolean;
    };
    expect(clean.ok).toBe(true);
  });

  it('E31: bad input is refused with the usual problems and exit 1', () => {
    const dir = write({
      'bad.yaml':
        'version: 1\nworkspace: acme\nrules: [{ id: x, action: gitPsh, decision: deny }]\n',
      'gap.json': '{"wrappers": 3}',
    });
    const bad = warden(['policy', 'prove', join(dir, 'bad.yaml')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: .*bad\.yaml: rules\[0\]\.action: .*gitPush/m);
    const json = warden([
      'policy',
      'prove',
      join(dir, 'bad.yaml'),
      '--classifier',
      join(dir, 'gap.json'),
      '--json',
    ]);
    expect(json.code).toBe(1);
    const errors = (JSON.parse(json.stdout) as { errors: { path: string }[] }).errors;
    expect(errors.length).toBeGreaterThanOrEqual(2);
    const at = warden(['policy', 'prove', join(dir, 'bad.yaml'), '--at', 'yesterday']);
    expect(at.code).toBe(1);
  });
});
