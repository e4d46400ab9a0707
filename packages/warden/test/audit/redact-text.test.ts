// Layer 2 of the redactor in text: passwords in URLs, and secret-ish keys with their values in
// command lines, query strings, environment assignments and prose; and the markers that
// replace them, which never look like a secret themselves.
// Token-shaped fixtures are assembled at run time so that no scanner mistakes this file for a leak.

import { describe, expect, it } from 'vitest';
import { REDACTED, REDACTION_KINDS, Redactor, marker } from '../../src/audit/redact.js';

const githubToken = `ghp_${'A1b2C3d4E5f6G7h8'.repeat(3).slice(0, 36)}`;
const redactor = new Redactor();
const text = (input: string, r: Redactor = redactor): string => r.redactText(input).text;

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
    expect(redactor.redactText(`x ${githubToken}`).redacted).toBe(true);
  });
});
