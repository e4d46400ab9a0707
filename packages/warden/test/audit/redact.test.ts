// The redactor keeps secrets out of the audit log and the inspector's answers: here layer 2's
// well-known token formats and PEM blocks, and properties of all three layers together
// (idempotent, no literal survives, JSON-safe). Keys, text, literals and the copy have their
// own redact-*.test.ts files.
// Token-shaped fixtures are assembled at run time so that no scanner mistakes this file for a leak.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RedactionKind } from '../../src/audit/redact.js';
import { REDACTED, REDACTION_KINDS, Redactor, marker } from '../../src/audit/redact.js';

/** A token-shaped string: `prefix` and `length` characters from a fixed mixed alphabet. */
function fake(prefix: string, length: number, alphabet = 'A1b2C3d4E5f6G7h8'): string {
  return prefix + alphabet.repeat(Math.ceil(length / alphabet.length)).slice(0, length);
}

const tokens = {
  github: fake('ghp_', 36),
  githubOauth: fake('gho_', 36),
  githubFineGrained: fake('github_pat_', 60),
  gitlab: fake('glpat-', 20),
  awsId: fake('AKIA', 16, 'ABCDEFGH23456789'),
  awsSession: fake('ASIA', 16, 'QRSTUVWX23456789'),
  slackBot: fake('xoxb-', 40, '1234-abcdEFGH'),
  slackUser: fake('xoxp-', 40, '5678-ijklMNOP'),
  stripeLive: fake('sk_live_', 24),
  stripeRestricted: fake('rk_live_', 24),
  stripeTest: fake('sk_test_', 24),
  openai: fake('sk-', 48),
  openaiProject: fake('sk-proj-', 60, 'Ab1_Cd2-Ef3'),
  anthropic: fake('sk-ant-api03-', 80, 'Ab1_Cd2-Ef3'),
  google: fake('AIza', 35, 'Sy9_aB-cD1eF'),
  npm: fake('npm_', 36),
  jwt: `${fake('eyJ', 17, 'hbGciOiJIUzI1NiJ9')}.${fake('eyJ', 25, 'zdWIiOiIxMjM0NTY3ODkwIn0')}.${fake('', 43, 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c')}`,
};
const slackWebhook = `https://hooks.slack.com/services/${fake('T', 8)}/${fake('B', 10)}/${fake('', 24)}`;
const pem = (label: string, body: string): string =>
  `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
const keyBody = `${fake('MIIEow', 58, 'IBAAKCAQEAx9Y')}\n${fake('', 64, 'q8Rz+/Ab3Cd4')}\n${fake('', 30, 'Ef5Gh6Ij')}==`;

const redactor = new Redactor();
const text = (input: string, r: Redactor = redactor): string => r.redactText(input).text;

describe('layer 2: well-known tokens are redacted inside any string', () => {
  // `%T` is where the token goes; every family is named by its own marker.
  const families: [RedactionKind, string, string][] = [
    ['github-token', tokens.github, 'git push https://x:%T@github.com/acme/app.git'],
    ['github-token', tokens.githubOauth, 'gh api -H "X-Gh: %T" /user'],
    ['github-token', tokens.githubFineGrained, 'GH=%T gh pr merge 7'],
    ['gitlab-token', tokens.gitlab, 'curl --header "X-Gl: %T" https://gitlab.com/api/v4'],
    ['aws-access-key-id', tokens.awsId, 'aws configure set aws_access_key_id %T'],
    ['aws-access-key-id', tokens.awsSession, 'echo %T >> creds.txt'],
    ['slack-token', tokens.slackBot, 'curl -d t=%T https://slack.com/api/chat.postMessage'],
    ['slack-token', tokens.slackUser, 'export SLACK=%T'],
    ['stripe-key', tokens.stripeLive, 'stripe charges list --live %T'],
    ['stripe-key', tokens.stripeRestricted, 'curl https://api.stripe.com/v1/charges -u %T:'],
    ['stripe-key', tokens.stripeTest, 'STRIPE=%T npm test'],
    ['openai-key', tokens.openai, 'curl https://api.openai.com/v1/models -H "x: %T"'],
    ['openai-key', tokens.openaiProject, 'echo %T | llm keys set openai'],
    ['anthropic-key', tokens.anthropic, 'ANTHROPIC=%T claude -p hi'],
    [
      'google-api-key',
      tokens.google,
      'curl "https://maps.googleapis.com/maps/api/geocode/json?k=%T"',
    ],
    ['npm-token', tokens.npm, 'echo //registry.npmjs.org/:_t=%T > .npmrc'],
    ['jwt', tokens.jwt, 'curl -H "X-Session: %T" https://app.example.com/me'],
  ];

  it.each(families)('a %s inside a command line', (kind, token, command) => {
    expect(text(command.replace('%T', token))).toBe(command.replace('%T', marker(kind)));
  });

  it('a token under a secret-ish key in a command line is hidden either way', () => {
    for (const command of [
      'curl -d token=%T https://x',
      'npm config set _authToken=%T',
      'stripe --api-key %T',
    ]) {
      const out = text(command.replace('%T', tokens.stripeLive));
      expect(out).not.toContain(tokens.stripeLive);
      expect(out).toMatch(/\[REDACTED:(?:stripe-key|secret)\]/);
    }
  });

  it.each(families)('a %s inside a nested object, reported by path', (_kind, token) => {
    const input = {
      steps: [{ run: { argv: ['deploy', `--note=${token}`] } }],
      note: `x ${token} y`,
    };
    const { value, paths } = redactor.redact(input);
    expect(JSON.stringify(value)).not.toContain(token);
    expect(paths).toEqual(['steps[0].run.argv[1]', 'note']);
  });

  it('a Bearer token after `Authorization:` keeps the scheme: curl -H "Authorization: Bearer ghp_…"', () => {
    expect(text(`curl -H "Authorization: Bearer ${tokens.github}" https://api.github.com`)).toBe(
      'curl -H "Authorization: Bearer [REDACTED:github-token]" https://api.github.com',
    );
    expect(text('curl -H "Authorization: Bearer abc.def-123" https://x')).toBe(
      'curl -H "Authorization: Bearer [REDACTED:authorization]" https://x',
    );
  });

  it('Basic credentials and any other scheme after `Authorization:` or `Proxy-Authorization:`', () => {
    expect(text("curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' https://x")).toBe(
      "curl -H 'Authorization: Basic [REDACTED:authorization]' https://x",
    );
    expect(text('Proxy-Authorization: Digest username="bob", response="6629fae4"\nHost: x')).toBe(
      'Proxy-Authorization: Digest [REDACTED:authorization]\nHost: x',
    );
    expect(text(`curl -H 'Authorization: Digest username="bob", response="6629"' https://x`)).toBe(
      "curl -H 'Authorization: Digest [REDACTED:authorization]' https://x",
    );
    expect(text('{"Authorization":"Bearer abc-123","Accept":"*/*"}')).toBe(
      '{"Authorization":"Bearer [REDACTED:authorization]","Accept":"*/*"}',
    );
    expect(text('{\\"authorization\\":\\"Basic Ym90\\"}')).toBe(
      '{\\"authorization\\":\\"Basic [REDACTED:authorization]\\"}',
    );
    expect(text('git -c http.extraHeader="AUTHORIZATION: token s3cr3t-value" fetch')).toBe(
      'git -c http.extraHeader="AUTHORIZATION: token [REDACTED:authorization]" fetch',
    );
  });

  it('a bare `Bearer <token>` needs a digit, so prose like "Bearer tokenization" stays', () => {
    expect(text('header Bearer abcdefgh12345 sent')).toBe(
      'header Bearer [REDACTED:bearer-token] sent',
    );
    expect(text('Bearer tokenization is a topic')).toBe('Bearer tokenization is a topic');
  });

  it('a Cookie or Set-Cookie header value, whole', () => {
    expect(text('curl -H "Cookie: sid=abc123; theme=dark" https://x')).toBe(
      'curl -H "Cookie: [REDACTED:cookie]" https://x',
    );
    expect(text('Set-Cookie: sid=abc123; Path=/; HttpOnly')).toBe('Set-Cookie: [REDACTED:cookie]');
  });

  it('a Slack webhook keeps its host and loses its path', () => {
    expect(text(`curl -X POST -d @msg.json ${slackWebhook}`)).toBe(
      'curl -X POST -d @msg.json https://hooks.slack.com/services/[REDACTED:slack-webhook]',
    );
  });

  it('an Anthropic key is named as such, not as an OpenAI key', () => {
    expect(text(`x ${tokens.anthropic}`)).toBe('x [REDACTED:anthropic-key]');
  });

  it('token-like words stay: `sk-learn-tutorial-notebooks`, `task-runner`, `npm_config_cache`', () => {
    for (const input of [
      'pip install sk-learn-tutorial-notebooks-for-beginners',
      'npm run task-runner-with-a-long-name-here',
      'npm_config_cache=/tmp/npm npm ci',
      'AKIAISHORT is not a key',
    ]) {
      expect(text(input)).toBe(input);
    }
  });
});

