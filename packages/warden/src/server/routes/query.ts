// Query and body pieces several routes share: a list limit, a value given once
// or repeated, a workspace asked for, an amount in cents, and the optional
// fields a call gave, passed on as they came.

import { z } from 'zod';

/** How many items a list answers at the most, asked for in its query: up to `max`. */
export const limitUpTo = (max: number) => z.coerce.number().int().min(1).max(max).optional();

export const limit = limitUpTo(1000);

export const cents = z.number().int().min(0);

export const workspaceQuery = z.strictObject({ workspace: z.string().optional() });

/** A query parameter given once or repeated. */
export const oneOrMore = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]);

/** A parameter given once or repeated, as a list. */
export function list<T>(value: T | T[] | undefined): T[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value];
}

/**
 * The named fields of a query or a body that the call gave, under their own
 * names; one it left out stays out (not `undefined`), as the store's and the
 * Warden's optional fields want.
 */
export function given<T extends object, K extends keyof T>(
  from: T,
  ...keys: readonly K[]
): { [P in K]?: Exclude<T[P], undefined> } {
  const out: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const key of keys)
    if (from[key] !== undefined) out[key] = from[key] as Exclude<T[K], undefined>;
  return out;
}
