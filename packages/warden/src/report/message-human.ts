// `messageHuman`: a supervisor's only way to speak (I7, I10). It writes a
// message into Warden's store for the human to read — nothing is sent, run or
// changed in the world — so it declares no action class. Who wrote it comes
// from the tool's context, never from its arguments (I1).

import { z } from 'zod';
import { newId } from '../ids.js';
import type { ReportStore } from '../store/types.js';
import type { ToolDefinition } from '../tools/registry.js';
import { defineTool } from '../tools/registry.js';
import type { RedactText } from './quote.js';
import { defaultRedact } from './quote.js';

export const MESSAGE_TITLE_MAX = 200;
export const MESSAGE_BODY_MAX = 32_000;

const messageSchema = z.strictObject({
  title: z
    .string()
    .min(1, 'give the message a title')
    .max(MESSAGE_TITLE_MAX, `a title is at most ${MESSAGE_TITLE_MAX} characters`)
    .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]+$/u, 'a title is one line, without control characters')
    .describe('one line saying what the message is about'),
  body: z
    .string()
    .min(1, 'give the message a body')
    .max(MESSAGE_BODY_MAX, `a body is at most ${MESSAGE_BODY_MAX} characters`)
    .describe('Markdown: the findings with the numbers that support them'),
});
export type MessageHumanArgs = z.infer<typeof messageSchema>;

export interface MessageHumanResult {
  readonly id: string;
  readonly createdAt: string;
  readonly note: string;
}

export interface MessageHumanContext {
  /** The supervisor the tool belongs to: every message is stamped with it. */
  readonly supervisor: string;
  readonly workspace: string | null;
  readonly clock: () => number;
  readonly newId?: () => string;
  /** Secrets in a message are redacted before it is stored (default: the pattern redactor). */
  readonly redact?: RedactText;
}

export function messageHumanTool(
  store: Pick<ReportStore, 'add'>,
  ctx: MessageHumanContext,
): ToolDefinition<MessageHumanArgs, MessageHumanResult> {
  const redact = ctx.redact ?? defaultRedact;
  const id = ctx.newId ?? newId;
  return defineTool({
    name: 'messageHuman',
    description:
      'Writes a message for the human who oversees this instance (stored by Warden, read in its reports). ' +
      `It does not act: nothing is sent or changed. A title of at most ${MESSAGE_TITLE_MAX} characters; a Markdown body of at most ${MESSAGE_BODY_MAX}.`,
    // Not a read, but it acts on nothing outside Warden's own store: it declares no action
    // class, and the registry's ratchet admits a class-less tool only as `readOnly` (G5).
    readOnly: true,
    schema: messageSchema,
    run: async (args) => {
      const at = ctx.clock();
      const record = await store.add({
        id: `msg-${id().toLowerCase()}`,
        workspace: ctx.workspace,
        supervisor: ctx.supervisor,
        kind: 'message',
        title: redact(args.title),
        body: redact(args.body),
        data: null,
        windowSince: null,
        windowUntil: null,
        scheduledFor: null,
        createdAt: new Date(at).toISOString(),
      });
      if (record === null) throw new Error('the message could not be stored');
      return {
        id: record.id,
        createdAt: record.createdAt,
        note: 'stored for the human; nothing was sent anywhere',
      };
    },
  });
}