describe('layer 2: PEM private key blocks', () => {
  it('a multi-line block keeps its armour lines and loses its body', () => {
    const block = pem('RSA PRIVATE KEY', keyBody);
    expect(text(`cat > id_rsa <<EOF\n${block}\nEOF`)).toBe(
      'cat > id_rsa <<EOF\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n-----END RSA PRIVATE KEY-----\nEOF',
    );
  });

  it('OPENSSH, ENCRYPTED, PGP and JSON-escaped blocks, and a block cut off before its END line', () => {
    for (const label of ['OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'PGP PRIVATE KEY BLOCK']) {
      expect(text(pem(label, keyBody))).not.toContain(keyBody.slice(0, 20));
    }
    const escaped = JSON.stringify({ private_key: pem('PRIVATE KEY', keyBody) });
    expect(text(escaped)).not.toContain(keyBody.slice(0, 20));
    expect(text(`-----BEGIN PRIVATE KEY-----\n${keyBody}`)).toBe(
      '-----BEGIN PRIVATE KEY-----\n[REDACTED:private-key]',
    );
  });

  it('a public key or certificate stays', () => {
    const certificate = pem('CERTIFICATE', keyBody);
    expect(text(certificate)).toBe(certificate);
  });

  it('a key split over argv elements is redacted element by element', () => {
    const lines = pem('PRIVATE KEY', keyBody).split('\n');
    const { value } = redactor.redact(lines);
    expect(value[0]).toBe('-----BEGIN PRIVATE KEY-----');
    expect(value.at(-1)).toBe('-----END PRIVATE KEY-----');
    expect(value.slice(1, -1).every((line) => line === marker('private-key'))).toBe(true);
  });
});

// Strings made of the pieces secrets and their contexts are made of, so that random inputs hit
// the patterns, their edges and the markers, not only plain text.
const literalPool = ['hunter2-mail', 'db@pa55:w0rd', 'ab]cdefgh', 'xyzabc[RED', 'Pa55(w0rd)!'];
const piece = fc.oneof(
  fc.constantFrom(
    ...Object.values(tokens),
    ...literalPool,
    slackWebhook,
    pem('PRIVATE KEY', 'MIIB\nabc'),
    '-----BEGIN RSA PRIVATE KEY-----',
    'password=',
    'password: ',
    '"token": "',
    '--token ',
    '-p',
    'mysql ',
    'sshpass ',
    'curl -u bob:',
    'machine h login u password ',
    '<password>',
    '</password>',
    'Authorization: Bearer ',
    'Bearer ',
    'Cookie: ',
    'https://bob:',
    '@host/x',
    '://',
    ':',
    '@',
    '[REDACTED',
    ']',
    '[',
    ...REDACTION_KINDS.map(marker),
    REDACTED,
    ' ',
    '\n',
    '"',
    "'",
    '=',
    '&',
    ';',
    '$',
    '/',
    'x',
    'AKIA',
    'sk-',
    'eyJ',
    '\\',
  ),
  fc.string({ maxLength: 8 }),
);
const randomText = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
const randomValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    randomText,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.constantFrom('password', 'token', 'maxTokens', 'args', 'note'), randomText),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;
const literalRedactor = new Redactor({ literals: literalPool });

describe('properties', () => {
  it('redacting twice changes nothing more than redacting once', () => {
    fc.assert(
      fc.property(randomValue, (input) => {
        const once = literalRedactor.redact(input).value;
        expect(literalRedactor.redact(once).value).toEqual(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('no literal of the set survives in a string that embeds it', () => {
    const literal = fc.oneof(
      fc.constantFrom(...literalPool),
      fc.string({ minLength: 6, maxLength: 16 }).filter((s) => !s.includes('REDACTED')),
    );
    fc.assert(
      fc.property(
        fc.array(literal, { minLength: 1, maxLength: 5 }),
        randomText,
        randomText,
        (lits, before, after) => {
          const r = new Redactor({ literals: lits });
          const usable = lits.filter((l) => text(l, r) !== l);
          for (const l of usable) {
            expect(text(`${before}${l}${after}`, r)).not.toContain(l);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('the output is always JSON-serialisable and survives a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withNullPrototype: true,
        }),
        (input) => {
          const { value } = literalRedactor.redact(input);
          const json = JSON.stringify(value);
          expect(typeof json).toBe('string');
          expect(JSON.parse(json)).toEqual(value);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
