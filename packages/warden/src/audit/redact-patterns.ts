// The second layer of redaction: every pattern that finds secrets inside a string, in order
// (token formats, PEM blocks, URL passwords, password options of known programs, and the
// key-named fields of redact-fields.ts), behind one cheap pre-check.

import { assignments, headers, options, SCHEMES, xmlElements } from './redact-fields.js';
import type { RedactionKind } from './redact-markers.js';
import { MARKER_START } from './redact-markers.js';
import type { Find, Span } from './redact-span.js';

// Words that mark a key as naming a secret: the hints of the key-named finders (the last ones
// below) and, so that those finders are ever reached, anchors of the pre-check too.
const SECRET_WORDS = [
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
];

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
  'wdn_',
  'eyj',
  'hf_',
  'sg\\.',
  '_v1_',
  'pypi-',
  'dckr_pat_',
  '-----begin',
  'bearer',
  ...SECRET_WORDS,
  'sig',
  'mysql',
  'mariadb',
  'login',
  ':\\/\\/[^\\s\\uE000\\/]*@',
  '(?:-u|--user|--proxy-user)[ \\t\\uE000=]*\\\\?["\']?[^\\s\\uE000:"\']*:',
];
const PRECHECK = new RegExp(ANCHORS.join('|'), 'i');

/** False when no pattern can match: the fast path for most strings. */
export function mayHoldSecret(text: string): boolean {
  return PRECHECK.test(text);
}

/** A pattern and the lowercase words one of which its text must contain for it to run. */
interface Finder {
  readonly hints: readonly string[];
  readonly find: Find;
}

/**
 * A global regex whose match is the secret, or, with `prefixed`, whose group 1 is kept context
 * and whose remainder (group 2 onwards, to the end of the match) is the secret.
 */
