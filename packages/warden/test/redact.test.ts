// The redactor keeps secrets out of the audit log and the inspector's answers: secret keys,
// well-known token formats and known credential literals, in any value, idempotently.
// Token-shaped fixtures are assembled at run time so that no scanner mistakes this file for a leak.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RedactionKind } from '../src/audit/redact.js';
import {
  REDACTED,
  REDACTION_KINDS,
  Redactor,
  credentialLiterals,
  isSecretKey,
  marker,
} from '../src/audit/redact.js';

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

describe('layer 1: a property whose key names a secret loses its whole value', () => {
  it.each([
    'password',
    'Password',
    'PASSWORD',
    'passwd',
    'pwd',
    'pass',
    'passphrase',
    'db_password',
    'smtpPass',
    'secret',
    'clientSecret',
    'client_secret',
    'webhookSecret',
    'SecretString',
    'token',
    'accessToken',
    'access_token',
    'refresh_token',
    'id_token',
    'X-Auth-Token',
    'PRIVATE-TOKEN',
    'GITHUB_TOKEN',
    'apiKey',
    'APIKey',
    'api_key',
    'api-key',
    'apikey',
    'x-api-key',
    'OPENAI_API_KEY',
    'aws_secret_access_key',
    'secretAccessKey',
    'privateKey',
    'private_key',
    'signingKey',
    'authorization',
    'Proxy-Authorization',
    'auth',
    'basicAuth',
    'cookie',
    'Set-Cookie',
    'cookies',
    'credentials',
    'creds',
    'secrets',
    'connectionString',
    'connection_string',
    'dsn',
    'SENTRY_DSN',
    'PGPASSWORD',
    'storepass',
    'password2',
    'accessTokens',
    'sessionToken',
    'sessionKey',
    'x-amz-signature',
    'sig',
  ])('`%s` names a secret', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each([
    'tokens',
    'maxTokens',
    'max_tokens',
    'inputTokens',
    'outputTokens',
    'tokenCount',
    'token_type',
    'tokenizer',
    'tokenUrl',
    'author',
    'authorName',
    'oauth',
    'authMethod',
    'passage',
    'bypass',
    'compass',
    'secretary',
    'secretName',
    'secretArn',
    'keyboard',
    'key',
    'keys',
    'publicKey',
    'primaryKey',
    'sshKey',
    'keyId',
    'accessKeyId',
    'AWS_ACCESS_KEY_ID',
    'passwordFile',
    'password_hash',
    'passwordPolicy',
    'credentialsPath',
    'hasPassword',
    'isSecret',
    'requireAuth',
    'withCredentials',
    '--with-token',
    '--password-stdin',
    '--ask-pass',
    'session',
    'sessionId',
    'session_id',
    'signature',
    'functionSignature',
    'PWD',
    'OLDPWD',
    'DATABASE_URL',
    'cookieName',
    '[REDACTED:github-token]',
  ])('`%s` does not', (key) => {
    expect(isSecretKey(key)).toBe(false);
  });

  it('replaces strings, numbers, objects and arrays under a secret key, at any depth', () => {
    const input = {
      tools: {
        mail: { host: 'smtp.example.com', user: 'bot', password: 'mail-pass-1' },
        db: { pin: 4321, pwd: 123456 },
        vendor: { credentials: { user: 'u', key: 'k' }, apiKeys: ['a', 'b'] },
      },
      headers: { Authorization: 'Basic Ym90OnB3', Accept: 'application/json' },
    };
    const { value, paths } = redactor.redact(input);
    expect(value).toEqual({
      tools: {
        mail: { host: 'smtp.example.com', user: 'bot', password: REDACTED },
        db: { pin: 4321, pwd: REDACTED },
        vendor: { credentials: REDACTED, apiKeys: REDACTED },
      },
      headers: { Authorization: REDACTED, Accept: 'application/json' },
    });
    expect(paths).toEqual([
      'tools.mail.password',
      'tools.db.pwd',
      'tools.vendor.credentials',
      'tools.vendor.apiKeys',
      'headers.Authorization',
    ]);
  });

  it('keeps counts, flags and empty values: `maxTokens: 4096`, `hasPassword: true`, `token: null`', () => {
    const input = { maxTokens: 4096, inputTokens: 12, hasPassword: true, token: null, auth: false };
    expect(redactor.redact(input)).toEqual({ value: input, paths: [] });
  });

  it('keeps `session_id` (a correlation id in agent hooks) but not `sessionToken`', () => {
    const { value } = redactor.redact({ session_id: 'abc-123', sessionToken: 'abc-123' });
    expect(value).toEqual({ session_id: 'abc-123', sessionToken: REDACTED });
  });
});

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

describe('layer 2: passwords in URLs', () => {
  it('keeps scheme, user and host and redacts the password', () => {
    expect(text('psql postgres://app:s3cr3t@db.internal:5432/app')).toBe(
      'psql postgres://app:[REDACTED:url-password]@db.internal:5432/app',
    );
    expect(text('redis-cli -u redis://:hunter2@cache:6379/0')).toBe(
      'redis-cli -u redis://:[REDACTED:url-password]@cache:6379/0',
    );
    expect(text('mongodb+srv://svc:pa%40ss@cluster0.example.net/db?retryWrites=true')).toBe(
      'mongodb+srv://svc:[REDACTED:url-password]@cluster0.example.net/db?retryWrites=true',
    );
  });

  it('runs the password to the last `@` of the authority, so a raw `@` in it does not leak', () => {
    expect(text('git clone https://bob:p@ss@example.com/x.git')).toBe(
      'git clone https://bob:[REDACTED:url-password]@example.com/x.git',
    );
  });

  it('leaves URLs without userinfo alone: ports, `@` in paths, IPv6 hosts, ssh users', () => {
    for (const input of [
      'curl https://example.com:8443/users/@me',
      'curl http://[::1]:8080/health',
      'git clone ssh://git@github.com:22/acme/app.git',
      'npm i @types/node https://registry.npmjs.org/',
    ]) {
      expect(text(input)).toBe(input);
    }
  });
});

describe('layer 2: secret-ish keys with values in command lines, query strings and text', () => {
  it.each([
    [
      'https://x.test/cb?access_token=abc123&state=xyz',
      'https://x.test/cb?access_token=[REDACTED:secret]&state=xyz',
    ],
    ['PGPASSWORD=s3cret psql -h db', 'PGPASSWORD=[REDACTED:secret] psql -h db'],
    ["export DB_PASSWORD='hunter two'", "export DB_PASSWORD='[REDACTED:secret]'"],
    [
      'docker run -e POSTGRES_PASSWORD=pw123 postgres',
      'docker run -e POSTGRES_PASSWORD=[REDACTED:secret] postgres',
    ],
    [
      'wget --user=bob --password=hunter2 https://x',
      'wget --user=bob --password=[REDACTED:secret] https://x',
    ],
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG', 'aws_secret_access_key = [REDACTED:secret]'],
    [
      'Server=db;User Id=sa;Password=Pa55w0rd!;Encrypt=true',
      'Server=db;User Id=sa;Password=[REDACTED:secret];Encrypt=true',
    ],
    ['{"user": "bob", "password": "hunter2"}', '{"user": "bob", "password": "[REDACTED:secret]"}'],
    ['{\\"apiKey\\":\\"abc123\\"}', '{\\"apiKey\\":\\"[REDACTED:secret]\\"}'],
    [
      'smtp:\n  password: hunter2 # mail\n  port: 25',
      'smtp:\n  password: [REDACTED:secret] # mail\n  port: 25',
    ],
    ['curl -H "X-Api-Key: abc123" https://x', 'curl -H "X-Api-Key: [REDACTED:secret]" https://x'],
    ['kubectl --token abcdef123 get pods', 'kubectl --token [REDACTED:secret] get pods'],
    [
      'keytool -list -storepass changeit -keystore ks.jks',
      'keytool -list -storepass [REDACTED:secret] -keystore ks.jks',
    ],
    [
      'vault write auth/approle/login secret_id=4d1f role_id=r1',
      'vault write auth/approle/login secret_id=4d1f role_id=r1',
    ],
  ])('%j', (input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it.each([
    [
      'program-specific: mysql -pSECRET (attached)',
      'mysql -u root -phunter22 -h db app',
      'mysql -u root -p[REDACTED:password] -h db app',
    ],
    ['program-specific: mysql -p alone prompts', 'mysql -u root -p app', 'mysql -u root -p app'],
    [
      'program-specific: sshpass -p',
      'sshpass -p "my pass" ssh host',
      'sshpass -p [REDACTED:password] ssh host',
    ],
    [
      'program-specific: docker login -p',
      'docker login -u bob -p s3cretpw reg.example.com',
      'docker login -u bob -p [REDACTED:password] reg.example.com',
    ],
    [
      'program-specific: curl -u user:password',
      'curl -su x -u alice:wonderland https://x',
      'curl -su x -u alice:[REDACTED:password] https://x',
    ],
    [
      'program-specific: aws configure set',
      'aws configure set aws_secret_access_key wJalrXUt',
      'aws configure set aws_secret_access_key [REDACTED:secret]',
    ],
    [
      'program-specific: gh secret set --body',
      'gh secret set DEPLOY --body hunter2',
      'gh secret set DEPLOY --body [REDACTED:secret]',
    ],
    [
      '-p elsewhere is a port or a flag',
      'mkdir -p build && ssh -p 22 host && docker run -p 80:80 x',
      'mkdir -p build && ssh -p 22 host && docker run -p 80:80 x',
    ],
    ['-u elsewhere is not a user', 'git push -u origin main:main', 'git push -u origin main:main'],
  ])('%s', (_name, input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it.each([
    'tokens=1234 maxTokens=99 max_tokens: 100 token_count=5',
    'author=bob passage: x keyboard=us monkey=1 compass=n',
    'git log --author "Bob Dobbs" --grep token',
    'gh auth login --with-token < token.txt',
    'docker login --password-stdin < pw.txt',
    'ansible-playbook --ask-pass site.yml',
    'ansible all --private-key ~/.ssh/id_ed25519',
    'GOOGLE_APPLICATION_CREDENTIALS=/run/secrets/gcp.json gcloud auth list',
    'curl -H "Authorization: $AUTH" --token "$GITHUB_TOKEN" https://x',
    'password: ${{ secrets.DB_PASSWORD }}',
    'const token = getToken(); if (password == input) {}',
    'password: null, token: true, secret: undefined',
    'api_key=<your-key-here>',
  ])('keeps %j', (input) => {
    expect(text(input)).toBe(input);
  });

  it('a `.netrc` password and XML elements that name a secret', () => {
    expect(text('machine api.example.com login bob password s3cret-x\nmachine b password y1')).toBe(
      'machine api.example.com login bob password [REDACTED:password]\nmachine b password [REDACTED:password]',
    );
    expect(
      text('<server><id>repo</id><username>bob</username><password>s3cr3t!</password></server>'),
    ).toBe(
      '<server><id>repo</id><username>bob</username><password>[REDACTED:secret]</password></server>',
    );
    expect(text('<password>${env.PW}</password><keyboard>us</keyboard>')).toBe(
      '<password>${env.PW}</password><keyboard>us</keyboard>',
    );
  });

  it('argv arrays read as one command line: `["--password", "x"]` loses `x`', () => {
    const { value, paths } = redactor.redact({
      command: 'mysql',
      args: ['-u', 'root', '--password', 'hunter2', '-h', 'db'],
      other: ['sshpass', '-p', 'pw-1', 'ssh', 'host'],
    });
    expect(value).toEqual({
      command: 'mysql',
      args: ['-u', 'root', '--password', marker('secret'), '-h', 'db'],
      other: ['sshpass', '-p', marker('password'), 'ssh', 'host'],
    });
    expect(paths).toEqual(['args[3]', 'other[2]']);
  });
});

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

describe('the copy', () => {
  it('never changes the input', () => {
    const input = { headers: { authorization: 'Bearer x' }, args: ['--token', 't0ken-1'], n: [1] };
    const before = structuredClone(input);
    const { value } = redactor.redact(input);
    expect(input).toEqual(before);
    expect(value).not.toBe(input);
    expect(value.n).not.toBe(input.n);
  });

  it('replaces cycles with a marker, but copies a value shared twice both times', () => {
    const shared = { password: 'x', ok: 1 };
    const input: Record<string, unknown> = { a: shared, b: shared };
    input.self = input;
    const { value } = redactor.redact(input);
    expect(value).toEqual({
      a: { password: REDACTED, ok: 1 },
      b: { password: REDACTED, ok: 1 },
      self: '[Circular]',
    });
  });

  it('stops at the depth limit without throwing', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i += 1) deep = { next: deep };
    const { value } = new Redactor({ maxDepth: 3 }).redact(deep);
    expect(value).toEqual({ next: { next: { next: '[MaxDepth]' } } });
    expect(() => redactor.redact(deep)).not.toThrow();
  });

  it('makes non-JSON values JSON-safe', () => {
    const input = {
      big: 12345678901234567890n,
      fn: () => 1,
      sym: Symbol('s'),
      undef: undefined,
      nan: Number.NaN,
      list: [undefined, () => 1, Number.POSITIVE_INFINITY],
      when: new Date(0),
      bad: new Date(Number.NaN),
      bytes: new Uint8Array([1, 2, 3]),
      map: new Map<unknown, unknown>([
        ['password', 'x'],
        [1, 'one'],
      ]),
      set: new Set(['a']),
      error: new Error('boom'),
      boxed: [new String('x'), new Number(2), new Boolean(false)],
      url: new URL('https://bob:pw-123@example.com/x'),
    };
    expect(redactor.redact(input).value).toEqual({
      big: '12345678901234567890',
      nan: null,
      list: [null, null, null],
      when: '1970-01-01T00:00:00.000Z',
      bad: null,
      bytes: '[Binary]',
      map: { password: REDACTED, 1: 'one' },
      set: ['a'],
      error: { name: 'Error', message: 'boom' },
      boxed: ['x', 2, false],
      url: 'https://bob:[REDACTED:url-password]@example.com/x',
    });
    expect(redactor.redact(undefined).value).toBeNull();
  });

  it('copies what it can of throwing getters and proxies', () => {
    const getter = Object.defineProperty({ ok: 1 }, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(redactor.redact({ getter, proxy: revocable.proxy }).value).toEqual({
      getter: { ok: 1, boom: '[Unreadable]' },
      proxy: '[Unreadable]',
    });
  });

  it('keeps a `__proto__` key as data and formats odd keys in paths as ["x y"]', () => {
    const input = JSON.parse(
      '{"__proto__": {"password": "x"}, "odd key": {"token": "y"}}',
    ) as object;
    const { value, paths } = redactor.redact(input, 'arguments');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe(
      '{"__proto__":{"password":"[REDACTED]"},"odd key":{"token":"[REDACTED]"}}',
    );
    expect(paths).toEqual(['arguments.__proto__.password', 'arguments["odd key"].token']);
  });

  it('reports a redacted top-level string under its base path', () => {
    expect(redactor.redact(`token=${tokens.npm}`, 'command')).toEqual({
      value: 'token=[REDACTED:npm-token]',
      paths: ['command'],
    });
  });
});

describe('markers', () => {
  it('never look like a secret themselves', () => {
    const markers = [REDACTED, ...REDACTION_KINDS.map(marker)];
    for (const m of markers) {
      expect(text(m)).toBe(m);
      expect(text(`password=${m} Authorization: Bearer ${m} https://u:${m}@h`)).toBe(
        `password=${m} Authorization: Bearer ${m} https://u:${m}@h`,
      );
    }
  });

  it('redactText says whether it redacted', () => {
    expect(redactor.redactText('nothing here')).toEqual({ text: 'nothing here', redacted: false });
    expect(redactor.redactText(`x ${tokens.github}`).redacted).toBe(true);
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
