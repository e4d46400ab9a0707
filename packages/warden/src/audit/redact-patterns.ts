// The second layer of redaction: well-known token formats and `key=value`, header, URL and
// command-line shapes that carry secrets, found in any string as spans to replace.

import { isSecretKey } from './redact-keys.js';
import type { RedactionKind } from './redact-markers.js';
import { MARKER_START } from './redact-markers.js';

/** Joins the string elements of an array so that `['--password', 'x']` reads as a command line. */
export const ARG_SEPARATOR = '\u0001';

/** A secret found in a text: `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly kind: RedactionKind;
}

// Every pattern needs one of these anchors (case-insensitive) in its text: one regex rules out
// most strings before any specific pattern runs.
const ANCHORS = [
  'gh[pousr]_',
  'github_pat_',
  'gl(?:pat|dt|rt|ptt|soat|cbt)-',
  'a[ks]ia',
  'xox',
  'xapp-',
  'hooks\\.slack',
  '_(?:live|test)_',
  'whsec_',
  'sk-',
  'aiza',
  'npm_',
  'eyj',
  'hf_',
  'sg\\.',
  '_v1_',
  'pypi-',
  'dckr_pat_',
  '-----begin',
  'bearer',
  'pass',
  'pwd',
  'secret',
  'token',
  'key',
  'auth',
  'cookie',
  'cred',
  'dsn',
  'conn',
  'sig',
  'mysql',
  'mariadb',
  'login',
  ':\\/\\/[^\\s\\u0001\\/]*@',
  '(?:-u|--user|--proxy-user)[ \\t\\u0001=]*["\']?[^\\s\\u0001:"\']*:',
];
const PRECHECK = new RegExp(ANCHORS.join('|'), 'i');

/** False when no pattern can match: the fast path for most strings. */
export function mayHoldSecret(text: string): boolean {
  return PRECHECK.test(text);
}

type Finder = (text: string, spans: Span[]) => void;

/**
 * A global regex whose match is the secret, or, with `prefixed`, whose group 1 is kept context
 * and whose remainder (group 2 onwards, to the end of the match) is the secret.
 */
function regexFinder(kind: RedactionKind, re: RegExp, prefixed = false): Finder {
  return (text, spans) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const start = m.index + (prefixed ? (m[1] as string).length : 0);
      const end = m.index + m[0].length;
      if (end > start && !text.startsWith(MARKER_START, start)) spans.push({ start, end, kind });
      if (m[0].length === 0) re.lastIndex += 1;
    }
  };
}

// A value after a program's password option: quoted, or a bare word that is not an option,
// variable or redirection.
const OPTION_VALUE = `(?:"[^"\\n\\u0001]*"|'[^'\\n\\u0001]*'|[^\\s\\u0001"'\\-$<>|&;][^\\s\\u0001"']*)`;
// The rest of one command: up to a newline or a shell separator.
const SAME_COMMAND = '[^\\n\\r;&|]*?';
const GAP = '[ \\t\\u0001]';
const PROGRAM_START = '(?<![\\w.-])';
const PROGRAM_END = '(?![\\w.-])';
// The rest of a header value: to a quote, backtick or line end; never ends in white space or `\`.
const HEADER_VALUE = `([^\\s\\u0001"'\`\\\\](?:[^\\r\\n\\u0001"'\`]*[^\\s\\u0001"'\`\\\\])?)`;

function pem(): Finder {
  const label = '-----(BEGIN|END)[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----';
  const begin = label.replace('(BEGIN|END)', 'BEGIN');
  const end = label.replace('(BEGIN|END)', 'END');
  // A block cut off before its END line (a truncated file or command) is redacted to the end.
  return regexFinder(
    'private-key',
    new RegExp(`(${begin}\\s*)([\\s\\S]+?(?=\\s*${end})|[\\s\\S]+)`, 'g'),
    true,
  );
}

