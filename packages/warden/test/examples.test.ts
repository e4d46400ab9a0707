// The walkthrough's library example, examples/gate-a-tool.mjs: it must work as
// shown, on the embedded store in a data folder of its own.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, warden } from './helpers.js';
import { tempDir } from './support/backends.js';

describe('the quickstart example', () => {
  it('gates a tool of its own: one push allowed, main denied, a prompt denied with nobody to ask (G22)', () => {
    const data = tempDir('warden-example-');
    const ran = spawnSync(process.execPath, [join(EXAMPLES, 'gate-a-tool.mjs'), data], {
      encoding: 'utf8',
      env: { ...process.env, WARDEN_LOG_LEVEL: 'silent' },
    });
    expect(ran.status).toBe(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('ok      pushed feature/login');
    expect(lines[1]).toMatch(
      /^Denied {2}denied: `gitPush`: ref `main` matches refs \[main\] of rule `protect-main`/,
    );
    expect(lines[2]).toMatch(
      /^Denied {2}needs approval: .*no approver is connected, so it is denied \(fail-closed\)$/,
    );
    // …and what it did is in a log that verifies.
    const verified = warden(['audit', 'verify', '--data', data, '--json']);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
  });
});
