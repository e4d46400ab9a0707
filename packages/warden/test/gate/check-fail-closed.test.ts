// `warden check` fails closed (contracts §4): when the engine cannot decide a
// valid request — it overflows the stack on a deeply nested command — the
// answer is a hard deny with the reason and exit 3, never exit 1 (which says
// the input was wrong) and never a stack trace. The overflow is real: the
// binary runs with a smaller stack than usual, so the engine's nesting runs
// out of it on a command well within the parser's own limits.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, files } from '../helpers.js';

const POLICY = { version: 1, workspace: 'acme', rules: [] };

function nested(depth: number): string {
  let command = 'ls';
  for (let i = 0; i < depth; i++) command = `$(${command})`;
  return `echo ${command}`;
}

describe('warden check on an engine that fails', () => {
  it('contracts §4: a request the engine overflows on is a deny with the reason, exit 3 (not 1), no stack trace', () => {
    const paths = files({
      'policy.json': POLICY,
      'request.json': { workspace: 'acme', agent: 'coder-1', command: nested(60) },
    });
    const reasons: string[] = [];
    for (const stack of [66, 70, 75, 80, 90]) {
      for (const json of [false, true]) {
        const ran = spawnSync(
          process.execPath,
          [
            `--stack-size=${stack}`,
            BIN,
            'check',
            '--policy',
            paths['policy.json'] as string,
            '--request',
            paths['request.json'] as string,
            ...(json ? ['--json'] : []),
          ],
          { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
        );
        // Too small a stack may not even load the program; that is not the engine.
        if (ran.stdout === '') continue;
        expect(ran.stderr, `stack ${stack}`).not.toMatch(/RangeError|\n\s+at /);
        expect(ran.status, `stack ${stack}: ${ran.stdout.slice(0, 200)}`).toBe(3);
        const reason = json
          ? (JSON.parse(ran.stdout) as { outcome: string; reason: string }).reason
          : ran.stdout;
        if (json) expect(JSON.parse(ran.stdout)).toMatchObject({ outcome: 'deny' });
        else expect(ran.stdout).toMatch(/^deny: /);
        reasons.push(reason);
      }
    }
    // At least one stack size ran the program and overflowed in the engine.
    expect(reasons.some((r) => r.includes('the engine could not decide this request'))).toBe(true);
  }, 120_000);
});
