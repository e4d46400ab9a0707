// Collects the credential values an agent's `AgentSettings.json` holds (API keys, mail and DB
// passwords), so that the redactor replaces them wherever they turn up later, word for word.

import { isSecretKey, keyWords } from './redact-keys.js';
import { DEFAULT_MIN_LITERAL_LENGTH } from './redact-literals.js';
import type { Span } from './redact-span.js';
import { findSecrets, mayHoldSecret } from './redact-patterns.js';

/** Fields that identify rather than authenticate, even inside a `credentials` object. */
const IDENTIFYING_WORDS = new Set([
  'user',
  'username',
  'login',
  'email',
  'name',
  'id',
  'type',
  'kind',
  'url',
  'uri',
  'endpoint',
  'host',
  'hostname',
  'server',
  'port',
  'path',
  'file',
  'region',
  'scope',
  'scopes',
  'provider',
  'method',
  'algorithm',
  'alg',
  'format',
  'description',
  'label',
  'expires',
  'expiry',
]);

const MAX_DEPTH = 64;

/**
 * The secret strings in a settings document, longest first: every string (or number) under a
 * secret key (the same rule as the redactor's first layer) and everything inside such a key's
 * object or array except identifying fields (`user`, `host`, `url`…), plus what the text patterns
 * find in any string, such as the password in `postgres://app:pw@db/x` or `Password=pw;`
 * (percent-decoded too). Values shorter than `minLength` are left out.
 */
export function credentialLiterals(
  settings: unknown,
  minLength = DEFAULT_MIN_LITERAL_LENGTH,
): string[] {
  const found = new Set<string>();
  const add = (value: string): void => {
    if (value.length >= minLength) found.add(value);
  };
  const ancestors: object[] = [];
  const spans: Span[] = [];

  const visit = (value: unknown, secret: boolean, depth: number): void => {
    if (typeof value === 'string') {
      if (secret) add(value);
      embedded(value);
    } else if (typeof value === 'number' || typeof value === 'bigint') {
      if (secret) add(String(value));
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_DEPTH || ancestors.includes(value)) return;
      ancestors.push(value);
      try {
        if (Array.isArray(value)) {
          for (const item of value as unknown[]) visit(item, secret, depth + 1);
        } else {
          for (const [key, item] of Object.entries(value)) {
            visit(item, isSecretKey(key) || (secret && !identifying(key)), depth + 1);
          }
        }
      } catch {
        // An unreadable value holds nothing to collect.
      } finally {
        ancestors.pop();
      }
    }
  };

  const embedded = (text: string): void => {
    if (!mayHoldSecret(text)) return;
    spans.length = 0;
    findSecrets(text, spans);
    for (const span of spans) {
      const secret = text.slice(span.start, span.end);
      add(secret);
      if (span.kind === 'url-password') {
        try {
          add(decodeURIComponent(secret));
        } catch {
          // Not percent-encoded after all.
        }
      }
    }
  };

  visit(settings, false, 0);
  return [...found].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

function identifying(key: string): boolean {
  const words = keyWords(key);
  const last = words[words.length - 1];
  return last !== undefined && IDENTIFYING_WORDS.has(last);
}
