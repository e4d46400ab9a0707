// Which property names, header names, flags and `key=value` keys name a secret: one rule,
// shared by the structural layer, the text patterns and `credentialLiterals`.

/** Nouns that name a secret when they are the key's last word. */
const SECRET_WORDS = new Set([
  'password',
  'passwords',
  'passwd',
  'passwort',
  'passphrase',
  'pass',
  'pwd',
  'secret',
  'secrets',
  'token',
  'credential',
  'credentials',
  'creds',
  'cookie',
  'cookies',
  'authorization',
  'auth',
  'dsn',
]);

/** Single-word compounds (`apikey`, `PGPASSWORD`, `storepass`) end in one of these. */
const SECRET_SUFFIXES = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'signingkey',
  'credentials',
  'credential',
  'cookie',
  'pass',
];

/** English words that end in a secret suffix but are not secrets. */
const NOT_SECRET_WORDS = new Set([
  'bypass',
  'compass',
  'encompass',
  'overpass',
  'underpass',
  'trespass',
  'surpass',
  'multipass',
]);

/** `key` is a secret only as `apiKey`, `privateKey`, `secret_access_key`…, never alone. */
const KEY_QUALIFIERS = new Set([
  'api',
  'private',
  'secret',
  'access',
  'signing',
  'sign',
  'encryption',
  'decryption',
  'encrypt',
  'master',
  'client',
  'app',
  'application',
  'consumer',
  'subscription',
  'webhook',
  'shared',
  'hmac',
  'license',
  'service',
  'account',
  'admin',
  'root',
  'session',
  'cookie',
  'jwt',
  'storage',
  'sas',
  'auth',
  'deploy',
]);

/** `tokens` is usually a count (`maxTokens`, `inputTokens`); these make it credentials. */
const TOKEN_QUALIFIERS = new Set([
  'access',
  'refresh',
  'auth',
  'api',
  'bearer',
  'oauth',
  'session',
  'id',
  'personal',
  'csrf',
  'xsrf',
]);

/** `signature` alone is too often code (`functionSignature`); these are presigned URLs. */
const SIGNATURE_QUALIFIERS = new Set(['amz', 'goog', 'access']);

/** Trailing words that wrap the secret without changing what it is (`SecretString`). */
const WRAPPER_WORDS = new Set([
  'value',
  'string',
  'str',
  'text',
  'raw',
  'plain',
  'plaintext',
  'b64',
  'base64',
  'encoded',
  'encrypted',
  'hex',
  'data',
  'bytes',
  'val',
]);

/** A leading word that makes the key a flag or a count about the secret (`hasPassword`). */
const FLAG_WORDS = new Set([
  'has',
  'is',
  'use',
  'uses',
  'require',
  'requires',
  'need',
  'needs',
  'enable',
  'enabled',
  'allow',
  'allows',
  'skip',
  'show',
  'hide',
  'no',
  'ask',
  'prompt',
  'with',
  'without',
  'min',
  'max',
  'num',
  'count',
  'total',
]);

/** `apiKey` → `api key`, `APIKey` → `api key`, `x-api-key` → `x api key`, `oauth2Token` → `oauth2 token`. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

function classify(key: string): boolean {
  // A key that already holds a marker was redacted before; deciding it again could redact its
  // value on a second pass and break idempotence.
  if (key.includes('[REDACTED')) return false;
  // The POSIX working-directory variables, spelt as the environment spells them.
  if (key === 'PWD' || key === 'OLDPWD') return false;
  const words = keyWords(key);
  if (words.length === 0) return false;
  if (words.length > 1 && FLAG_WORDS.has(words[0] as string)) return false;
  let last = words.length - 1;
  const joinedTail = `${words[last - 1] ?? ''} ${words[last] as string}`;
  if (/^(?:connection|conn) (?:string|str)$/.test(joinedTail)) return true;
  while (last > 0 && WRAPPER_WORDS.has(words[last] as string)) last -= 1;
  const word = (words[last] as string).replace(/(?<=[a-z])\d+$/, '');
  const previous = words[last - 1];
  if (SECRET_WORDS.has(word)) return true;
  if (word === 'key' || word === 'keys')
    return previous !== undefined && KEY_QUALIFIERS.has(previous);
  if (word === 'tokens') return previous !== undefined && TOKEN_QUALIFIERS.has(previous);
  if (word === 'signature') return previous !== undefined && SIGNATURE_QUALIFIERS.has(previous);
  if (word === 'sig') return words.length === 1;
  if (NOT_SECRET_WORDS.has(word)) return false;
  return SECRET_SUFFIXES.some((suffix) => word.endsWith(suffix));
}

const cache = new Map<string, boolean>();
const CACHE_LIMIT = 4096;

/**
 * Whether a key names a secret. Case- and separator-insensitive (`apiKey`, `API_KEY`, `x-api-key`
 * and `apikey` are one key), decided on the key's last word, after trailing wrapper words
 * (`Value`, `String`, `Data`…) and digits are dropped:
 * - secret: `password`, `passwd`, `pwd`, `pass`, `passphrase`, `secret(s)`, `token`,
 *   `credential(s)`, `creds`, `cookie(s)`, `authorization`, `auth`, `dsn`, `connectionString`;
 *   `key(s)` only after a qualifier (`apiKey`, `privateKey`, `secret_access_key`, `signingKey`);
 *   `tokens` only after one (`accessTokens`); `signature` only as `x-amz-`/`x-goog-signature`;
 *   `sig` alone (SAS URLs); one-word compounds ending so (`apikey`, `PGPASSWORD`, `storepass`);
 * - not secret: counts and lists (`tokens`, `maxTokens`, `tokenCount`), flags and limits
 *   (`hasPassword`, `--with-token`, `max_password_age`), names of where a secret is
 *   (`passwordFile`, `secretName`, `keyId`, `tokenUrl`), words that merely contain one (`author`,
 *   `passage`, `bypass`, `secretary`, `keyboard`), bare `key`, `publicKey`, `sshKey`,
 *   `session`/`sessionId` (correlation ids in agent runtimes, e.g. Claude Code's `session_id`;
 *   `sessionToken` and `sessionKey` are secrets), `PWD`/`OLDPWD` spelt as the environment spells
 *   them (the working directory), and any key that already holds a marker.
 */
export function isSecretKey(key: string): boolean {
  let known = cache.get(key);
  if (known === undefined) {
    known = classify(key);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, known);
  }
  return known;
}
