// Text that is not Unicode is refused where a policy file is read, as every
// JSON body the server reads is: bytes that are not UTF-8 are not read as
// U+FFFD, and a YAML or JSON escape that leaves a lone surrogate (`"\ud800"`)
// is named by its path. A managed freeze's reason, a rule's note, a
// classifier table and a request file all pass the same two places.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPolicyFile, loadRequest } from '../../src/policy/load.js';
import { BIN, files, warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';

const noStdin = () => '';

describe('a policy file whose text is not Unicode is refused, with where', () => {
  it('a managed freeze whose reason holds a lone surrogate', () => {
    const { 'managed.yaml': file } = files({
      'managed.yaml': 'version: 1\nfreeze:\n  - { workspace: acme, reason: "stop \\ud800 now" }\n',
    });
    const loaded = loadPolicyFile(file as string, 'managed', noStdin);
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? [] : loaded.issues.map((i) => [i.path, i.file])).toEqual([
      ['freeze[0].reason', file],
    ]);
    const ran = warden(['policy', 'lint', file as string, '--json']);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('freeze[0].reason');
    expect(ran.stdout).toContain('lone surrogate');
    expect(ran.stderr).not.toContain('    at ');
  });

  it('a rule’s note in JSON, and a request file', () => {
    const { 'policy.json': policy, 'request.json': request } = files({
      'policy.json':
        '{"version":1,"workspace":"acme","rules":[{"id":"x","action":"gitPush","decision":"deny","note":"a \\udc00"}]}',
      'request.json': '{"workspace":"acme","agent":"a\\ud834","command":"ls"}',
    });
    const loaded = loadPolicyFile(policy as string, 'workspace', noStdin);
    expect(loaded.ok ? [] : loaded.issues.map((i) => i.path)).toEqual(['rules[0].note']);
    const asked = loadRequest(request as string, noStdin);
    expect(asked.ok ? [] : asked.issues.map((i) => i.path)).toEqual(['agent']);
  });

  it('bytes that are not UTF-8 are not read as U+FFFD', () => {
    const file = join(tempDir('warden-bytes-'), 'policy.yaml');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(
          'version: 1\nworkspace: acme\nrules:\n  - { id: x, action: gitPush, decision: deny, note: "',
        ),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('" }\n'),
      ]),
    );
    const loaded = loadPolicyFile(file, 'workspace', noStdin);
    expect(loaded.ok ? [] : loaded.issues.map((i) => i.message)).toEqual([
      `\`${file}\` is not UTF-8 text`,
    ]);
    const ran = warden(['policy', 'lint', file]);
    expect(ran.code).toBe(1);
    expect(`${ran.stdout}${ran.stderr}`).toContain('is not UTF-8 text');
  });

  it('standard input that is not UTF-8 is refused too: by `policy lint -`, and by a hook, which denies the call', () => {
    const bytes = Buffer.concat([
      Buffer.from('version: 1\nworkspace: acme\nrules: []\n# '),
      Buffer.from([0xc0, 0xaf]),
    ]);
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], {
        input: bytes,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', WARDEN_URL: '', WARDEN_TOKEN: '' },
      });
    const lint = run(['policy', 'lint', '-']);
    expect(lint.status).toBe(1);
    expect(`${lint.stdout}${lint.stderr}`).toContain('standard input is not UTF-8 text');
    const { 'policy.yaml': policy } = files({ 'policy.yaml': 'version: 1\nworkspace: acme\n' });
    const call = (command: Buffer) =>
      Buffer.concat([
        Buffer.from(
          '{"hook_event_name":"PreToolUse","session_id":"s","tool_use_id":"t","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"echo ',
        ),
        command,
        Buffer.from('"}}'),
      ]);
    const hooked = spawnSync(
      process.execPath,
      [BIN, 'hook', 'claude-code', '--policy', policy as string],
      {
        input: call(Buffer.from([0xc0, 0xaf])),
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', WARDEN_URL: '', WARDEN_TOKEN: '' },
      },
    );
    expect(hooked.status).toBe(0);
    const answer = JSON.parse(hooked.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain(
      'the input is not UTF-8 text',
    );
  });

  it('property: a lone surrogate anywhere in a note or a freeze reason never loads; its well-formed neighbours do', () => {
    const dir = tempDir('warden-surrogates-');
    const text = fc
      .string({ unit: 'grapheme-ascii', maxLength: 20 })
      .map((s) => s.replace(/["\\]/g, ''));
    fc.assert(
      fc.property(
        text,
        text,
        fc.integer({ min: 0xd800, max: 0xdfff }),
        fc.boolean(),
        (before, after, unit, managed) => {
          const escape = `\\u${unit.toString(16)}`;
          const doc = (middle: string) =>
            managed
              ? `version: 1\nfreeze:\n  - { workspace: acme, reason: "r${before}${middle}${after}" }\n`
              : `version: 1\nworkspace: acme\nrules:\n  - { id: x, action: gitPush, decision: deny, note: "n${before}${middle}${after}" }\n`;
          const file = join(dir, 'p.yaml');
          writeFileSync(file, doc(escape));
          const bad = loadPolicyFile(file, managed ? 'managed' : 'workspace', noStdin);
          expect(bad.ok).toBe(false);
          expect(bad.ok ? '' : bad.issues[0]?.path).toBe(
            managed ? 'freeze[0].reason' : 'rules[0].note',
          );
          writeFileSync(file, doc(''));
          expect(loadPolicyFile(file, managed ? 'managed' : 'workspace', noStdin).ok).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
