// A stand-in for Anthropic's Messages API, so the real Claude Code CLI can run
// offline: the "model" makes the tool calls a test scripts, one per turn, and
// every request (with the tool_results Claude Code sends back) is recorded.

import type { ServerResponse } from 'node:http';
import type { FakeModel, RecordedWithResults } from './fake-model.js';
import { isRecord, json, startLoopback } from './fake-model.js';

/** One tool call the fake model makes. */
export interface ScriptedCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** What Claude Code answered to one scripted call. */
export interface ToolResult {
  readonly toolUseId: string;
  /** The result's text (text blocks joined by newlines). */
  readonly text: string;
  readonly isError: boolean;
}

/** A request, its `reply` one of `tool_use#N`, `final`, `side`, `count_tokens` or `empty`. */
export type RecordedRequest = RecordedWithResults;

/** Its `url` is the base URL to give Claude Code as `ANTHROPIC_BASE_URL`. */
export interface FakeAnthropic extends FakeModel<RecordedRequest> {
  /** The tool_results of the scripted calls, in call order, from the latest request. */
  toolResults(): ToolResult[];
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

interface Reply {
  readonly kind: string;
  readonly content: Block[];
  readonly stopReason: 'tool_use' | 'end_turn';
}

interface MessagesBody {
  readonly model?: unknown;
  readonly stream?: unknown;
  readonly tools?: unknown;
  readonly messages: unknown[];
}

interface ResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content?: unknown;
  readonly is_error?: unknown;
}

function resultBlocks(body: MessagesBody, ids: ReadonlySet<string>): ResultBlock[] {
  const found: ResultBlock[] = [];
  for (const message of body.messages) {
    if (!isRecord(message) || message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content as unknown[]) {
      if (
        isRecord(block) &&
        block.type === 'tool_result' &&
        typeof block.tool_use_id === 'string' &&
        ids.has(block.tool_use_id)
      )
        found.push(block as unknown as ResultBlock);
    }
  }
  return found;
}

function textOf(block: ResultBlock): string {
  if (typeof block.content === 'string') return block.content;
  if (!Array.isArray(block.content)) return '';
  return (block.content as unknown[])
    .filter((b): b is { type: 'text'; text: string } => isRecord(b) && b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

function usage(output: number) {
  return {
    input_tokens: 10,
    output_tokens: output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function event(res: ServerResponse, type: string, data: object): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/** The reply as server-sent events, the way the Messages API streams a message. */
function stream(res: ServerResponse, id: string, model: string, reply: Reply): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  event(res, 'message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(1),
    },
  });
  reply.content.forEach((block, index) => {
    if (block.type === 'text') {
      event(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      event(res, 'content_block_delta', {
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      event(res, 'content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      event(res, 'content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    event(res, 'content_block_stop', { index });
  });
  event(res, 'message_delta', {
    delta: { stop_reason: reply.stopReason, stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  event(res, 'message_stop', {});
  res.end();
}

/**
 * Starts the fake on 127.0.0.1. A main-loop request (one that offers tools)
 * that carries results for k of the scripted calls gets call k+1, and once all
 * have results, the final text; the reply follows the request, not a counter,
 * so a retried request gets the same answer. Requests without tools (side
 * queries) get `ok`; anything else (the CLI's startup `HEAD /`) gets `{}`.
 */
export async function startFakeAnthropic(
  calls: readonly ScriptedCall[],
  finalText = 'done',
): Promise<FakeAnthropic> {
  const scripted = calls.map((call, i) => ({
    ...call,
    id: `toolu_01Scripted${String(i + 1).padStart(14, '0')}`,
  }));
  const ids = new Set(scripted.map((call) => call.id));
  const requests: RecordedRequest[] = [];
  let latest: ResultBlock[] = [];
  let sequence = 0;

  const answeredIn = (body: MessagesBody) =>
    new Set(resultBlocks(body, ids).map((r) => r.tool_use_id)).size;

  const plan = (body: MessagesBody): Reply => {
    if (!Array.isArray(body.tools) || body.tools.length === 0)
      return { kind: 'side', content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' };
    const results = resultBlocks(body, ids);
    if (results.length >= latest.length) latest = results;
    const answered = answeredIn(body);
    const next = scripted[answered];
    if (next === undefined)
      return {
        kind: 'final',
        content: [{ type: 'text', text: finalText }],
        stopReason: 'end_turn',
      };
    return {
      kind: `tool_use#${answered + 1}`,
      content: [{ type: 'tool_use', id: next.id, name: next.name, input: next.input }],
      stopReason: 'tool_use',
    };
  };

  const server = await startLoopback(({ method, path, body, at }, res) => {
    const results =
      isRecord(body) && Array.isArray(body.messages)
        ? answeredIn(body as unknown as MessagesBody)
        : 0;
    const record = (reply: string) => requests.push({ method, path, body, reply, at, results });
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      record('count_tokens');
      return json(res, { input_tokens: 100 });
    }
    if (
      method === 'POST' &&
      path === '/v1/messages' &&
      isRecord(body) &&
      Array.isArray(body.messages)
    ) {
      const messages = body as unknown as MessagesBody;
      const reply = plan(messages);
      record(reply.kind);
      const id = `msg_fake_${++sequence}`;
      const model = typeof messages.model === 'string' ? messages.model : 'claude-fake';
      if (messages.stream === true) return stream(res, id, model, reply);
      return json(res, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: reply.content,
        stop_reason: reply.stopReason,
        stop_sequence: null,
        usage: usage(20),
      });
    }
    record('empty');
    return json(res, {});
  });

  return {
    url: server.origin,
    requests,
    toolResults: () =>
      latest.map((block) => ({
        toolUseId: block.tool_use_id,
        text: textOf(block),
        isError: block.is_error === true,
      })),
    close: () => server.close(),
  };
}
