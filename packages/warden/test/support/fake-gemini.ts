// A stand-in for the Gemini API (generativelanguage v1beta), so the real
// Gemini CLI can run offline: the "model" makes the function calls a test
// scripts, one per turn, and every request (with the functionResponses Gemini
// CLI sends back) is recorded.

import type { FakeModel, RecordedWithResults } from './fake-model.js';
import { isRecord, json, startLoopback } from './fake-model.js';

/** One function call the fake model makes. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** What Gemini CLI answered to one scripted call: `response` is `{output}` or `{error}`. */
export interface FunctionResponse {
  readonly id?: string;
  readonly name: string;
  readonly response: { readonly output?: unknown; readonly error?: unknown } & Record<
    string,
    unknown
  >;
}

/**
 * A request, its `reply` one of `call#N`, `final`, `side`, `side-json`,
 * `count_tokens` or `empty`, its `results` the scripted calls it carries
 * responses for.
 */
export type RecordedRequest = RecordedWithResults;

/** Its `url` is the base URL to give Gemini CLI as `GOOGLE_GEMINI_BASE_URL`. */
export interface FakeGemini extends FakeModel<RecordedRequest> {
  /** The functionResponses to the scripted calls, in call order, from the latest request. */
  functionResponses(): FunctionResponse[];
  /** The names of the tools Gemini CLI offered the model in its first main-loop request. */
  offeredTools(): string[];
}

interface GenerateBody {
  readonly contents: unknown[];
  readonly tools?: unknown;
  readonly generationConfig?: unknown;
}

function declaredNames(body: GenerateBody): string[] {
  const names: string[] = [];
  if (!Array.isArray(body.tools)) return names;
  for (const tool of body.tools as unknown[]) {
    if (!isRecord(tool) || !Array.isArray(tool.functionDeclarations)) continue;
    for (const declaration of tool.functionDeclarations as unknown[])
      if (isRecord(declaration) && typeof declaration.name === 'string')
        names.push(declaration.name);
  }
  return names;
}

/** The functionResponse parts, in conversation order, that answer the scripted calls. */
function responsesIn(body: GenerateBody, ids: ReadonlySet<string>): FunctionResponse[] {
  const found: FunctionResponse[] = [];
  for (const content of body.contents) {
    if (!isRecord(content) || !Array.isArray(content.parts)) continue;
    for (const part of content.parts as unknown[]) {
      if (!isRecord(part) || !isRecord(part.functionResponse)) continue;
      const response = part.functionResponse;
      if (typeof response.id === 'string' && !ids.has(response.id)) continue;
      found.push(response as unknown as FunctionResponse);
    }
  }
  return found;
}

/** A value that fits a JSON schema: its first enum value, `ok`, the minimum, false or empty. */
function fromSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return 'ok';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = typeof schema.type === 'string' ? schema.type.toLowerCase() : '';
  if (type === 'object' || isRecord(schema.properties)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(isRecord(schema.properties) ? schema.properties : {}))
      out[key] = fromSchema(value);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  // The router reads a `complexity_score` of 0 as invalid: numbers get their minimum or 1.
  if (type === 'number' || type === 'integer')
    return typeof schema.minimum === 'number' ? schema.minimum : 1;
  return 'ok';
}

/**
 * Starts the fake on 127.0.0.1. A main-loop request (one that offers function
 * declarations) that carries responses to k of the scripted calls gets call
 * k+1, and once all have responses, the final text: the reply follows the
 * request, not a counter, so a retried request gets the same answer. A side
 * request without tools (the next-speaker check, routing) that asks for JSON
 * gets an object built from its schema, another `ok`; `:countTokens` gets 100.
 */
export async function startFakeGemini(
  calls: readonly ScriptedCall[],
  finalText = 'done',
): Promise<FakeGemini> {
  const scripted = calls.map((call, i) => ({ ...call, id: `fake-call-${i + 1}` }));
  const ids = new Set(scripted.map((call) => call.id));
  const requests: RecordedRequest[] = [];
  let latest: FunctionResponse[] = [];
  let offered: string[] | null = null;

  const plan = (body: GenerateBody): { kind: string; parts: unknown[] } => {
    const names = declaredNames(body);
    if (names.length === 0) {
      const config = isRecord(body.generationConfig) ? body.generationConfig : {};
      if (config.responseMimeType === 'application/json')
        return {
          kind: 'side-json',
          parts: [
            {
              text: JSON.stringify(fromSchema(config.responseJsonSchema ?? config.responseSchema)),
            },
          ],
        };
      return { kind: 'side', parts: [{ text: 'ok' }] };
    }
    offered ??= names;
    const responses = responsesIn(body, ids);
    if (responses.length >= latest.length) latest = responses;
    const next = scripted[responses.length];
    if (next === undefined) return { kind: 'final', parts: [{ text: finalText }] };
    return {
      kind: `call#${responses.length + 1}${names.includes(next.name) ? '' : ' (not offered)'}`,
      parts: [{ functionCall: { id: next.id, name: next.name, args: next.args } }],
    };
  };

  const server = await startLoopback(({ method, path, body, at }, res) => {
    const generate = isRecord(body) && Array.isArray(body.contents);
    const results = generate ? responsesIn(body as unknown as GenerateBody, ids).length : 0;
    const record = (reply: string) => requests.push({ method, path, body, reply, at, results });
    const route = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(
      path,
    );
    if (method === 'POST' && route?.[2] === 'countTokens') {
      record('count_tokens');
      return json(res, { totalTokens: 100 });
    }
    if (method === 'POST' && route !== null && generate) {
      const reply = plan(body as unknown as GenerateBody);
      record(reply.kind);
      const answer = {
        candidates: [
          { content: { role: 'model', parts: reply.parts }, finishReason: 'STOP', index: 0 },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
        modelVersion: decodeURIComponent(route[1] ?? 'gemini'),
        responseId: `fake-${at}-${requests.length}`,
      };
      if (route[2] === 'streamGenerateContent') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
        return;
      }
      return json(res, answer);
    }
    record('empty');
    return json(res, {});
  });

  return {
    url: server.origin,
    requests,
    functionResponses: () => latest,
    offeredTools: () => offered ?? [],
    close: () => server.close(),
  };
}
