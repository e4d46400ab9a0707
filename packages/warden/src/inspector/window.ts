// A time window from `since`/`until` as a supervisor writes them: an ISO time
// with a zone, a date (UTC), or a duration before now (`24h`). A time without
// a zone is refused rather than read in the server's zone, which the
// supervisor cannot see.

import { quote } from '../paths/problem.js';

export interface TimeWindow {
  /** Inclusive start, in ms; absent: from the beginning. */
  readonly sinceMs?: number;
  /** Exclusive end, in ms; absent: no end. */
  readonly untilMs?: number;
  /** The window as ISO times, for the answer (null: open). */
  readonly since: string | null;
  readonly until: string | null;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** The range of a JavaScript Date (±100 000 000 days around 1970). */
const MAX_TIME_MS = 8.64e15;
const DURATION = /^(\d{1,6})([mhdw])$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** One bound as ms, or why it is not a time. */
export function parseTime(
  name: string,
  text: string,
  now: number,
): { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly error: string } {
  const duration = DURATION.exec(text);
  if (duration !== null) {
    const [, amount, unit] = duration;
    const ms = now - Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
    // Before the first time a Date can hold, the window has no start to name.
    if (ms >= -MAX_TIME_MS) return { ok: true, ms };
  }
  if (ISO_DATE.test(text) || ISO_TIME.test(text)) {
    const ms = Date.parse(ISO_DATE.test(text) ? `${text}T00:00:00Z` : text);
    if (Number.isFinite(ms)) return { ok: true, ms };
  }
  return {
    ok: false,
    error: `\`${name}\`: ${quote(text)} is not a time: give an ISO time with a zone (\`2026-11-30T10:00:00Z\`), a date (\`2026-11-30\`), or a duration before now (\`30m\`, \`24h\`, \`7d\`, \`2w\`)`,
  };
}

/** The window `since`..`until`; refused when a bound is no time or the window is empty. */
export function parseWindow(
  since: string | undefined,
  until: string | undefined,
  now: number,
):
  | { readonly ok: true; readonly value: TimeWindow }
  | { readonly ok: false; readonly error: string } {
  const from = since === undefined ? undefined : parseTime('since', since, now);
  if (from !== undefined && !from.ok) return from;
  const to = until === undefined ? undefined : parseTime('until', until, now);
  if (to !== undefined && !to.ok) return to;
  const sinceMs = from?.ms;
  const untilMs = to?.ms;
  if (sinceMs !== undefined && untilMs !== undefined && sinceMs >= untilMs) {
    return {
      ok: false,
      error: `the window is empty: \`since\` (${new Date(sinceMs).toISOString()}) is not before \`until\` (${new Date(untilMs).toISOString()})`,
    };
  }
  return {
    ok: true,
    value: {
      ...(sinceMs === undefined ? {} : { sinceMs }),
      ...(untilMs === undefined ? {} : { untilMs }),
      since: sinceMs === undefined ? null : new Date(sinceMs).toISOString(),
      until: untilMs === undefined ? null : new Date(untilMs).toISOString(),
    },
  };
}
