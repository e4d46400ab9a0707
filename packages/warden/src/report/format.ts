// Numbers and times as the report's sentences write them: fixed formats, no
// locale, so that the same data always reads the same.

/** `143`, `12,500`. */
export function count(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = (whole ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** `96 %`. */
export function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** One decimal, for ratios and means: `7.0`, `2.3`. */
export function oneDecimal(n: number): string {
  return (Math.round(n * 10) / 10).toFixed(1);
}

/** Rounded to two decimals, for numbers in evidence. */
export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** `45 s`, `4.2 min`, `3 h`, `5.5 d`: the unit that keeps the number small. */
export function duration(ms: number): string {
  const pick = (value: number, unit: string) =>
    `${Number.isInteger(round1(value)) ? String(round1(value)) : round1(value).toFixed(1)} ${unit}`;
  if (ms < 120_000) return pick(ms / 1000, 's');
  if (ms < 120 * 60_000) return pick(ms / 60_000, 'min');
  if (ms < 48 * 3_600_000) return pick(ms / 3_600_000, 'h');
  return pick(ms / 86_400_000, 'd');
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The median of a non-empty list (the mean of the middle two for an even length). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Plain code-unit order: the same in every locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
