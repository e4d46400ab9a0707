// Provable rules: every deny and prompt rule tried against the disguises of
// its target that the classifier's own table knows, each decided by the engine.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AT, compiled } from './decide-docs.js';
import { policyArb } from './arbitraries.js';
import type { ClassifierTable, RuleProof } from '../src/index.js';
import type { WrapperEntry } from '../src/classify/table.js';
import {
  DEFAULT_TABLE,
  MAX_DISGUISES,
  disguises,
  explainDecision,
  extendClassifier,
  provePolicy,
} from '../src/index.js';
import { render } from '../src/prove/disguises.js';

const STRICT = { allow: 0, prompt: 1, deny: 2 } as const;
const NO_SANDBOX = { backend: null };

function prove(
  rules: readonly unknown[],
  options: {
    classifier?: ClassifierTable;
    knowledge?: ClassifierTable;
    extra?: Record<string, unknown>;
    unreadable?: boolean;
  } = {},
) {
  return provePolicy({
    policy: compiled({ version: 1, workspace: 'acme', rules, ...options.extra }),
    classifier: options.classifier ?? DEFAULT_TABLE,
    ...(options.knowledge === undefined ? {} : { knowledge: options.knowledge }),
    at: AT,
    sandbox: NO_SANDBOX,
    ...(options.unreadable === undefined ? {} : { unreadable: options.unreadable }),
  });
}

/** The disguise no classifier reads: a script written to a file, then run (E44). */
const FILE_FORM = 'a file written, then sourced';

/**
 * A rule's proof with the script-file disguise set apart: every rule needs the
 * sandbox for that one (the classifier sees only a process start), so what a
 * rule shows beyond it is what these tests compare.
 */
function proofOf(rules: readonly RuleProof[], id: string): RuleProof {
  const proof = rules.find((r) => r.rule === id);
  if (proof === undefined) throw new Error(`no proof for ${id}`);
  if (proof.verdict === 'dead' || proof.verdict === 'unproved') return proof;
  const file = proof.findings.filter((f) => f.how === FILE_FORM);
  expect(
    file.map((f) => f.verdict),
    `${id}: ${FILE_FORM}`,
  ).toEqual(file.length === 0 ? [] : [file[0]?.verdict === 'bypass' ? 'bypass' : 'sandbox']);
  const findings = proof.findings.filter((f) => f.how !== FILE_FORM);
  const order = ['holds', 'weakened', 'sandbox', 'bypass'] as const;
  const verdicts = ['holds', 'weakened', 'sandbox', 'bypassable'] as const;
  const worst = findings.reduce<number>((w, f) => Math.max(w, order.indexOf(f.verdict)), 0);
  const verdict: RuleProof['verdict'] = verdicts[worst] ?? 'holds';
  const sandboxCovers = findings.some((f) => f.verdict === 'sandbox') ? proof.sandboxCovers : null;
  return { ...proof, findings, verdict, sandboxCovers };
}

function extended(config: unknown): ClassifierTable {
  const table = extendClassifier(DEFAULT_TABLE, config);
  if (!table.ok) throw new Error(JSON.stringify(table.issues));
  return table.value;
}

/** A copy of a table without one wrapper: a planted gap. */
function without(table: ClassifierTable, name: string): ClassifierTable {
  const wrappers = Object.fromEntries(Object.entries(table.wrappers).filter(([n]) => n !== name));
  return { ...table, wrappers };
}

/** A copy of the default table without the `timeout` wrapper: a planted gap. */
function withoutTimeout(): ClassifierTable {
  const wrappers = Object.fromEntries(
    Object.entries(DEFAULT_TABLE.wrappers).filter(([name]) => name !== 'timeout'),
  );
  return { ...DEFAULT_TABLE, wrappers };
}

