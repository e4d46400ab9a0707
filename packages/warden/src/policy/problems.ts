// Problems in the engine's issue shape (`code`, `path`, `message`) for what is
// not a policy: an API body, a configuration file. Zod's findings become issues
// here, with the one path formatter the server and the gateway share:
// `['rules', 3, 'action']` reads `rules[3].action`.

import type { Issue, IssueCode } from '@warden/engine';
import type { z } from 'zod';

/** A problem as a configuration reports it: an issue's path and message (its code is the reader's guess). */
export type Problem = Pick<Issue, 'path' | 'message'>;

/** `['rules', 3, 'action']` → `rules[3].action`, continuing `base` when one is given. */
export function pathOf(segments: readonly PropertyKey[], base = ''): string {
  let out = base;
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** The issue code a zod finding comes to. */
export function issueCode(issue: z.core.$ZodIssue): IssueCode {
  switch (issue.code) {
    case 'invalid_type':
      return 'invalid_type';
    case 'unrecognized_keys':
      return 'unknown_field';
    case 'too_big':
      return 'too_big';
    default:
      return 'invalid_value';
  }
}

/** Zod's message as a problem's message reads: lowercase first. */
export function lowercased(message: string): string {
  return message.replace(/^./, (ch) => ch.toLowerCase());
}

/** Every finding of a failed parse, each at its path under `base`. */
export function zodIssues(error: z.ZodError, base = ''): Issue[] {
  return error.issues.map((issue) => ({
    code: issueCode(issue),
    path: pathOf(issue.path, base),
    message: lowercased(issue.message),
  }));
}
