// `warden serve` compiles its workspaces' policies once, in the background,
// a moment after it listens: the first decision and the first console visit
// then answer as fast as later ones. A server stopped before that moment does
// none of it, and a policy that cannot be read is left to the request.

import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/serve.js';
import { Warden } from '../../src/warden.js';
import { tempDir } from '../support/backends.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanups.splice(0)) await done();
});

/** A data folder holding the policy of `acme`, and a server on it whose log lines are kept. */
async function serveWithPolicy(): Promise<{ lines: { msg: string; workspaces?: string[] }[] }> {
  const data = tempDir('warden-warmup-');
  const warden = await Warden.open({ data, env: { WARDEN_LOG_LEVEL: 'silent' } });
  await warden.store.policies.put('acme', {
    document: { version: 1, workspace: 'acme', rules: [] },
    author: 'ops',
    at: Date.now(),
  });
  await warden.close();
  const loaded = loadConfig({ data, port: '0' }, {});
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  const lines: { msg: string; workspaces?: string[] }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as { msg: string });
      done();
    },
  });
  const running = await startServer(loaded.config, {
    version: '0.0.0-test',
    env: {},
    logger: pino({ level: 'debug' }, sink),
  });
  cleanups.push(() => running.stop());
  return { lines };
}

describe('`warden serve` warms its policies up after it listens', () => {
  it('compiles each workspace’s policy and permissions view once, about a second after listening', async () => {
    const { lines } = await serveWithPolicy();
    expect(lines.some((l) => l.msg === 'policies warmed up')).toBe(false);
    await expect
      .poll(() => lines.find((l) => l.msg === 'policies warmed up')?.workspaces, {
        timeout: 10_000,
      })
      .toEqual(['acme']);
  });

  it('a server stopped before then does none of it', async () => {
    const { lines } = await serveWithPolicy();
    await cleanups.pop()?.();
    await new Promise((done) => setTimeout(done, 1500));
    expect(lines.some((l) => l.msg === 'policies warmed up')).toBe(false);
  });
});
