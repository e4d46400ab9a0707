// Zod's structural findings as Warden issues: lowercase, the field in
// backticks, a suggestion for a misspelled field name.

import type { z } from 'zod';
import type { Issue, PathSegment } from '../model/issue.js';
import { issue } from '../model/issue.js';
import { didYouMean } from '../util/did-you-mean.js';

/**
 * Parses with zod; only a failing input is parsed again with its values
 * attached to the issues, which the messages quote (and which costs time).
 */
export function safeParse<T extends z.ZodType>(
  schema: T,
  value: unknown,
): ReturnType<T['safeParse']> {
  const first = schema.safeParse(value);
  return (first.success ? first : schema.safeParse(value, { reportInput: true })) as ReturnType<
    T['safeParse']
  >;
}

/** The fields allowed at a path, for "did you mean" on unknown fields. */
export type KnownFields = (path: readonly PathSegment[]) => readonly string[];

export function fromZod(
  error: z.ZodError,
  base: readonly PathSegment[],
  known: KnownFields,
): Issue[] {
  const issues: Issue[] = [];
  for (const raw of error.issues) {
    const path = [...base, ...(raw.path as PathSegment[])];
    switch (raw.code) {
      case 'unrecognized_keys':
        for (const key of raw.keys) {
          issues.push(
            issue(
              'unknown_field',
              [...path, key],
              `unknown field \`${key}\`${didYouMean(key, known(path))}`,
            ),
          );
        }
        break;
      case 'invalid_type': {
        const received = describe(raw.input);
        if (raw.input === undefined) {
          issues.push(issue('missing_field', path, `missing \`${String(path[path.length - 1])}\``));
        } else {
          issues.push(
            issue('invalid_type', path, `expected ${expectedName(raw.expected)}, got ${received}`),
          );
        }
        break;
      }
      case 'too_small':
        if (raw.origin === 'array')
          issues.push(
            issue('empty_list', path, 'empty list: omit the key or name at least one value'),
          );
        else if (raw.origin === 'string')
          issues.push(issue('invalid_value', path, 'must not be empty'));
        else issues.push(issue('invalid_value', path, `must be at least ${String(raw.minimum)}`));
        break;
      case 'invalid_value':
        issues.push(
          issue(
            'invalid_value',
            path,
            `expected ${raw.values.map((v) => `\`${String(v)}\``).join(' or ')}, got ${describe(raw.input)}`,
          ),
        );
        break;
      default:
        issues.push(
          issue('invalid_value', path, raw.message.charAt(0).toLowerCase() + raw.message.slice(1)),
        );
    }
  }
  return issues;
}

function expectedName(expected: string): string {
  switch (expected) {
    case 'array':
      return 'a list';
    case 'object':
      return 'a mapping';
    case 'int':
      return 'a whole number';
    default:
      return `a ${expected}`;
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return `a ${typeof value}`;
}
