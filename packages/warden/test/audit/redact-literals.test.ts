// Layer 3 of the redactor: known credential values (collected from an AgentSettings.json by
// `credentialLiterals`) are replaced wherever they occur, however they are encoded.

import { describe, expect, it } from 'vitest';
import { Redactor, credentialLiterals } from '../../src/audit/redact.js';

const text = (input: string, r: Redactor): string => r.redactText(input).text;

describe('layer 3: literal credential values', () => {
  it('replaces every occurrence, anywhere, in keys too', () => {
    const r = new Redactor({ literals: ['correct-horse-battery'] });
    const { value, paths } = r.redact({
      note: 'mail login with correct-horse-battery failed; retrying correct-horse-battery',
      'correct-horse-battery': 1,
    });
    expect(value).toEqual({
      note: 'mail login with [REDACTED:credential] failed; retrying [REDACTED:credential]',
      '[REDACTED:credential]': 1,
    });
    expect(paths).toEqual(['note', '["[REDACTED:credential]"]']);
  });

  it('the longest literal wins, and overlapping occurrences merge into one marker', () => {
    const r = new Redactor({ literals: ['abcdef', 'abcdefghij', 'ghijklmn'] });
    expect(text('x abcdefghij y', r)).toBe('x [REDACTED:credential] y');
    expect(text('x abcdefghijklmn y', r)).toBe('x [REDACTED:credential] y');
    expect(text('x abcdefXYZ y', r)).toBe('x [REDACTED:credential]XYZ y');
  });

  it('literals with regex characters match exactly', () => {
    const r = new Redactor({ literals: ['p4$$.w*rd(1)', 'a+b?c[d]^'] });
    expect(text('use p4$$.w*rd(1) or a+b?c[d]^ not p4$$Xw*rd(1)', r)).toBe(
      'use [REDACTED:credential] or [REDACTED:credential] not p4$$Xw*rd(1)',
    );
  });

  it('ignores literals shorter than the minimum (default 6) so `true` or `1234` never redact everything', () => {
    const r = new Redactor({ literals: ['true', '1234', 'abcde', 'abcdef'] });
    expect(text('true 1234 abcde abcdef', r)).toBe('true 1234 abcde [REDACTED:credential]');
    const short = new Redactor({ literals: ['1234'], minLiteralLength: 4 });
    expect(text('pin 1234', short)).toBe('pin [REDACTED:credential]');
  });

  it('also finds a literal percent-encoded in a URL and escaped in JSON text', () => {
    const r = new Redactor({ literals: ['p@ss/w"rd'] });
    expect(text('https://x.test/?q=p%40ss%2Fw%22rd', r)).toBe(
      'https://x.test/?q=[REDACTED:credential]',
    );
    expect(text(JSON.stringify({ note: 'p@ss/w"rd' }), r)).toBe('{"note":"[REDACTED:credential]"}');
  });

  it('ignores literals that a marker contains or that contain one', () => {
    const r = new Redactor({ literals: ['REDACTED', 'credential', 'x[REDACTED]y'] });
    expect(text('REDACTED credential', r)).toBe('REDACTED credential');
  });

  it('withLiterals makes a new redactor and leaves the old one as it was', () => {
    const base = new Redactor({ literals: ['first-secret'] });
    const more = base.withLiterals(['second-secret']);
    expect(text('first-secret second-secret', base)).toBe('[REDACTED:credential] second-secret');
    expect(text('first-secret second-secret', more)).toBe(
      '[REDACTED:credential] [REDACTED:credential]',
    );
  });

  it('finds any of hundreds of literals in one indexed scan', () => {
    const literals = Array.from({ length: 500 }, (_, i) => `literal-${i}-${'q'.repeat(i % 7)}`);
    const r = new Redactor({ literals });
    expect(text(`a ${literals[499] as string} b ${literals[3] as string}`, r)).toBe(
      'a [REDACTED:credential] b [REDACTED:credential]',
    );
  });
});

describe('credentialLiterals collects the secrets of an AgentSettings.json', () => {
  const settings = {
    name: 'mailer-agent',
    tools: {
      mail: { host: 'smtp.example.com', user: 'bot@example.com', password: 'mail-pa55' },
      db: { connectionString: 'postgres://app:db%40pa55@db.internal/app' },
      legacy: { dsn: 'Server=db;User Id=sa;Password=mssql-pw1;' },
      openai: { apiKey: 'sk-test-not-a-real-key', model: 'gpt-x', maxTokens: 4096 },
      vendor: {
        credentials: { username: 'vendor-user', secret: 'vendor-secret', region: 'eu-west-1' },
      },
      vault: { secrets: { DEPLOY: 'deploy-secret', port: 8200 } },
      webhook: { url: 'https://user:hook-pa55@hooks.example.com/x' },
      short: { password: '1234', token: true },
      agentInspector: { observableAgents: ['coder-1'], maxFileKb: 64 },
    },
  };

  it('values under secret keys, inside secret containers, and passwords inside connection strings', () => {
    expect(credentialLiterals(settings).sort()).toEqual(
      [
        'mail-pa55',
        'postgres://app:db%40pa55@db.internal/app',
        'db%40pa55',
        'db@pa55',
        'Server=db;User Id=sa;Password=mssql-pw1;',
        'mssql-pw1',
        'sk-test-not-a-real-key',
        'vendor-secret',
        'deploy-secret',
        'hook-pa55',
      ].sort(),
    );
  });

  it('leaves out identifying fields, short values and non-secrets, and answers longest first', () => {
    const found = credentialLiterals(settings);
    for (const absent of ['vendor-user', 'eu-west-1', 'smtp.example.com', '1234', 'mailer-agent']) {
      expect(found).not.toContain(absent);
    }
    expect(found.map((s) => s.length)).toEqual(
      [...found.map((s) => s.length)].sort((a, b) => b - a),
    );
    expect(credentialLiterals(settings, 12)).not.toContain('mail-pa55');
  });

  it('feeds a redactor that then hides those values in tool arguments', () => {
    const r = new Redactor({ literals: credentialLiterals(settings) });
    const { value } = r.redact({ body: 'the vendor secret is vendor-secret and db@pa55' });
    expect(value).toEqual({
      body: 'the vendor secret is [REDACTED:credential] and [REDACTED:credential]',
    });
  });

  it('survives cycles and odd documents', () => {
    const cyclic: Record<string, unknown> = { password: 'cycle-pass' };
    cyclic.self = cyclic;
    expect(credentialLiterals(cyclic)).toEqual(['cycle-pass']);
    expect(credentialLiterals(null)).toEqual([]);
    expect(credentialLiterals('not settings')).toEqual([]);
  });
});
