// Timestamps are ISO 8601 with a zone (E4, E31): a local time is ambiguous
// across the machines that read a policy, so it is refused.

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** Epoch milliseconds, or a message saying what is wrong with the text. */
export function parseTimestamp(text: string): number | { problem: string } {
  const match = ISO.exec(text);
  if (match === null) {
    if (LOCAL.test(text))
      return {
        problem: `timestamp \`${text}\` has no zone: add \`Z\` or an offset like \`+02:00\``,
      };
    if (DATE_ONLY.test(text))
      return {
        problem: `\`${text}\` is a date without a time and zone: write e.g. \`${text}T00:00:00Z\``,
      };
    return { problem: `\`${text}\` is not an ISO 8601 timestamp like \`2026-12-01T08:00:00Z\`` };
  }
  const [, y, mo, d, h, mi, s] = match.map((part) => part ?? '');
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s || '0') > 59
  ) {
    return { problem: `\`${text}\` is not a valid date and time` };
  }
  const zone = (match[8] ?? 'Z').replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const normalized = `${y}-${mo}-${d}T${h}:${mi}:${s || '00'}${(match[7] ?? '').slice(0, 4)}${zone.toUpperCase()}`;
  const ms = Date.parse(normalized);
  if (Number.isNaN(ms)) return { problem: `\`${text}\` is not a valid date and time` };
  return ms;
}
