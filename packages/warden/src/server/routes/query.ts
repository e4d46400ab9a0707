// Query and body pieces several routes share: a list limit, a value given once
// or repeated, a workspace asked for, an amount in cents.

import { z } from 'zod';

export const limit = z.coerce.number().int().min(1).max(1000).optional();

export const cents = z.number().int().min(0);

export const workspaceQuery = z.strictObject({ workspace: z.string().optional() });

/** A query parameter given once or repeated. */
export const oneOrMore = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]);

/** A parameter given once or repeated, as a list. */
export function list<T>(value: T | T[] | undefined): T[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value];
}
