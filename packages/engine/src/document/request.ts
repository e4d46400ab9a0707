// Action requests (contracts §2, E1, E3, E5, E31) are closed like documents:
// unknown keys, unknown classes, empty paths and invalid hosts are errors.

import { z } from 'zod';
import { ACTION_CLASSES, isActionClass } from '../model/classes.js';
import type { ActionClass } from '../model/classes.js';
import type { Issue, PathSegment, Result } from '../model/issue.js';
import { issue } from '../model/issue.js';
import type { Policy } from '../model/policy.js';
import { REQUEST_ARG_KEYS } from '../model/request.js';
import type { ActionRequest, RequestArgs } from '../model/request.js';
import { normalizeHost } from '../match/hosts.js';
import { normalizeAbsolute } from '../match/paths.js';
import { normalizeRef } from '../match/refs.js';
import { MAX_COMMAND_LENGTH } from '../shell/limits.js';
import { didYouMean } from '../util/did-you-mean.js';
import { describe, fromZod, safeParse } from './zod-issues.js';

const REQUEST_KEYS = [
  'workspace',
  'agent',
  'space',
  'mode',
  'tool',
  'actions',
  'command',
  'worktree',
  'args',
] as const;

/**
 * What one request may carry, so that no request can hold a decision up: a
 * command up to four times what the shell reader reads (longer ones are
 * unparseable, E24, and still matched word by word against restrictive
 * rules and the mode's net), and lists of values a tool really reports.
 */
export const REQUEST_LIMITS = {
  commandLength: 4 * MAX_COMMAND_LENGTH,
  listEntries: 1_024,
  valueLength: 4_096,
} as const;

const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

function tooLarge(data: {
  command?: string | undefined;
  args?:
    | {
        paths?: readonly string[] | undefined;
        refs?: readonly string[] | undefined;
        hosts?: readonly string[] | undefined;
      }
    | undefined;
}): Issue[] {
  const issues: Issue[] = [];
  if (data.command !== undefined && data.command.length > REQUEST_LIMITS.commandLength)
    issues.push(
      issue(
        'too_big',
        ['command'],
        `the command is longer than ${grouped(REQUEST_LIMITS.commandLength)} characters: a request this large is refused`,
      ),
    );
  for (const key of ['paths', 'refs', 'hosts'] as const) {
    const list = data.args?.[key];
    if (list === undefined) continue;
    if (list.length > REQUEST_LIMITS.listEntries)
      issues.push(
        issue(
          'too_big',
          ['args', key],
          `${list.length} ${key} is more than the ${grouped(REQUEST_LIMITS.listEntries)} a request may name`,
        ),
      );
    const long = list.findIndex((value) => value.length > REQUEST_LIMITS.valueLength);
    if (long >= 0)
      issues.push(
        issue(
          'too_big',
          ['args', key, long],
          `longer than ${grouped(REQUEST_LIMITS.valueLength)} characters`,
        ),
      );
  }
  return issues;
}

const argsSchema = z.strictObject({
  paths: z.array(z.string()).optional(),
  refs: z.array(z.string()).optional(),
  hosts: z.array(z.string()).optional(),
  count: z.number().int().min(0).optional(),
  cents: z.number().int().min(0).optional(),
});

const requestSchema = z.strictObject({
  workspace: z.string().min(1),
  agent: z.string().min(1),
  space: z.string().min(1).optional(),
  mode: z.string().min(1).optional(),
  tool: z.string().optional(),
  actions: z.array(z.string()).optional(),
  command: z.string().optional(),
  worktree: z.string().optional(),
  args: argsSchema.optional(),
});

function knownFields(path: readonly PathSegment[]): readonly string[] {
  if (path.length === 0) return REQUEST_KEYS;
  if (path.length === 1 && path[0] === 'args') return REQUEST_ARG_KEYS;
  return [];
}

