// A quick look at a rule's shape, for large policies: a rule that is plainly
// well formed skips zod, whose per-object work dominates compiling 50,000
// rules. Anything this check does not accept goes to zod, which stays the
// authority for every message; a test holds that whatever passes here also
// passes zod's rule schema.

/** The fields of a rule (contracts §1); all but `when` are strings. */
export const RULE_KEYS = [
  'id',
  'scope',
  'action',
  'command',
  'decision',
  'enforcement',
  'when',
  'expiresAt',
  'origin',
  'note',
  'examples',
] as const;

/** `when` and `examples` are mappings; a rule with `examples` is left to zod. */
const STRING_FIELDS: ReadonlySet<string> = new Set(
  RULE_KEYS.filter((key) => key !== 'when' && key !== 'examples'),
);
const LIST_KEYS = new Set(['paths', 'refs', 'hosts', 'commands']);
const CAP_KEYS = new Set(['maxCount', 'maxCents']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function wellFormedWhen(when: unknown): boolean {
  if (!isPlainObject(when)) return false;
  for (const key of Object.keys(when)) {
    const value = when[key];
    if (LIST_KEYS.has(key)) {
      if (!Array.isArray(value) || value.length === 0) return false;
      for (const item of value) if (typeof item !== 'string' || item === '') return false;
    } else if (CAP_KEYS.has(key)) {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return false;
    } else return false;
  }
  return true;
}

/** Whether `raw` has exactly the shape of a rule (with `scope` only when `scoped`). */
export function wellFormedRule(raw: unknown, scoped: boolean): raw is Record<string, unknown> {
  if (!isPlainObject(raw)) return false;
  if (typeof raw.decision !== 'string') return false;
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    if (key === 'when') {
      if (!wellFormedWhen(value)) return false;
    } else if (key === 'scope' && !scoped) {
      return false;
    } else if (STRING_FIELDS.has(key)) {
      if (typeof value !== 'string' || (key === 'id' && value === '')) return false;
    } else return false;
  }
  return true;
}
