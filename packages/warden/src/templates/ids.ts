// Template rules get readable ids (`tpl-protect-main-1`) that are unique in
// the document they join (E29): an id already taken is suffixed (`-2`, `-3`, …).

import { recordOrNull } from './args.js';

/** Every id the document writes, for rules and for mode preset rules (E29). */
export function takenIds(document: unknown): Set<string> {
  const taken = new Set<string>();
  const doc = recordOrNull(document);
  if (doc === null) return taken;
  const claim = (rules: unknown): void => {
    if (!Array.isArray(rules)) return;
    for (const rule of rules as unknown[]) {
      const id = recordOrNull(rule)?.id;
      if (typeof id === 'string') taken.add(id);
    }
  };
  claim(doc.rules);
  const modes = recordOrNull(doc.modes);
  if (modes !== null) for (const mode of Object.values(modes)) claim(recordOrNull(mode)?.preset);
  return taken;
}

/** `count` fresh ids for template `name`, none of them in `taken` (which is not changed). */
export function freshIds(name: string, count: number, taken: ReadonlySet<string>): string[] {
  const used = new Set(taken);
  const ids: string[] = [];
  for (let index = 1; index <= count; index++) {
    const base = `tpl-${name}-${index}`;
    let id = base;
    for (let suffix = 2; used.has(id); suffix++) id = `${base}-${suffix}`;
    used.add(id);
    ids.push(id);
  }
  return ids;
}
