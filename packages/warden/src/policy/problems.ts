// Problems as Warden shows them (`code`, `path`, `message`): the engine's
// issues, whose places are data, with the place written out, and the problems
// of what is not a policy (an API body, a configuration file). Zod's findings
// become problems here. Every place is written by the engine's one path
// formatter: `['rules', 3, 'action']` reads `rules[3].action`.

import type { Issue, IssueCode } from '@warden/engine';
import { formatPath } from '@warden/engine';
import type { z } from 'zod';

/**
 * An issue as Warden's edges show it (the API's `errors`, the CLI, a file's
 * problems): the engine keeps the place as data, and here it is written out.
 */
export interface RenderedIssue {
  readonly code: IssueCode;
  /** The place, written (`rules[3].action`); empty for the whole input. */
  readonly path: string;
  readonly message: string;
}

/** The engine's issue with its place written out, continuing `base` when one is given. */
export function rendered(issue: Issue, base = ''): RenderedIssue {
  return { code: issue.code, path: formatPath(issue.path, base), message: issue.message };
}

/** Every issue rendered (see `rendered`). */
export function renderedAll(issues: readonly Issue[], base = ''): RenderedIssue[] {
  return issues.map((i) => rendered(i, base));
}

/** A problem as a configuration reports it: an issue's path and message (its code is the reader's guess). */
export type Problem = Pick<RenderedIssue, 'path' | 'message'>;

/** A zod path (its keys may be symbols) in the engine's path form, under `base`. */
export function pathOf(segments: readonly PropertyKey[], base = ''): string {
  return formatPath(
    segments.map((s) => (typeof s === 'symbol' ? String(s) : s)),
    base,
  );
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
export function zodIssues(error: z.ZodError, base = ''): RenderedIssue[] {
  return error.issues.map((issue) => ({
    code: issueCode(issue),
    path: pathOf(issue.path, base),
    message: lowercased(issue.message),
  }));
}
