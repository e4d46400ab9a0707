// Text that is not Unicode is refused where it comes in. A string holding a
// lone surrogate ("\udfff") has no UTF-8 form: a database stores it as
// something else (U+FFFD), so what was hashed and what is read back would
// differ, and an agent could make the audit log look tampered with. Every
// JSON body the server reads, the hook's input and the gateway's tool
// arguments pass through here first.

interface WellFormed {
  isWellFormed(): boolean;
}

/** Whether a string is well-formed Unicode (no lone surrogate). */
export function isWellFormed(text: string): boolean {
  return (text as unknown as WellFormed).isWellFormed();
}

/** The text with each lone surrogate replaced by U+FFFD, as a database stores it. */
export function wellFormed(text: string): string {
  return isWellFormed(text) ? text : text.replace(/\p{Cs}/gu, '\ufffd');
}

/**
 * Text as every store can hold it in a plain column: a lone surrogate, and
 * U+0000 (which a Postgres `text` refuses where SQLite keeps it), become
 * U+FFFD, so a value reads back the same on either backend.
 */
export function storableText(text: string): string {
  const fixed = wellFormed(text);
  return fixed.includes('\u0000') ? fixed.split('\u0000').join('\ufffd') : fixed;
}

/**
 * The path (`arguments.items[2].name`) of the first string or key in a JSON
 * value that is not well-formed Unicode; null when there is none. Walks
 * without recursion, so no nesting depth can overflow the stack.
 */
export function illFormedPath(value: unknown, root = ''): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [item, path] = stack.pop() as [unknown, string];
    if (typeof item === 'string') {
      if (!isWellFormed(item)) return path;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}[${i}]`]);
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const at = path === '' ? key : `${path}.${key}`;
        if (!isWellFormed(key)) return wellFormed(at);
        stack.push([(item as Record<string, unknown>)[key], at]);
      }
    }
  }
  return null;
}

/** A sentence for a refused value, or null when it is well-formed throughout. */
export function illFormedProblem(value: unknown, what: string, root = ''): string | null {
  const path = illFormedPath(value, root);
  if (path === null) return null;
  return `${what}${path === '' ? '' : ` (at \`${path}\`)`} holds text that is not valid Unicode (a lone surrogate): it is refused, because it could not be recorded as it was sent`;
}
