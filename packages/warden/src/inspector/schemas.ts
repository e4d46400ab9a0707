// The six actions' arguments (contracts §5), validated before anything is
// read: a bad argument is a refusal that says which one and why, never a
// stack trace. The same schemas describe the MCP tools and the in-process ones.

import { z } from 'zod';
import { AUDIT_STATUSES } from '../store/types.js';

/** The action names, exactly as contracts §5 spells them. */
export const INSPECTOR_ACTIONS = [
  'list_agents',
  'read_audit',
  'read_receipts',
  'read_tasks',
  'list_files',
  'read_file',
] as const;
export type InspectorAction = (typeof INSPECTOR_ACTIONS)[number];

const agent = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'required: give an agent id, as `list_agents` names it'
        : 'must be an agent id (text)',
  })
  .min(1, 'give an agent id, as `list_agents` names it')
  .max(200)
  .describe('the agent id, as `list_agents` names it');

const time = (which: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .describe(
      `${which}: an ISO time with a zone (\`2026-11-30T10:00:00Z\`), a date (\`2026-11-30\`, UTC), or a duration before now (\`30m\`, \`24h\`, \`7d\`, \`2w\`)`,
    );

const status = z.enum(AUDIT_STATUSES);

const limit = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .describe(`how many ${what} at most; capped by the supervisor's \`maxAuditEntries\``);

export const ListAgentsArgs = z.strictObject({});

export const ReadAuditArgs = z.strictObject({
  agent,
  since: time('start of the window, inclusive (default: the first entry)').optional(),
  until: time('end of the window, exclusive (default: none)').optional(),
  status: z
    .union([status, z.array(status).min(1).max(AUDIT_STATUSES.length)], {
      error: `give one of ${AUDIT_STATUSES.map((s) => `\`${s}\``).join(', ')}, or a list of them`,
    })
    .optional()
    .describe('only calls with this status, or one of these'),
  tool: z.string().min(1).max(200).optional().describe('only calls of this tool'),
  limit: limit('calls to list, newest first,').optional(),
  groupBy: z
    .enum(['tool', 'status', 'tool,status'])
    .optional()
    .describe(
      'count the calls of the whole window by tool, by status, or by both, instead of listing them (give `limit` as well to list some too)',
    ),
});
export type ReadAuditArgs = z.infer<typeof ReadAuditArgs>;

export const ReadReceiptsArgs = z.strictObject({
  agent,
  since: time('runs started at or after this time').optional(),
  until: time('runs started before this time').optional(),
  limit: limit('runs to list, newest first,').optional(),
});
export type ReadReceiptsArgs = z.infer<typeof ReadReceiptsArgs>;

export const ReadTasksArgs = z.strictObject({
  agent,
  state: z
    .enum(['open', 'done', 'overdue'])
    .optional()
    .describe('only tasks in this state; `overdue`: open with a due date in the past'),
});
export type ReadTasksArgs = z.infer<typeof ReadTasksArgs>;

const path = z.string().min(1, 'give a path').max(4096);

export const ListFilesArgs = z.strictObject({
  agent,
  path: path
    .optional()
    .describe('a folder of the agent: `Workspace` (default) or a folder below it'),
});
export type ListFilesArgs = z.infer<typeof ListFilesArgs>;

export const ReadFileArgs = z.strictObject({
  agent,
  path: path.describe('`Workspace/…`, `Identity.md` or `Soul.md`; nothing else is readable'),
});
export type ReadFileArgs = z.infer<typeof ReadFileArgs>;

/** Each action's schema, for the MCP server's `tools/list` and the in-process registry. */
export const ACTION_SCHEMAS = {
  list_agents: ListAgentsArgs,
  read_audit: ReadAuditArgs,
  read_receipts: ReadReceiptsArgs,
  read_tasks: ReadTasksArgs,
  list_files: ListFilesArgs,
  read_file: ReadFileArgs,
} as const satisfies Record<InspectorAction, z.ZodType>;

/** Lowercase first letter and no trailing period: messages the Cedar way (STYLE 8). */
function sentence(text: string): string {
  const trimmed = text.replace(/\.$/, '');
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}

/**
 * Parses an action's arguments; a missing argument object counts as `{}`.
 * A failure names every bad argument in one line, e.g.
 * ``invalid arguments for `read_audit`: `status`: invalid option …``.
 */
export function parseArgs<T>(
  action: InspectorAction,
  schema: z.ZodType<T>,
  raw: unknown,
): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string } {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length === 0 ? 'arguments' : `\`${issue.path.map(String).join('.')}\``;
    return `${where}: ${sentence(issue.message)}`;
  });
  return { ok: false, error: `invalid arguments for \`${action}\`: ${problems.join('; ')}` };
}
