// The types of the API's answers, made from their schemas, a compile-time
// check that a TypeScript type of the engine or the store fits the schema an
// answer is declared with, and a record cut down to the fields its schema shows.

import type { z } from 'zod';

/** The type, with every object and array in it read-only. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** What an answer of this schema is, read-only: builders return it, clients read it. */
export type Shown<S extends z.ZodType> = DeepReadonly<z.output<S>>;

/**
 * `true` when every value of `A` is a value the schema `S` accepts: `const
 * check: Fits<Record, typeof recordView> = true` stops compiling when the
 * record gains or changes a field the view would reject.
 */
export type Fits<A, S extends z.ZodType> = [A] extends [Shown<S>] ? true : false;

/**
 * The fields of `record` that the object schema `view` names, in the schema's
 * order: a record holding more (a secret, a document a list leaves out)
 * shows only these.
 */
export function shownFields<S extends z.ZodObject, T extends object>(
  view: S,
  record: T,
): Pick<T, keyof T & keyof z.output<S>> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(view.shape)) out[key] = (record as Record<string, unknown>)[key];
  return out as Pick<T, keyof T & keyof z.output<S>>;
}
