// Which characters a path may not contain: control and invisible characters,
// and lookalikes of the characters that carry path meaning (`.` `/` `\` `:` `%`).
// Each code point below is listed in exactly one set.

/** What is wrong with one character, if anything. */
export type CharProblem = 'control' | 'lookalike-dot' | 'lookalike-separator' | 'lookalike';

/**
 * Dots that do not decompose to `.` under NFKC but read as one (Unicode
 * confusables of FULL STOP, and the dot-like punctuation of other scripts).
 */
const DOTS = new Set([
  0x00b7, 0x0387, 0x06d4, 0x0701, 0x0702, 0x0970, 0x0e4f, 0x1362, 0x166e, 0x1803, 0x1809, 0x2022,
  0x2024, 0x2025, 0x2026, 0x2027, 0x2219, 0x22c5, 0x2e31, 0x2e33, 0x2e3c, 0x3002, 0x30fb, 0xa4f8,
  0xa60e, 0xfe52, 0xff0e, 0xff61, 0xff65, 0x10a50, 0x1d16d,
]);

/** Lookalikes of `/` and `\`, including the Windows best-fit mappings of `¥` and `₩` to `\`. */
const SEPARATORS = new Set([
  0x00a5, 0x0338, 0x0337, 0x1735, 0x2044, 0x2215, 0x2216, 0x2571, 0x2572, 0x27cb, 0x27cd, 0x29f5,
  0x29f8, 0x29f9, 0x2f03, 0x3033, 0x3035, 0x31d3, 0x31d4, 0x4e3f, 0x20a9, 0xfe68, 0xff0f, 0xff3c,
  0x1d23a,
]);

/** Lookalikes of `:` and `%` (streams, drives, encodings); the Armenian full stop and the Hebrew sof pasuq read as `:`. */
const OTHERS = new Set([
  0x02d0, 0x02f8, 0x0589, 0x05c3, 0x066a, 0x16ec, 0x2236, 0x205a, 0x2806, 0xa789, 0xa4fd, 0xfe13,
  0xfe30, 0xfe55, 0xfe6a, 0xff05, 0xff1a, 0x2052,
]);

const CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
/**
 * Characters that draw nothing though they are letters or marks by category:
 * default-ignorables (which include the Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0, named here as well), variation selectors, and the blank Braille
 * pattern U+2800. A name made of them looks empty or like another name.
 */
const INVISIBLE =
  /[\p{Default_Ignorable_Code_Point}\p{Variation_Selector}\u115F\u1160\u3164\uFFA0\u2800]/u;
const SPACE = /\p{Zs}/u;

/** A control, format, unassigned or invisible character: never shown raw, never in a path. */
export function isInvisible(ch: string): boolean {
  return CONTROL.test(ch) || INVISIBLE.test(ch);
}

/** Classifies one code point; `undefined` means the character may appear in a path. */
export function charProblem(ch: string): CharProblem | undefined {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x80) return cp < 0x20 || cp === 0x7f ? 'control' : undefined;
  // U+FFFD stands for bytes that are not UTF-8: such a name cannot be addressed exactly.
  if (isInvisible(ch) || cp === 0xfffd) return 'control';
  if (DOTS.has(cp)) return 'lookalike-dot';
  if (SEPARATORS.has(cp)) return 'lookalike-separator';
  if (OTHERS.has(cp) || SPACE.test(ch)) return 'lookalike';
  const folded = ch.normalize('NFKC');
  if (folded === ch) return undefined;
  if (folded.includes('.')) return 'lookalike-dot';
  if (folded.includes('/') || folded.includes('\\')) return 'lookalike-separator';
  if (/[:%\s]/u.test(folded)) return 'lookalike';
  if (isInvisible(folded)) return 'control';
  return undefined;
}

/** A combining mark, which draws itself onto the character before it. */
export function isMark(ch: string): boolean {
  return /\p{M}/u.test(ch);
}

/**
 * A comparison key that ignores case and compatibility forms, so `identity.md`,
 * `IDENTITY.MD` and `Ｉdentity.md` meet `Identity.md` (and the Kelvin sign meets `k`).
 */
export function foldKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/** Windows device names, which name a device in any folder and with any extension. */
const DEVICE_NAMES = new Set([
  'con',
  'prn',
  'aux',
  'nul',
  'conin$',
  'conout$',
  ...[...'0123456789¹²³'].flatMap((d) => [`com${d}`, `lpt${d}`]),
]);

/** `CON`, `nul.txt`, `Com1 .md`: the part before the first dot names a device. */
export function isDeviceName(segment: string): boolean {
  const stem = segment.split('.')[0] ?? '';
  return DEVICE_NAMES.has(stem.trimEnd().toLowerCase());
}
