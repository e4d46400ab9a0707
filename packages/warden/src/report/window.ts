// The window a report covers: a span before `now` (`24h`, `7d`, `90m`) or an
// ISO 8601 time with a zone, ending at `now`. The same spellings as the API's
// `since` parameter; the clock is an argument.

export interface ReportWindow {
  readonly sinceMs: number;
  readonly untilMs: number;
  /** How a sentence names the window: `24 h`, `7 d`, or `since 2026-11-29T07:00:00.000Z`. */
  readonly label: string;
}

export type WindowResult =
  | { readonly ok: true; readonly window: ReportWindow }
  | { readonly ok: false; readonly message: string };

const UNITS: Readonly<Record<string, readonly [number, string]>> = {
  s: [1000, 's'],
  m: [60_000, 'min'],
  h: [3_600_000, 'h'],
  d: [86_400_000, 'd'],
};

/** A span like `24h` or an ISO time with a zone, as the window ending at `now`. */
export function parseWindow(since: string, now: number): WindowResult {
  const relative = /^(\d+)\s*(s|m|h|d)$/.exec(since.trim());
  if (relative !== null) {
    const amount = Number(relative[1]);
    const [unit, name] = UNITS[relative[2] as string] as readonly [number, string];
    if (amount === 0) return { ok: false, message: `\`${since}\` is an empty window` };
    return {
      ok: true,
      window: { sinceMs: now - amount * unit, untilMs: now, label: `${amount} ${name}` },
    };
  }
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(since) || Number.isNaN(Date.parse(since)))
    return {
      ok: false,
      message: `\`${since}\` is neither a span like \`24h\` or \`7d\` nor a time with a zone (ISO 8601)`,
    };
  const sinceMs = Date.parse(since);
  if (sinceMs >= now)
    return {
      ok: false,
      message: `\`${since}\` is not before now (${new Date(now).toISOString()})`,
    };
  return {
    ok: true,
    window: { sinceMs, untilMs: now, label: `since ${new Date(sinceMs).toISOString()}` },
  };
}

/** Whether `since` names a window (for validating settings before any clock is read). */
export function windowProblem(since: string): string | null {
  // Any fixed instant after the epoch: only the spelling is checked here.
  const result = parseWindow(since, Number.MAX_SAFE_INTEGER / 2);
  return result.ok ? null : result.message;
}