function regexFinder(kind: RedactionKind, re: RegExp, prefixed = false): Find {
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
const OPTION_VALUE = `(?:"[^"\\n\\uE000]*"|'[^'\\n\\uE000]*'|[^\\s\\uE000"'\\-$<>|&;][^\\s\\uE000"']*)`;
// The rest of one command: up to a newline, a shell separator or a marker (what a marker hid
// may have held a separator).
const SAME_COMMAND = '(?:(?!\\[REDACTED)[^\\n\\r;&|])*?';
const GAP = '[ \\t\\uE000]';
const PROGRAM_START = '(?<![\\w.\\]-])';
const PROGRAM_END = '(?![\\w.[-])';

function pem(): Find {
  const label = '-----(BEGIN|END)[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----';
  const begin = label.replace('(BEGIN|END)', 'BEGIN');
  const end = label.replace('(BEGIN|END)', 'END');
  // A block cut off before its END line (a truncated file or command) is redacted to the end.
  return regexFinder(
    'private-key',
    new RegExp(`(${begin}\\s*)(\\S[\\s\\S]*?(?=\\s*${end})|\\S[\\s\\S]*)`, 'g'),
    true,
  );
}

function finder(hints: readonly string[], find: Find): Finder {
  return { hints, find };
}

/** Every pattern, most specific first: at one position, the first listed names the kind. */
const FINDERS: readonly Finder[] = [
  finder(['-----begin'], pem()),
  finder(
    ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    regexFinder('github-token', /gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}/g),
  ),
  finder(['gl'], regexFinder('gitlab-token', /gl(?:pat|dt|rt|ptt|soat|cbt)-[A-Za-z0-9_-]{20,}/g)),
  finder(
    ['akia', 'asia'],
    regexFinder(
      'aws-access-key-id',
      /(?<![A-Za-z0-9\]])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9[])/g,
    ),
  ),
  finder(
    ['xox', 'xapp-'],
    regexFinder(
      'slack-token',
      /xox(?:[abposr]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}/g,
    ),
  ),
  finder(
    ['hooks.slack.com'],
    regexFinder(
      'slack-webhook',
      /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_/-]+)/g,
      true,
    ),
  ),
  finder(
    ['_live_', '_test_', 'whsec_'],
    regexFinder('stripe-key', /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}/g),
  ),
  finder(['sk-ant-'], regexFinder('anthropic-key', /sk-ant-[A-Za-z0-9_-]{20,}/g)),
  finder(
    ['sk-'],
    regexFinder('openai-key', /(?<![A-Za-z0-9_\]-])sk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g),
  ),
  finder(['aiza'], regexFinder('google-api-key', /AIza[0-9A-Za-z_-]{35}/g)),
  finder(['npm_'], regexFinder('npm-token', /npm_[A-Za-z0-9]{36,}/g)),
  // Warden's own API tokens (contracts §8).
  finder(['wdn_'], regexFinder('warden-token', /wdn_[A-Za-z0-9_-]{40,}/g)),
  finder(
    ['eyj'],
    regexFinder('jwt', /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g),
  ),
  finder(['hf_'], regexFinder('huggingface-token', /(?<![A-Za-z0-9_\]])hf_[A-Za-z0-9]{34,}/g)),
  finder(['sg.'], regexFinder('sendgrid-key', /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/g)),
  finder(['_v1_'], regexFinder('digitalocean-token', /do[por]_v1_[a-f0-9]{64}/g)),
  finder(['pypi-'], regexFinder('pypi-token', /pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g)),
  finder(['dckr_pat_'], regexFinder('docker-hub-token', /dckr_pat_[A-Za-z0-9_-]{27,}/g)),
  finder(['authorization'], headers('authorization', '(?:proxy-)?authorization', SCHEMES)),
  finder(['cookie'], headers('cookie', '(?:set-)?cookie', '')),
  finder(
    ['bearer'],
    regexFinder(
      'bearer-token',
      /(?<![A-Za-z0-9_\]])([Bb]earer[ \t]+)((?=[A-Za-z._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*)/g,
      true,
    ),
  ),
  // `scheme://user:password@host`: the password runs to the last `@` of the authority.
  finder(
    ['://'],
    regexFinder(
      'url-password',
      /(?<![A-Za-z0-9+.\]-])([A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^\s\uE000:@/?#[\]"'<>]|\[REDACTED(?::[a-z-]+)?\])*:)([^\s\uE000/?#"'<>]+?)(?=@(?=([^\s\uE000@/?#"'<>]*))\3(?!@))/g,
      true,
    ),
  ),
  finder(
    ['curl'],
    regexFinder(
      'password',
      new RegExp(
        `(${PROGRAM_START}curl${PROGRAM_END}${SAME_COMMAND}${GAP}(?:-u|--user|--proxy-user|-U)[ \\t\\uE000=]*\\\\?["']?(?:[^\\s\\uE000:"'\\\\[]|\\[REDACTED(?::[a-z-]+)?\\])*:)([^\\s\\uE000"'\\\\]+)`,
        'g',
      ),
      true,
    ),
  ),
  // `mysql -phunter2` (attached: `-p` alone prompts, and the next word is the database).
  finder(
    ['mysql', 'mariadb'],
    regexFinder(
      'password',
      new RegExp(
        `(${PROGRAM_START}(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlpump|mysqlsh|mariadb(?:-dump|-admin|-import|-check|-show)?)${PROGRAM_END}${SAME_COMMAND}${GAP}-p)(${OPTION_VALUE})`,
        'g',
      ),
      true,
    ),
  ),
  finder(
    ['sshpass'],
    regexFinder(
      'password',
      new RegExp(
        `(${PROGRAM_START}sshpass${PROGRAM_END}${SAME_COMMAND}${GAP}-p${GAP}*)(${OPTION_VALUE})`,
        'g',
      ),
      true,
    ),
  ),
  finder(
    ['login'],
    regexFinder(
      'password',
      new RegExp(
        `(${PROGRAM_START}(?:docker|podman|nerdctl|buildah|helm${GAP}+registry)${GAP}+login${PROGRAM_END}${SAME_COMMAND}${GAP}-p${GAP}+)(${OPTION_VALUE})`,
        'g',
      ),
      true,
    ),
  ),
  finder(
    ['configure'],
    regexFinder(
      'secret',
      new RegExp(
        `(${PROGRAM_START}aws${GAP}+configure${GAP}+set${GAP}+(?:[\\w-]+\\.)?(?:aws_secret_access_key|aws_session_token)${GAP}+)(${OPTION_VALUE})`,
        'g',
      ),
      true,
    ),
  ),
  finder(
    ['secret'],
    regexFinder(
      'secret',
      new RegExp(
        `(${PROGRAM_START}gh${GAP}+secret${GAP}+set${PROGRAM_END}${SAME_COMMAND}${GAP}(?:-b|--body)(?:=|${GAP}+))(${OPTION_VALUE})`,
        'g',
      ),
      true,
    ),
  ),
  // `.netrc`: `machine api.example.com login bob password s3cret`.
  finder(
    ['machine'],
    regexFinder(
      'password',
      /((?<![\w\]-])machine[ \t]+\S+(?:[ \t]+login[ \t]+\S+)?[ \t]+password[ \t]+)((?!\[REDACTED)\S+)/g,
      true,
    ),
  ),
  finder(SECRET_WORDS, xmlElements()),
  finder([...SECRET_WORDS, 'sig'], assignments()),
  finder(SECRET_WORDS, options()),
];

/**
 * Adds the secrets in a text as spans, in the order the finders meet them (they may overlap).
 * Callers that have not asked `mayHoldSecret` yet may skip it: it only saves time.
 */
export function findSecrets(text: string, spans: Span[]): void {
  const lower = text.toLowerCase();
  for (const { hints, find } of FINDERS) {
    if (hints.some((hint) => lower.includes(hint))) find(text, spans);
  }
}