describe('warden policy prove: a rule on a wrapper (E43)', () => {
  const rules = [
    { id: 'no-root', command: 'sudo -u root', decision: 'deny' },
    { id: 'no-find-exec', command: 'find -exec', decision: 'deny' },
    { id: 'id-ok', command: 'id', decision: 'allow' },
  ];

  it('E43: is proved on the wrapper running a command, its options spelled every way its entry names', () => {
    const list = disguises({ words: ['sudo', '-u', 'root', 'id'], slots: [] }, DEFAULT_TABLE);
    const commands = list.map((d) => d.command);
    for (const spelled of ['sudo -uroot id', 'sudo --user=root id', 'sudo --user root id'])
      expect(commands).toContain(spelled);
    const find = disguises({ words: ['find', '-exec', 'id', '{}', ';'], slots: [] }, DEFAULT_TABLE);
    for (const other of ['-execdir', '-ok', '-okdir'])
      expect(find.map((d) => d.command)).toContain(`find ${other} id '{}' ';'`);
    const proof = prove(rules);
    for (const id of ['no-root', 'no-find-exec']) {
      const rule = proofOf(proof.rules, id);
      expect(rule.plain?.startsWith(id === 'no-root' ? 'sudo -u root id' : 'find -exec id')).toBe(
        true,
      );
      expect(rule.findings.filter((f) => f.kind === 'option')).toEqual([]);
      expect(rule.findings.filter((f) => f.verdict === 'bypass')).toEqual([]);
    }
  });

  it('E43: where the deciding table lacks a wrapper entry’s option spellings, the rule no longer holds and the spelling is named', () => {
    const sudo = DEFAULT_TABLE.wrappers['sudo'];
    if (sudo === undefined) throw new Error('no sudo in the table');
    const unpaired: WrapperEntry = Object.fromEntries(
      Object.entries(sudo).filter(([field]) => field !== 'same'),
    ) as unknown as WrapperEntry;
    const gapped = { ...DEFAULT_TABLE, wrappers: { ...DEFAULT_TABLE.wrappers, sudo: unpaired } };
    const proof = prove(rules, { classifier: gapped, knowledge: DEFAULT_TABLE });
    const rule = proofOf(proof.rules, 'no-root');
    // Allowed as a plain process: only a sandbox would stand between it and root.
    expect(rule.verdict).toBe('sandbox');
    const allowed = rule.findings.filter((f) => f.decision === 'allow').map((f) => f.command);
    expect(allowed).toContain('sudo --user=root id');
    expect(proofOf(prove(rules).rules, 'no-root').findings.map((f) => f.command)).not.toContain(
      'sudo --user=root id',
    );
  });
});

