// What redaction leaves behind. Markers are recognisable (a closed set of kinds, one prefix), so
// redacting twice changes nothing and no marker is ever taken for a secret.

/** What a text marker says was there. */
export const REDACTION_KINDS = [
  'private-key',
  'github-token',
  'gitlab-token',
  'aws-access-key-id',
  'slack-token',
  'slack-webhook',
  'stripe-key',
  'anthropic-key',
  'openai-key',
  'google-api-key',
  'npm-token',
  'warden-token',
  'jwt',
  'huggingface-token',
  'sendgrid-key',
  'digitalocean-token',
  'pypi-token',
  'docker-hub-token',
  'authorization',
  'cookie',
  'bearer-token',
  'url-password',
  'password',
  'secret',
  'credential',
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** What replaces the whole value of a property whose key names a secret. */
export const REDACTED = '[REDACTED]';
/** Every redaction marker starts so; nothing that starts so is redacted again. */
export const MARKER_START = '[REDACTED';

/** `[REDACTED:github-token]`: what replaces a secret found inside a string. */
export function marker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/** What stands for values that cannot be copied as they are. */
export const CIRCULAR = '[Circular]';
export const MAX_DEPTH = '[MaxDepth]';
export const BINARY = '[Binary]';
export const UNREADABLE = '[Unreadable]';

/** Every string redaction can produce, for the literal layer's overlap checks. */
export const ALL_MARKERS: readonly string[] = [
  REDACTED,
  ...REDACTION_KINDS.map(marker),
  CIRCULAR,
  MAX_DEPTH,
  BINARY,
  UNREADABLE,
];
