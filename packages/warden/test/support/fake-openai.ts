// A stand-in for OpenAI's Responses API, so the real Codex CLI can run
// offline: the "model" makes the tool calls a test scripts, one after the
// other, and every request (with the tool outputs Codex sends back) is
// recorded.

import type { ServerResponse } from 'node:http';
import type { FakeModel, Recorded } from './fake-model.js';
import { isRecord, json, startLoopback } from './fake-model.js';

/** One tool call the fake model makes. */
export type ScriptedCodexCall =
  /** A function tool: `exec_command` `{cmd}`, or an MCP tool with its `namespace` (`mcp__fake`). */
  | {
      readonly name: string;
      readonly arguments: Record<string, unknown>;
      readonly namespace?: string;
    }
  /** A freeform tool: `apply_patch` with the raw patch. */
  | { readonly custom: 'apply_patch'; readonly input: string };

/** What Codex sent back for one scripted call. */
export interface ToolOutput {
  readonly callId: string;
  /** `function_call_output` or `custom_tool_call_output`. */
  readonly type: string;
  readonly text: string;
}

/** A request, its `reply` one of `tool_call#N`, `final`, `side`, `models` or `empty`. */
export type RecordedResponse = Recorded;

/** Its `url` is the provider's `base_url` (Codex appends `/responses`). */
export interface FakeOpenAi extends FakeModel<RecordedResponse> {
  /** The outputs of the scripted calls, in call order, from the latest request. */
  toolOutputs(): ToolOutput[];
}

function textOf(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output))
    return output
      .map((b: unknown) => (isRecord(b) && typeof b.text === 'string' ? b.text : JSON.stringify(b)))
      .join('\n');
  return JSON.stringify(output);
}

function usage() {
  return {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 30,
  };
}

/**
 * Starts the fake on 127.0.0.1. A main-loop request (one that offers tools)
 * that carries outputs for k of the scripted calls gets call k+1, and once all
 * have outputs, the final text; the reply follows the request, not a counter.
 * Requests without tools get `ok`; anything else `{}`. Replies are streamed
 * (server-sent events), as Codex always asks.
 */
export async function startFakeOpenAi(
  calls: readonly ScriptedCodexCall[],
  finalText = 'done',
): Promise<FakeOpenAi> {
  const scripted = calls.map((call, i) => ({
    call,
    id: `call_scripted_${String(i + 1).padStart(4, '0')}`,
  }));
  const ids = new Set(scripted.map((s) => s.id));
  const requests: RecordedResponse[] = [];
  let latest: ToolOutput[] = [];
  let sequence = 0;

  const outputsIn = (body: Record<string, unknown>): ToolOutput[] => {
    const found: ToolOutput[] = [];
    for (const item of Array.isArray(body.input) ? (body.input as unknown[]) : [])
      if (
        isRecord(item) &&
        typeof item.type === 'string' &&
        item.type.endsWith('_output') &&
        typeof item.call_id === 'string' &&
        ids.has(item.call_id)
      )
        found.push({ callId: item.call_id, type: item.type, text: textOf(item.output) });
    return found;
  };

  const itemFor = (s: (typeof scripted)[number]): Record<string, unknown> =>
    'custom' in s.call
      ? {
          type: 'custom_tool_call',
          id: `ctc_${s.id}`,
          status: 'completed',
          call_id: s.id,
          name: s.call.custom,
          input: s.call.input,
        }
      : {
          type: 'function_call',
          id: `fc_${s.id}`,
          status: 'completed',
          call_id: s.id,
          name: s.call.name,
          arguments: JSON.stringify(s.call.arguments),
          ...(s.call.namespace === undefined ? {} : { namespace: s.call.namespace }),
        };

  const textItem = (text: string) => ({
    type: 'message',
    id: `msg_fake_${++sequence}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  });

  const plan = (body: Record<string, unknown>): { kind: string; items: object[] } => {
    if (!Array.isArray(body.tools) || body.tools.length === 0)
      return { kind: 'side', items: [textItem('ok')] };
    const outputs = outputsIn(body);
    if (outputs.length >= latest.length) latest = outputs;
    const answered = new Set(outputs.map((o) => o.callId)).size;
    const next = scripted[answered];
    if (next === undefined) return { kind: 'final', items: [textItem(finalText)] };
    return { kind: `tool_call#${answered + 1}`, items: [itemFor(next)] };
  };

  const sse = (res: ServerResponse, data: Record<string, unknown>) =>
    res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);

  const response = (id: string, model: string, status: string, output: object[]) => ({
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    usage: usage(),
  });

  const server = await startLoopback(({ method, path, body, at }, res) => {
    const record = (reply: string) => requests.push({ method, path, reply, at });
    if (
      method === 'POST' &&
      path.endsWith('/responses') &&
      isRecord(body) &&
      Array.isArray(body.input)
    ) {
      const p = plan(body);
      record(p.kind);
      const model = typeof body.model === 'string' ? body.model : 'fake-model';
      const id = `resp_fake_${++sequence}`;
      if (body.stream === false) {
        return json(res, response(id, model, 'completed', p.items));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let n = 0;
      sse(res, {
        type: 'response.created',
        sequence_number: n++,
        response: { ...response(id, model, 'in_progress', []), usage: null },
      });
      p.items.forEach((item, output_index) => {
        sse(res, {
          type: 'response.output_item.added',
          sequence_number: n++,
          output_index,
          item,
        });
        const message = item as { type?: string; id?: string; content?: { text: string }[] };
        if (message.type === 'message')
          sse(res, {
            type: 'response.output_text.delta',
            sequence_number: n++,
            item_id: message.id,
            output_index,
            content_index: 0,
            delta: message.content?.[0]?.text ?? '',
          });
        sse(res, { type: 'response.output_item.done', sequence_number: n++, output_index, item });
      });
      sse(res, {
        type: 'response.completed',
        sequence_number: n++,
        response: response(id, model, 'completed', p.items),
      });
      res.end();
      return;
    }
    if (method === 'GET' && path.endsWith('/models')) {
      record('models');
      return json(res, { object: 'list', data: [], models: [] });
    }
    record('empty');
    return json(res, {});
  });
  return {
    url: `${server.origin}/v1`,
    requests,
    toolOutputs: () => [...latest],
    close: () => server.close(),
  };
}