/** A `key=value` or `key: value` whose key names a secret (query strings, env, YAML, JSON text). */
function assignments(): Finder {
  const re =
    /(?<![A-Za-z0-9_.-])(\\?["']?)(-{0,2}(?=[A-Za-z_])[A-Za-z0-9_.-]*?(?:pass|pwd|secret|token|key|auth|cookie|cred|dsn|conn|sig)[A-Za-z0-9_.-]*)\1[ \t]*[:=][ \t]*/gi;
  return (text, spans) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const key = m[2] as string;
      // `Authorization` has its own pattern that keeps the scheme.
      if (!isSecretKey(key) || /authorization$/i.test(key)) continue;
      const span = valueSpan(text, re.lastIndex, false);
      if (span === undefined) continue;
      spans.push({ start: span[0], end: span[1], kind: 'secret' });
      re.lastIndex = span[1];
    }
  };
}

/** `--password hunter2`, `-storepass x`: an option naming a secret followed by its value. */
function options(): Finder {
  const re =
    /(?<![\w-])(-{1,2}(?=[A-Za-z])[A-Za-z0-9-]*?(?:pass|pwd|secret|token|key|auth|cookie|cred|dsn|conn)[A-Za-z0-9-]*)[ \t\u0001]+/gi;
  return (text, spans) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (!isSecretKey(m[1] as string)) continue;
      const span = valueSpan(text, re.lastIndex, true);
      if (span === undefined) continue;
      spans.push({ start: span[0], end: span[1], kind: 'secret' });
      re.lastIndex = span[1];
    }
  };
}