describe('warden policy prove: disguises', () => {
  it('G14c: the disguises of a command come from the table: its wrappers, shells, paths, quoting and options', () => {
    const list = disguises({ words: ['rm', '-rf', 'build'], slots: [] }, DEFAULT_TABLE);
    const commands = list.map((d) => d.command);
    expect(commands[0]).toBe('rm -rf build');
    for (const expected of [
      'sudo rm -rf build',
      'env FOO=bar rm -rf build',
      'timeout 1 rm -rf build',
      'nice -5 rm -rf build',
      "bash -c 'rm -rf build'",
      "sh -c 'rm -rf build'",
      'echo | xargs rm -rf build',
      'echo $(rm -rf build)',
      'echo `rm -rf build`',
      'true && rm -rf build',
      '( rm -rf build )',
      '/usr/bin/rm -rf build',
      "'rm' -rf build",
      'rm -r -f build',
      'rm --recursive --force build',
    ])
      expect(commands).toContain(expected);
    expect(new Set(commands).size).toBe(commands.length);
    expect(list.length).toBeLessThanOrEqual(MAX_DISGUISES);
  });

  it('G14c: a wrapper the table does not have gives no disguise, and the cap holds', () => {
    const commands = disguises({ words: ['rm', '-rf', 'build'], slots: [] }, withoutTimeout()).map(
      (d) => d.command,
    );
    expect(commands.some((c) => c.startsWith('timeout'))).toBe(false);
    expect(disguises({ words: ['rm', '-rf'], slots: [] }, DEFAULT_TABLE, 7)).toHaveLength(7);
  });

  it('E11: a constrained ref, path and host are spelled other ways', () => {
    const refs = disguises(
      {
        words: ['git', 'push', 'origin', 'main'],
        slots: [{ index: 3, key: 'refs', form: 'plain', value: 'main' }],
      },
      DEFAULT_TABLE,
    ).map((d) => d.command);
    for (const spelling of ['refs/heads/main', 'HEAD:main', '+main', ':main'])
      expect(refs).toContain(`git push origin ${spelling}`);
    const hosts = disguises(
      {
        words: ['curl', 'https://evil.com/'],
        slots: [{ index: 1, key: 'hosts', form: 'url', value: 'evil.com' }],
      },
      DEFAULT_TABLE,
    ).map((d) => d.command);
    expect(hosts).toContain('curl https://EVIL.COM/');
    expect(hosts).toContain('curl https://evil.com./');
    const paths = disguises(
      {
        words: ['rm', '/srv/a/x'],
        slots: [{ index: 1, key: 'paths', form: 'plain', value: '/srv/a/x' }],
      },
      DEFAULT_TABLE,
    ).map((d) => d.command);
    expect(paths).toContain('rm /srv/a/../a/x');
    expect(paths).toContain('rm /srv/a/x/');
  });
});