export function validateRequest(value: unknown): Result<ActionRequest> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      issues: [issue('invalid_type', [], `expected a request (a mapping), got ${describe(value)}`)],
    };
  }
  const parsed = safeParse(requestSchema, value);
  if (!parsed.success) return { ok: false, issues: fromZod(parsed.error, [], knownFields) };
  const data = parsed.data;
  // Size first: nothing else is read of a request too large to decide quickly.
  const oversized = tooLarge(data);
  if (oversized.length > 0) return { ok: false, issues: oversized };
  const issues: Issue[] = [];

  const actions: ActionClass[] = [];
  data.actions?.forEach((name, index) => {
    if (!isActionClass(name)) {
      issues.push(
        issue(
          'unknown_class',
          ['actions', index],
          `unknown action class \`${name}\`${didYouMean(name, ACTION_CLASSES)}`,
        ),
      );
    } else if (!actions.includes(name)) actions.push(name);
  });
  if (data.command === undefined && (data.actions === undefined || data.actions.length === 0)) {
    issues.push(
      issue(
        'missing_field',
        data.actions === undefined ? [] : ['actions'],
        'a request names at least one action class in `actions`, or a `command`',
      ),
    );
  }
  if (data.command !== undefined && data.command.trim() === '') {
    issues.push(issue('invalid_value', ['command'], 'empty command'));
  }

  let worktree: string | undefined;
  if (data.worktree !== undefined) {
    if (!data.worktree.startsWith('/')) {
      issues.push(
        issue(
          'invalid_value',
          ['worktree'],
          `\`${data.worktree}\` is not an absolute path: \`worktree\` is the absolute root that relative paths refer to`,
        ),
      );
    } else worktree = normalizeAbsolute(data.worktree);
  }

  const args: { -readonly [K in keyof RequestArgs]: RequestArgs[K] } = {};
  if (data.args !== undefined) {
    const { paths, refs, hosts, count, cents } = data.args;
    if (paths !== undefined) {
      paths.forEach((path, index) => {
        if (path === '')
          issues.push(issue('invalid_value', ['args', 'paths', index], 'empty path'));
        else if (path.includes('\u0000'))
          issues.push(
            issue('invalid_value', ['args', 'paths', index], 'a path holds no NUL character'),
          );
      });
      args.paths = paths;
    }
    if (refs !== undefined) {
      refs.forEach((ref, index) => {
        if (normalizeRef(ref) === null)
          issues.push(issue('invalid_value', ['args', 'refs', index], `\`${ref}\` names no ref`));
      });
      args.refs = refs;
    }
    if (hosts !== undefined) {
      hosts.forEach((host, index) => {
        if (normalizeHost(host) === null)
          issues.push(
            issue('invalid_value', ['args', 'hosts', index], `\`${host}\` is not a valid host`),
          );
      });
      args.hosts = hosts;
    }
    if (count !== undefined) args.count = count;
    if (cents !== undefined) args.cents = cents;
  }

  if (issues.length > 0) return { ok: false, issues };
  const request: ActionRequest = {
    workspace: data.workspace,
    agent: data.agent,
    ...(data.space !== undefined ? { space: data.space } : {}),
    ...(data.mode !== undefined ? { mode: data.mode } : {}),
    ...(data.tool !== undefined ? { tool: data.tool } : {}),
    ...(data.actions !== undefined ? { actions } : {}),
    ...(data.command !== undefined ? { command: data.command } : {}),
    ...(worktree !== undefined ? { worktree } : {}),
    ...(data.args !== undefined ? { args } : {}),
  };
  return { ok: true, value: request };
}

/** A request must belong to the policy's workspace and name only its modes (E3). */
export function checkRequestAgainstPolicy(request: ActionRequest, policy: Policy): Issue[] {
  const issues: Issue[] = [];
  if (policy.workspace !== undefined && request.workspace !== policy.workspace) {
    issues.push(
      issue(
        'invalid_value',
        ['workspace'],
        `request is for workspace \`${request.workspace}\`, the policy for \`${policy.workspace}\``,
      ),
    );
  }
  if (request.mode !== undefined && !Object.hasOwn(policy.modes, request.mode)) {
    const modes = Object.keys(policy.modes);
    const known =
      modes.length === 0
        ? 'the policy defines no modes'
        : `defined modes: ${modes.map((m) => `\`${m}\``).join(', ')}`;
    issues.push(
      issue(
        'invalid_value',
        ['mode'],
        `unknown mode \`${request.mode}\`: ${known}${didYouMean(request.mode, modes)}`,
      ),
    );
  }
  return issues;
}