const UNQUOTED_END = /[\s\u0001"'`&;,<>|(){}\]]/;
const NOT_A_VALUE = /^(?:null|true|false|none|nil|undefined)$/i;

/**
 * Where the value starting at `at` lies (inside its quotes), or undefined when it is no secret:
 * empty, a marker, a variable (`$TOKEN`, `%TOKEN%`), a placeholder (`<token>`, `{{ x }}`), a
 * literal like `null`, a file path (`/run/secrets/db`, `~/.key`), a function call, an operator
 * (`==`), or (for options) the next option.
 */
function valueSpan(text: string, at: number, option: boolean): [number, number] | undefined {
  let start = at;
  let end: number;
  let quoted = true;
  const c = text[at];
  const escapedQuote = c === '\\' && (text[at + 1] === '"' || text[at + 1] === "'");
  if (escapedQuote || c === '"' || c === "'") {
    const quote = escapedQuote ? `\\${text[at + 1] as string}` : c;
    start = at + quote.length;
    end = closingQuote(text, start, quote);
    if (end < 0) return undefined;
  } else {
    quoted = false;
    end = start;
    while (end < text.length && !UNQUOTED_END.test(text[end] as string)) end += 1;
    if (text[end] === '(') return undefined;
  }
  if (end <= start || text.startsWith(MARKER_START, start)) return undefined;
  const value = text.slice(start, end);
  if (NOT_A_VALUE.test(value)) return undefined;
  if (/^(?:\$|%\w+%|<|\{\{|=|>|\/|~\/|\.\.?\/)/.test(value)) return undefined;
  if (option && !quoted && value.startsWith('-')) return undefined;
  return [start, end];
}

function closingQuote(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\n' || c === ARG_SEPARATOR) return -1;
    if (text.startsWith(quote, i)) return i;
    if (c === '\\' && quote === '"') i += 1;
  }
  return -1;
}

/** Every pattern, most specific first: at one position, the first listed names the kind. */
const FINDERS: readonly Finder[] = [
  pem(),
  regexFinder('github-token', /gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}/g),
  regexFinder('gitlab-token', /gl(?:pat|dt|rt|ptt|soat|cbt)-[A-Za-z0-9_-]{20,}/g),
  regexFinder('aws-access-key-id', /(?<![A-Za-z0-9\]])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9[])/g),
  regexFinder(
    'slack-token',
    /xox(?:[abposr]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}/g,
  ),
  regexFinder(
    'slack-webhook',
    /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_/-]+)/g,
    true,
  ),
  regexFinder('stripe-key', /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}/g),
  regexFinder('anthropic-key', /sk-ant-[A-Za-z0-9_-]{20,}/g),
  regexFinder('openai-key', /(?<![A-Za-z0-9_\]-])sk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g),
  regexFinder('google-api-key', /AIza[0-9A-Za-z_-]{35}/g),
  regexFinder('npm-token', /npm_[A-Za-z0-9]{36,}/g),
  regexFinder('jwt', /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g),
  regexFinder('huggingface-token', /(?<![A-Za-z0-9_\]])hf_[A-Za-z0-9]{34,}/g),
  regexFinder('sendgrid-key', /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/g),
  regexFinder('digitalocean-token', /do[por]_v1_[a-f0-9]{64}/g),
  regexFinder('pypi-token', /pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g),
  regexFinder('docker-hub-token', /dckr_pat_[A-Za-z0-9_-]{27,}/g),
  regexFinder(
    'authorization',
    new RegExp(
      `(?<![A-Za-z0-9_])((?:proxy-)?authorization\\\\?["']?[ \\t]*[:=][ \\t]*\\\\?["']?` +
        `(?:(?:bearer|basic|token|digest|negotiate|ntlm|oauth|apikey|key|jwt|dpop|ssws|aws4-hmac-sha256)[ \\t]+)?)` +
        HEADER_VALUE,
      'gi',
    ),
    true,
  ),
  regexFinder(
    'cookie',
    new RegExp(
      `(?<![A-Za-z0-9_])((?:set-)?cookie\\\\?["']?[ \\t]*:[ \\t]*\\\\?["']?)${HEADER_VALUE}`,
      'gi',
    ),
    true,
  ),
  regexFinder(
    'bearer-token',
    /(?<![A-Za-z0-9_])([Bb]earer[ \t]+)((?=[A-Za-z._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*)/g,
    true,
  ),
  // `scheme://user:password@host`: the password runs to the last `@` of the authority.
  regexFinder(
    'url-password',
    /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s\u0001:@/?#[\]"'<>]*:)([^\s\u0001/?#"'<>]+?)(?=@(?=([^\s\u0001@/?#"'<>]*))\3(?!@))/g,
    true,
  ),
  regexFinder(
    'password',
    new RegExp(
      `(${PROGRAM_START}curl${PROGRAM_END}${SAME_COMMAND}${GAP}(?:-u|--user|--proxy-user|-U)[ \\t\\u0001=]*\\\\?["']?[^\\s\\u0001:"'\\\\]*:)([^\\s\\u0001"'\\\\]+)`,
      'g',
    ),
    true,
  ),
  // `mysql -phunter2` (attached: `-p` alone prompts, and the next word is the database).
  regexFinder(
    'password',
    new RegExp(
      `(${PROGRAM_START}(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlpump|mysqlsh|mariadb(?:-dump|-admin|-import|-check|-show)?)${PROGRAM_END}${SAME_COMMAND}${GAP}-p)(${OPTION_VALUE})`,
      'g',
    ),
    true,
  ),
  regexFinder(
    'password',
    new RegExp(
      `(${PROGRAM_START}sshpass${PROGRAM_END}${SAME_COMMAND}${GAP}-p${GAP}*)(${OPTION_VALUE})`,
      'g',
    ),
    true,
  ),
  regexFinder(
    'password',
    new RegExp(
      `(${PROGRAM_START}(?:docker|podman|nerdctl|buildah|helm${GAP}+registry)${GAP}+login${PROGRAM_END}${SAME_COMMAND}${GAP}-p${GAP}+)(${OPTION_VALUE})`,
      'g',
    ),
    true,
  ),
  regexFinder(
    'secret',
    new RegExp(
      `(${PROGRAM_START}aws${GAP}+configure${GAP}+set${GAP}+(?:[\\w-]+\\.)?(?:aws_secret_access_key|aws_session_token)${GAP}+)(${OPTION_VALUE})`,
      'g',
    ),
    true,
  ),
  regexFinder(
    'secret',
    new RegExp(
      `(${PROGRAM_START}gh${GAP}+secret${GAP}+set${PROGRAM_END}${SAME_COMMAND}${GAP}(?:-b|--body)(?:=|${GAP}+))(${OPTION_VALUE})`,
      'g',
    ),
    true,
  ),
  assignments(),
  options(),
];

/** Adds the secrets in a text as spans, in the order the finders meet them (they may overlap). */
export function findSecrets(text: string, spans: Span[]): void {
  if (!mayHoldSecret(text)) return;
  for (const find of FINDERS) find(text, spans);
}