describe('warden policy prove: verdicts', () => {
  it('G14: a deny on `rm -rf` beside a fileDelete deny holds against every disguise', () => {
    const proof = prove([
      { id: 'no-rm', command: 'rm -rf', decision: 'deny' },
      { id: 'no-delete', action: 'fileDelete', decision: 'deny' },
    ]);
    const noRm = proofOf(proof.rules, 'no-rm');
    expect(noRm.verdict).toBe('holds');
    expect(noRm.findings).toEqual([]);
    expect(noRm.tried).toBeGreaterThan(100);
    expect(proofOf(proof.rules, 'no-delete').verdict).toBe('holds');
    // Apart from the script written to a file, which only the sandbox sees.
    expect(proof.counts).toMatchObject({ holds: 0, sandbox: 2 });
  });

  it('G14b: every form that carries code is tried, and a script in a file keeps a rule from "holds"', () => {
    const list = disguises({ words: ['rm', '-f', 'notes.txt'], slots: [] }, DEFAULT_TABLE);
    const code = list.filter((d) => d.kind === 'code').map((d) => d.command);
    for (const expected of [
      "bash - <<< 'rm -f notes.txt'",
      "bash /dev/stdin <<< 'rm -f notes.txt'",
      "sh /dev/fd/0 <<< 'rm -f notes.txt'",
      "bash /dev/fd/3 3<<< 'rm -f notes.txt'",
      ". /dev/stdin <<< 'rm -f notes.txt'",
      "mapfile -C 'rm -f notes.txt #' -c 1 a <<< x",
      "readarray -C 'rm -f notes.txt #' -c 1 a <<< x",
      "eval 'rm -f notes.txt'",
      "trap 'rm -f notes.txt' EXIT",
      "printf '%s\\n' 'rm -f notes.txt' > .run.sh && . ./.run.sh",
    ])
      expect(code).toContain(expected);
    const raw = provePolicy({
      policy: compiled({
        version: 1,
        workspace: 'acme',
        rules: [{ id: 'no-delete', action: 'fileDelete', decision: 'deny' }],
      }),
      classifier: DEFAULT_TABLE,
      at: AT,
      sandbox: { backend: 'bwrap+socat' },
    });
    const rule = raw.rules[0] as RuleProof;
    expect(rule.verdict).toBe('sandbox');
    expect(rule.sandboxCovers).toBe(true);
    expect(rule.findings.map((f) => [f.how, f.verdict])).toEqual([[FILE_FORM, 'sandbox']]);
  });

  it('G14b: alone, a deny on `rm -rf` is never allowed: only respelled options and substitutions ask instead', () => {
    const noRm = proofOf(
      prove([{ id: 'no-rm', command: 'rm -rf', decision: 'deny' }]).rules,
      'no-rm',
    );
    expect(noRm.verdict).toBe('weakened');
    expect(noRm.findings.length).toBeGreaterThan(0);
    for (const finding of noRm.findings) {
      expect(finding.verdict).toBe('weakened');
      expect(finding.decision).toBe('prompt');
      expect(['option', 'substitution', 'nested', 'code']).toContain(finding.kind);
      expect(finding.classes).toContain('fileDelete');
    }
    expect(noRm.findings.map((f) => f.command)).toContain('rm -r -f');
  });

  it('G14c: a wrapper taken out of the table leaves its disguises as plain processes: the rule needs the sandbox', () => {
    const gapped = withoutTimeout();
    const proof = provePolicy({
      policy: compiled({
        version: 1,
        workspace: 'acme',
        rules: [{ id: 'no-delete', action: 'fileDelete', decision: 'deny' }],
      }),
      classifier: gapped,
      knowledge: DEFAULT_TABLE,
      at: AT,
      sandbox: { backend: 'bwrap+socat' },
    });
    const rule = proofOf(proof.rules, 'no-delete');
    expect(rule.verdict).toBe('sandbox');
    expect(rule.sandboxCovers).toBe(true);
    const named = rule.findings.filter((f) => f.verdict === 'sandbox').map((f) => f.command);
    expect(named).toContain('timeout 1 rm -f notes.txt');
    for (const command of named) expect(command).toContain('timeout');
    const again = prove([{ id: 'no-delete', action: 'fileDelete', decision: 'deny' }], {
      classifier: gapped,
      knowledge: DEFAULT_TABLE,
    });
    expect(proofOf(again.rules, 'no-delete').sandboxCovers).toBe(false);
  });

  it('G14c: a program the table gives the wrong extractor is a bypass: the disguise is named', () => {
    const gapped = extended({ programs: { git: 'curl' } });
    const proof = prove(
      [{ id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } }],
      {
        classifier: gapped,
      },
    );
    const rule = proofOf(proof.rules, 'protect-main');
    expect(rule.verdict).toBe('bypassable');
    expect(proof.counts.bypassable).toBe(1);
    const bypass = rule.findings.find((f) => f.command === 'git push origin refs/heads/main');
    expect(bypass).toMatchObject({
      verdict: 'bypass',
      decision: 'allow',
      how: 'ref `refs/heads/main`',
    });
    expect(bypass?.classes).toContain('networkEgress');
  });

  it('G14c: a fake wrapper whose operand the table misreads hides the command: needs the sandbox, disguise named', () => {
    // `sudo` redefined to take one operand before the command: `sudo bash -c '…'` runs `-c`.
    const gapped = extended({ wrappers: { sudo: { kind: 'exec', positionals: 1 } } });
    const rule = proofOf(
      prove([{ id: 'no-delete', action: 'fileDelete', decision: 'deny' }], { classifier: gapped })
        .rules,
      'no-delete',
    );
    expect(rule.verdict).toBe('sandbox');
    expect(rule.findings.map((f) => f.command)).toContain("sudo bash -c 'rm -f notes.txt'");
  });

  it('G14c: a prompt rule holds when every disguise at least asks', () => {
    const proof = prove([{ id: 'ask-push', action: 'gitPush', decision: 'prompt' }]);
    const rule = proofOf(proof.rules, 'ask-push');
    expect(rule).toMatchObject({ verdict: 'holds', decision: 'prompt', target: 'class:gitPush' });
    expect(rule.plain).toBe('git push origin main');
  });

  it('E11: a gitPush deny on refs [main] holds against every spelling of the ref', () => {
    const proof = prove([
      { id: 'push-ok', action: 'gitPush', decision: 'allow' },
      { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    ]);
    const rule = proofOf(proof.rules, 'protect-main');
    expect(rule.verdict).toBe('holds');
    expect(proof.rules.map((r) => r.rule)).toEqual(['protect-main']);
  });

  it('G8: dead rules are reported with the lint finding that kills them; allows only when dead', () => {
    const proof = prove(
      [
        { id: 'push-ok', action: 'gitPush', decision: 'allow' },
        { id: 'no-push', action: 'gitPush', decision: 'deny' },
        { id: 'old', action: 'fileDelete', decision: 'deny', expiresAt: '2020-01-01T00:00:00Z' },
      ],
      {
        extra: {
          modes: {
            review: { preset: [{ id: 'preset-push', action: 'gitPush', decision: 'prompt' }] },
          },
        },
      },
    );
    expect(proofOf(proof.rules, 'push-ok')).toMatchObject({ verdict: 'dead', tried: 0 });
    expect(proofOf(proof.rules, 'push-ok').lint[0]?.code).toBe('contradictory');
    expect(proofOf(proof.rules, 'old').lint[0]?.code).toBe('expired');
    expect(proofOf(proof.rules, 'preset-push')).toMatchObject({
      verdict: 'dead',
      scope: 'mode:review',
    });
    expect(proofOf(proof.rules, 'no-push').verdict).toBe('holds');
    expect(proof.counts.dead).toBe(3);
  });

  it('G7: a rule on processSpawn, or a cap, is not provable from a spelling', () => {
    const proof = prove([
      { id: 'no-spawn', action: 'processSpawn', decision: 'prompt' },
      { id: 'many', action: 'fileDelete', decision: 'prompt', when: { maxCount: 5 } },
    ]);
    expect(proofOf(proof.rules, 'no-spawn').verdict).toBe('unproved');
    expect(proofOf(proof.rules, 'many').verdict).toBe('unproved');
  });

  it('G3: for random policies every reported disguise decides as reported and verdicts agree', () => {
    fc.assert(
      fc.property(policyArb, (doc) => {
        const policy = compiled(doc);
        const proof = provePolicy({
          policy,
          classifier: DEFAULT_TABLE,
          at: AT,
          sandbox: NO_SANDBOX,
          limit: 40,
        });
        for (const rule of proof.rules) {
          expect(rule.tried).toBeLessThanOrEqual(40);
          if (rule.verdict === 'holds') expect(rule.findings).toEqual([]);
          if (rule.verdict === 'dead' || rule.verdict === 'unproved') expect(rule.tried).toBe(0);
          const verdicts = new Set(rule.findings.map((f) => f.verdict));
          expect(rule.verdict === 'bypassable').toBe(verdicts.has('bypass'));
          if (rule.verdict === 'sandbox') expect(verdicts.has('bypass')).toBe(false);
          expect(rule.sandboxCovers === null).toBe(!verdicts.has('sandbox'));
          for (const finding of rule.findings) {
            const scope = rule.scope;
            const explained = explainDecision({
              policy,
              request: {
                workspace: 'acme',
                agent: scope.startsWith('agent:') ? scope.slice(6) : 'prove',
                ...(scope.startsWith('space:') ? { space: scope.slice(6) } : {}),
                ...(scope.startsWith('mode:') ? { mode: scope.slice(5) } : {}),
                worktree: '/srv/worktree',
                command: finding.command,
              },
              at: AT,
              approverConnected: false,
            });
            expect(explained.result.rule).toBe(finding.rule);
            expect(STRICT[finding.decision]).toBeLessThan(STRICT[rule.decision]);
            if (finding.verdict === 'bypass') expect(finding.decision).toBe('allow');
            if (finding.verdict === 'weakened') expect(finding.decision).toBe('prompt');
            if (finding.verdict === 'sandbox')
              expect(finding.classes.every((c) => c === 'processSpawn')).toBe(true);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('warden policy prove: option spellings and the other wrapper kinds', () => {
  const commandsOf = (words: string[], table = DEFAULT_TABLE, unreadable = false) =>
    disguises({ words, slots: [] }, table, MAX_DISGUISES, { unreadable }).map((d) => d.command);

  it("G14c: options are spelled the ways the program's own option table is read, for every program it has one for", () => {
    const push = commandsOf(['git', 'push', '--force', 'origin', 'main']);
    expect(push).toContain('git push -f origin main');
    expect(push).toContain('git push --force -- origin main');
    expect(push).toContain('git --no-pager push --force origin main');
    const curl = commandsOf(['curl', '-d', 'x', 'https://example.com/']);
    for (const spelling of ['-dx', '--data=x', '--data x'])
      expect(curl).toContain(`curl ${spelling} https://example.com/`);
    expect(curl).toContain('curl -d x -- https://example.com/');
    const tar = commandsOf(['tar', '-xzf', 'a.tgz', '-C', '/tmp']);
    expect(tar).toContain('tar -x -z -f a.tgz -C /tmp');
    expect(tar).toContain('tar -x -z --file a.tgz -C /tmp');
    expect(tar).toContain('tar -xzf a.tgz -C/tmp');
    // `-z` is gzip, not `--zstd`: no long form the table does not pair with it.
    expect(tar.some((c) => c.includes('--zstd') || c.includes('--xz'))).toBe(false);
    expect(commandsOf(['ssh', '-p', '22', 'host'])).toContain('ssh -p22 host');
    expect(commandsOf(['rm', '--recursive', 'build'])).toContain('rm --r build');
    // npm has no option table in the classifier: its options are not respelled.
    const npm = disguises({ words: ['npm', 'install', '-g', 'x'], slots: [] }, DEFAULT_TABLE);
    expect(npm.filter((d) => d.kind === 'option')).toEqual([]);
  });

  it('G14c: a deny on `git push --force` beside a gitPush prompt is never allowed: respelled options ask', () => {
    const rule = proofOf(
      prove([
        { id: 'no-force', command: 'git push --force', decision: 'deny' },
        { id: 'ask-push', action: 'gitPush', decision: 'prompt' },
      ]).rules,
      'no-force',
    );
    expect(rule.verdict).toBe('weakened');
    for (const finding of rule.findings) expect(finding.decision).toBe('prompt');
    expect(rule.findings.map((f) => f.command)).toContain('git push -f');
  });

  it('G14c: `parallel` runs the command: its disguises are generated and a fileDelete deny holds', () => {
    const commands = commandsOf(['rm', '-f', 'notes.txt']);
    for (const expected of [
      'parallel rm -f notes.txt ::: 1',
      'echo 1 | parallel rm -f notes.txt',
      "parallel 'rm -f notes.txt' ::: 1",
    ])
      expect(commands).toContain(expected);
    const rule = proofOf(
      prove([{ id: 'no-delete', action: 'fileDelete', decision: 'deny' }]).rules,
      'no-delete',
    );
    expect(rule.verdict).toBe('holds');
  });

  it('G14c: `parallel` taken out of the table: its disguises are seen only as processes, named', () => {
    const rule = proofOf(
      prove([{ id: 'no-delete', action: 'fileDelete', decision: 'deny' }], {
        classifier: without(DEFAULT_TABLE, 'parallel'),
        knowledge: DEFAULT_TABLE,
      }).rules,
      'no-delete',
    );
    expect(rule.verdict).toBe('sandbox');
    const named = rule.findings.map((f) => f.command);
    expect(named).toContain('parallel rm -f notes.txt ::: 1');
    for (const command of named) expect(command).toContain('parallel');
  });

  it('G14c: commands fed on standard input (`at`, `batch`, a shell) are tried when asked for, and asked', () => {
    expect(commandsOf(['rm', '-f', 'notes.txt']).some((c) => c.includes('| at'))).toBe(false);
    const commands = commandsOf(['rm', '-f', 'notes.txt'], DEFAULT_TABLE, true);
    for (const expected of [
      "echo 'rm -f notes.txt' | at",
      "batch <<< 'rm -f notes.txt'",
      "at -f /dev/stdin <<< 'rm -f notes.txt'",
      "echo 'rm -f notes.txt' | ash",
    ])
      expect(commands).toContain(expected);
    const asked = prove([{ id: 'ask-delete', action: 'fileDelete', decision: 'prompt' }], {
      unreadable: true,
    });
    expect(proofOf(asked.rules, 'ask-delete').verdict).toBe('holds');
    // With a deny on the schedulers as well, what remains only asks: never allowed.
    const denied = proofOf(
      prove(
        [
          { id: 'no-delete', action: 'fileDelete', decision: 'deny' },
          { id: 'no-at', command: 'at', decision: 'deny' },
          { id: 'no-batch', command: 'batch', decision: 'deny' },
        ],
        { unreadable: true },
      ).rules,
      'no-delete',
    );
    expect(denied.verdict).toBe('weakened');
    for (const finding of denied.findings) {
      expect(finding).toMatchObject({ verdict: 'weakened', decision: 'prompt', unreadable: true });
    }
  });

  it('G14c: `at` taken out of the table: a command fed to it is seen only as processes, named', () => {
    const rule = proofOf(
      prove([{ id: 'ask-delete', action: 'fileDelete', decision: 'prompt' }], {
        classifier: without(DEFAULT_TABLE, 'at'),
        knowledge: DEFAULT_TABLE,
        unreadable: true,
      }).rules,
      'ask-delete',
    );
    expect(rule.verdict).toBe('sandbox');
    expect(rule.findings.map((f) => f.command)).toContain("echo 'rm -f notes.txt' | at");
  });

  it('G14c: a `remote` wrapper added to the table is tried: a deny on it holds, without it only processes', () => {
    const withRsh = extended({ wrappers: { rsh: { kind: 'remote', values: ['-l'] } } });
    const commands = commandsOf(['rm', '-f', 'notes.txt'], withRsh, true);
    expect(commands).toContain('rsh localhost rm -f notes.txt');
    expect(commands).toContain("rsh -l 1 localhost 'rm -f notes.txt'");
    expect(commandsOf(['rm', '-f', 'notes.txt'], DEFAULT_TABLE, true).join('\n')).not.toMatch(
      /rsh/,
    );
    const rules = [
      { id: 'no-delete', action: 'fileDelete', decision: 'prompt' },
      { id: 'no-rsh', command: 'rsh', decision: 'deny' },
    ];
    const held = prove(rules, { classifier: withRsh, unreadable: true });
    expect(proofOf(held.rules, 'no-delete').verdict).toBe('holds');
    const gapped = proofOf(
      prove([rules[0]], { classifier: DEFAULT_TABLE, knowledge: withRsh, unreadable: true }).rules,
      'no-delete',
    );
    expect(gapped.verdict).toBe('sandbox');
    expect(gapped.findings.map((f) => f.command)).toContain('rsh localhost rm -f notes.txt');
  });

  it('G14c: for arbitrary targets generation stays within the cap and every disguise is a bounded string', () => {
    const word = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (words, unreadable) => {
          const list = disguises({ words, slots: [] }, DEFAULT_TABLE, MAX_DISGUISES, {
            unreadable,
          });
          expect(list.length).toBeLessThanOrEqual(MAX_DISGUISES);
          const bound = 20 * render(words).length + 200;
          for (const d of list) {
            expect(typeof d.command).toBe('string');
            expect(d.command.length).toBeLessThanOrEqual(bound);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
