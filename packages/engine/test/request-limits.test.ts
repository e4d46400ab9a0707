// A request too large to decide quickly is refused where it comes in, and one
// just under the limits is decided in linear time: a command longer than the
// shell reader takes is unparseable and still meets every restrictive rule
// and the mode's net word by word (E14, E23, E24), whatever its size.

import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import { MAX_COMMAND_LENGTH, REQUEST_LIMITS, validateRequest } from '../src/index.js';

const base = { workspace: 'acme', agent: 'a' };

describe('request size limits', () => {
  it('refuses a command longer than the request limit, saying so (E31)', () => {
    const result = validateRequest({
      ...base,
      command: 'echo '.padEnd(REQUEST_LIMITS.commandLength + 1, 'a'),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: 'too_big',
        path: ['command'],
        message: expect.stringContaining('longer than 262,144 characters'),
      }),
    ]);
  });

  it('takes a command at the limit', () => {
    const command = 'echo '.padEnd(REQUEST_LIMITS.commandLength, 'a');
    expect(validateRequest({ ...base, command }).ok).toBe(true);
  });

  it.each(['paths', 'refs', 'hosts'] as const)(
    'refuses more %s than a request may name, and overlong values (E31)',
    (key) => {
      const value = key === 'hosts' ? 'example.org' : key === 'refs' ? 'main' : 'a.txt';
      const many = Array.from({ length: REQUEST_LIMITS.listEntries + 1 }, () => value);
      const tooMany = validateRequest({ ...base, actions: ['gitPush'], args: { [key]: many } });
      expect(tooMany.ok).toBe(false);
      if (!tooMany.ok) expect(tooMany.issues[0]?.message).toContain('1,024');
      const atLimit = validateRequest({
        ...base,
        actions: ['gitPush'],
        args: { [key]: many.slice(1) },
      });
      expect(atLimit.ok).toBe(true);
      const long = validateRequest({
        ...base,
        actions: ['gitPush'],
        args: { [key]: ['x'.repeat(REQUEST_LIMITS.valueLength + 1)] },
      });
      expect(long.ok).toBe(false);
    },
  );
});

describe('a command past the reader’s length and before the request limit', () => {
  const policy = {
    version: 1,
    workspace: 'acme',
    modes: { review: { commandNet: ['git push --force'] } },
    rules: [
      { id: 'no-rm', command: 'rm', decision: 'deny' },
      { id: 'npm-ok', command: 'npm test', decision: 'allow' },
    ],
  };
  // Many repeats of one unit, past the reader's length: the line is one raw facet.
  const long = (unit: string): string =>
    Array.from({ length: Math.ceil((MAX_COMMAND_LENGTH * 2) / unit.length) }, () => unit).join(
      ' && ',
    );

  it('is unparseable with the limit as its reason, never allowed (G14b, E24)', () => {
    const result = decideDocs(policy, { ...base, command: long('npm test') });
    expect(result.decision).toBe('prompt');
    expect(result.rule).toBe('unparseable');
    expect(result.reason).toContain('longer than 65,536 characters');
  });

  it('still meets a restrictive command rule by its words (E23)', () => {
    const result = decideDocs(policy, { ...base, command: `${long('npm test')} && rm -rf /` });
    expect(result.decision).not.toBe('allow');
    expect(result.facets.some((f) => f.rule === 'no-rm')).toBe(true);
  });

  it('still meets the mode’s net, whose deny is final (E14)', () => {
    const result = decideDocs(policy, {
      ...base,
      mode: 'review',
      command: `${long('npm test')}; git push --force origin main`,
    });
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('modeNet:review');
  });

  it('resolves many unparseable simple commands against many command rules without copying the tokens per facet', () => {
    const rules = Array.from({ length: 200 }, (_, i) => ({
      id: `r${i}`,
      command: `tool${i} run`,
      decision: 'prompt',
    }));
    const command = Array.from({ length: 100 }, (_, i) => `tool${i} $(x${i}) run`).join('; ');
    const result = decideDocs({ version: 1, workspace: 'acme', rules }, { ...base, command });
    expect(result.decision).toBe('prompt');
    expect(result.facets.filter((f) => f.facet.startsWith('command:')).length).toBe(100);
  });
});
