// Secrets named by their key: header values (`Authorization:`, `Cookie:`), `key=value` and
// `key: value` assignments, `--option value` pairs and XML elements whose key names a secret.

import { isSecretKey } from './redact-keys.js';
import type { RedactionKind } from './redact-markers.js';
import { MARKER_START } from './redact-markers.js';
import type { Find } from './redact-span.js';
import { ARG_SEPARATOR } from './redact-span.js';

/** A quote, or a backslash-escaped one in JSON inside a JSON string. */
const QUOTE = `\\\\?["']`;

export const SCHEMES =
  '(?:bearer|basic|token|digest|negotiate|ntlm|oauth|apikey|key|jwt|dpop|ssws|aws4-hmac-sha256)';

/**
 * `Authorization: <scheme> <credentials>` and `Cookie: <cookies>`, as a header, a JSON or YAML
 * field, or a query parameter. The scheme stays; the value ends at its own closing quote, at the
 * quote that opened the whole header (`-H "Authorization: …"`), at the end of a bare JSON value
 * when the name was quoted, or else at the end of the line.
 */
export function headers(kind: RedactionKind, name: string, schemes: string): Find {
  const scheme = schemes === '' ? '' : `(?:${schemes}[ \\t]+)?`;
  const re = new RegExp(
    `(?<![A-Za-z0-9_\\]])(${QUOTE}|\`)?${name}(${QUOTE})?[ \\t]*[:${kind === 'cookie' ? '' : '='}][ \\t]*(${QUOTE})?${scheme}`,
    'gi',
  );
  return (text, spans) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const before = m[1] ?? '';
      const after = m[2] ?? '';
      const opening = m[3] ?? '';
      const start = re.lastIndex;
      let end: number;
      if (opening !== '') end = closingQuote(text, start, opening);
      else if (before !== '' && after === '') end = closingQuote(text, start, before);
      else if (after !== '') end = endOf(text, start, JSON_VALUE_END);
      else end = endOf(text, start, LINE_END);
      if (end < 0) end = endOf(text, start, LINE_END);
      while (end > start && /[\s\\]/.test(text[end - 1] as string)) end -= 1;
      if (end > start && !/^(?:\$|\[REDACTED)/.test(text.slice(start, start + 9)))
        spans.push({ start, end, kind });
    }
  };
}

const LINE_END = /[\r\n\uE000]/;
const JSON_VALUE_END = /[\s\uE000,}\]]/;

function endOf(text: string, from: number, stop: RegExp): number {
  let end = from;
  while (end < text.length && !stop.test(text[end] as string)) end += 1;
  return end;
}

/** A `key=value` or `key: value` whose key names a secret (query strings, env, YAML, JSON text). */
export function assignments(): Find {
  const re =
    /(?<![A-Za-z0-9_.\]-])((?:\\?["'])?)(-{0,2}(?=[A-Za-z_])[A-Za-z0-9_.-]*?(?:pass|pwd|secret|token|key|auth|cookie|cred|dsn|conn|sig)[A-Za-z0-9_.-]*)\1[ \t]*[:=][ \t]*/gi;
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

/** `<password>s3cret</password>` in XML settings (Maven, .NET, Tomcat). */
export function xmlElements(): Find {
  const re = /<([A-Za-z_][\w.:-]*)>([^<\n]+)<\/\1>/g;
  return (text, spans) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const start = m.index + (m[1] as string).length + 2;
      const end = start + (m[2] as string).length;
      if (!isSecretKey(m[1] as string) || text.startsWith(MARKER_START, start)) continue;
      if (/^[\s\uE000]*$/.test(m[2] as string) || /^\$\{/.test(m[2] as string)) continue;
      spans.push({ start, end, kind: 'secret' });
    }
  };
}

/** `--password hunter2`, `-storepass x`: an option naming a secret followed by its value. */
export function options(): Find {
  const re =
    /(?<![\w\]-])(-{1,2}(?=[A-Za-z])[A-Za-z0-9-]*?(?:pass|pwd|secret|token|key|auth|cookie|cred|dsn|conn)[A-Za-z0-9-]*)[ \t\uE000]+/gi;
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

const UNQUOTED_END = /[\s\uE000"'`&;,<>|(){}\]]/;
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
  } else {
    end = -1;
  }
  if (end < 0) {
    // No quote, or one that is never closed: a bare value.
    quoted = false;
    end = start;
    while (end < text.length) {
      // A marker inside a value (a literal already replaced) is part of it, brackets and all.
      const close = text.startsWith(MARKER_START, end) ? text.indexOf(']', end) : -1;
      if (close >= 0) end = close + 1;
      else if (UNQUOTED_END.test(text[end] as string)) break;
      else end += 1;
    }
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
