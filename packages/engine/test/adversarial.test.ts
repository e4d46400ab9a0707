// Hostile input: names that collide with object internals, deep nesting,
// long lines, control characters. The engine answers or refuses; it never
// crashes and never allows by accident.

import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import {
  formatPath,
  validatePolicy,
  validateRequest,
  DEFAULT_TABLE,
  analyzeCommand,
  checkRequestAgainstPolicy,
} from '../src/index.js';

const decideFor = (policyDoc: unknown, requestDoc: unknown) => decideDocs(policyDoc, requestDoc);

describe('hostile input', () => {
  it('treats program names like `constructor` and `__proto__` as plain names', () => {
    for (const name of ['constructor', '__proto__', 'valueOf', 'toString', 'hasOwnProperty']) {
      const analysis = analyzeCommand(`${name} push origin main`, DEFAULT_TABLE, null);
      expect(analysis.units[0]?.kind, name).toBe('command');
    }
  });

  it('does not accept a mode named after an object internal that the policy does not define (E3)', () => {
    const policy = validatePolicy(
      { version: 1, workspace: 'acme', modes: { review: {} } },
      'workspace',
    );
    const request = validateRequest({
      workspace: 'acme',
      agent: 'a',
      mode: 'toString',
      actions: ['gitPush'],
    });
    expect(policy.ok && request.ok).toBe(true);
    if (policy.ok && request.ok)
      expect(
        checkRequestAgainstPolicy(request.value, policy.value).map((i) => formatPath(i.path)),
      ).toEqual(['mode']);
  });

  it('keeps a space named `__proto__` as a space', () => {
    const doc = JSON.parse(
      '{"version":1,"workspace":"acme","spaces":{"__proto__":{"autonomy":"proposeOnly"}}}',
    ) as unknown;
    const result = decideFor(doc, {
      workspace: 'acme',
      agent: 'a',
      space: '__proto__',
      actions: ['processSpawn'],
    });
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('autonomy:proposeOnly');
  });

  it('reads a deeply nested command as unparseable rather than overflowing the stack', () => {
    const deep = `${'('.repeat(5000)}git push${')'.repeat(5000)}`;
    const analysis = analyzeCommand(deep, DEFAULT_TABLE, null);
    expect(analysis.units).toHaveLength(1);
    expect(analysis.units[0]?.kind).toBe('raw');
    const subst = `echo ${'$('.repeat(3000)}x${')'.repeat(3000)}`;
    expect(analyzeCommand(subst, DEFAULT_TABLE, null).units[0]?.kind).toBe('raw');
  });

  it('prompts for a deeply nested command even with no rules at all (G14b)', () => {
    const result = decideFor(
      { version: 1, workspace: 'acme' },
      { workspace: 'acme', agent: 'a', command: `${'('.repeat(500)}rm x${')'.repeat(500)}` },
    );
    expect(result.decision).not.toBe('allow');
  });

  it('reads a long command line, and one past the limit on simple commands is unparseable', () => {
    const long = Array.from({ length: 250 }, (_, i) => `rm f${i}`).join(' && ');
    const analysis = analyzeCommand(long, DEFAULT_TABLE, null);
    expect(analysis.units).toHaveLength(250);
    const longer = Array.from({ length: 2000 }, (_, i) => `rm f${i}`).join(' && ');
    const units = analyzeCommand(longer, DEFAULT_TABLE, null).units;
    expect(units.map((u) => u.kind)).toEqual(['raw']);
    expect(units[0]?.kind === 'raw' && units[0].reason).toBe(
      'the command has more than 256 simple commands',
    );
  });

  it('reads a command holding NUL or other control characters as unparseable (G14b)', () => {
    for (const command of ['git\u0000 push origin main', 'r\u0000m -rf x', 'rm\u001b -rf x']) {
      const analysis = analyzeCommand(command, DEFAULT_TABLE, null);
      expect(
        analysis.units.map((u) => u.kind),
        JSON.stringify(command),
      ).toEqual(['raw']);
    }
    const result = decideFor(
      {
        version: 1,
        workspace: 'acme',
        rules: [
          { command: 'git push', decision: 'allow' },
          { action: 'processSpawn', decision: 'allow' },
        ],
      },
      { workspace: 'acme', agent: 'a', command: 'git\u0000 push origin main' },
    );
    expect(result.decision).toBe('prompt');
    expect(result.rule).toBe('unparseable');
  });

  it('refuses a smuggled path: an allowed path beside a forbidden one is not allowed (G16)', () => {
    const result = decideFor(
      {
        version: 1,
        workspace: 'acme',
        rules: [{ action: 'fileDelete', decision: 'allow', when: { paths: ['build/**'] } }],
      },
      { workspace: 'acme', agent: 'a', command: 'rm build/a.o ../secrets' },
    );
    expect(result.decision).toBe('prompt');
    expect(result.facets.find((f) => f.facet === 'fileDelete')?.rule).toBe('default:fileDelete');
  });
});
