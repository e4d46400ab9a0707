// Server-Sent Events with the token in the `Authorization` header (the
// browser's EventSource cannot send one): `fetch` and a streaming reader.

import { token } from './api.js';

/**
 * Listens to `path` until `signal` aborts; calls `onEvent(name, data)` for
 * each event (data parsed as JSON when it is) and `onState('open' | 'closed')`
 * as the stream opens and ends. Reconnects after a second when it ends
 * without being aborted.
 * @param {string} path
 * @param {{ onEvent: (name: string, data: any) => void, onState?: (state: string) => void, signal: AbortSignal }} options
 */
export function listen(path, options) {
  const { onEvent, onState = () => undefined, signal } = options;
  const run = async () => {
    while (!signal.aborted) {
      try {
        const response = await fetch(path, {
          headers: { authorization: `Bearer ${token() ?? ''}`, accept: 'text/event-stream' },
          signal,
        });
        if (!response.ok || response.body === null) {
          onState(response.status === 401 || response.status === 403 ? 'refused' : 'closed');
          if (response.status === 401 || response.status === 403) return;
        } else {
          onState('open');
          await read(response.body, onEvent, signal);
          onState('closed');
        }
      } catch {
        if (signal.aborted) return;
        onState('closed');
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void run();
}

/** @param {ReadableStream<Uint8Array>} body @param {(name: string, data: any) => void} onEvent @param {AbortSignal} signal */
async function read(body, onEvent, signal) {
  const reader = body
    .pipeThrough(/** @type {TransformStream<Uint8Array, string>} */ (new TextDecoderStream()))
    .getReader();
  let buffer = '';
  while (!signal.aborted) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      dispatch(block, onEvent);
      end = buffer.indexOf('\n\n');
    }
  }
}

/** @param {string} block @param {(name: string, data: any) => void} onEvent */
function dispatch(block, onEvent) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return;
  const text = data.join('\n');
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  onEvent(name, parsed);
}
