// Layer 1 of the redactor: a property whose key names a secret (`password`, `apiKey`,
// `Authorization`, …) loses its whole value, while counts and flags named alike stay.

import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, isSecretKey } from '../../src/audit/redact.js';

const redactor = new Redactor();

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
