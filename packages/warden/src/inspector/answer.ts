// What every action answers: JSON, redacted as a whole, and no longer than
// the per-response cap (I7). Redaction comes before measuring — a marker is
// longer than many secrets — and a cut answer says in `notes` that it was cut.

import type { Redactor } from '../audit/redact.js';
import type { JsonValue } from '../store/types.js';

export type JsonObject = { [key: string]: JsonValue };

/** An action's answer: the JSON value and the text it is sent as, or a refusal saying why. */
export type InspectorAnswer =
  | { readonly ok: true; readonly value: JsonObject; readonly text: string }
  | { readonly ok: false; readonly error: string };

/** The per-response cap of inspector.md I7. */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;

export function refusal(error: string): InspectorAnswer {
  return { ok: false, error };
}

/** How an answer is written: indented JSON, which a model and a human both read. */
export function serialise(value: JsonObject): string {
  return JSON.stringify(value, null, 2);
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export interface Fitting {
  readonly redactor: Redactor;
  readonly maxBytes: number;
}

/**
 * The answer with the most of its `count` parts that fits `maxBytes`: `build(k)`
 * makes the answer with the first `k` parts (it adds the note that says what
 * was cut when `k < count`) and must grow with `k`. Every candidate is
 * redacted before it is measured. When not even `build(0)` fits, the answer
 * is a refusal: nothing half-made leaves.
 */
export function fit(
  fitting: Fitting,
  count: number,
  build: (shown: number) => JsonObject,
): InspectorAnswer {
  const attempt = (k: number): { value: JsonObject; text: string } => {
    const value = fitting.redactor.redact(build(k)).value;
    return { value, text: serialise(value) };
  };
  const all = attempt(count);
  if (bytes(all.text) <= fitting.maxBytes) return { ok: true, ...all };
  let best: { value: JsonObject; text: string } | undefined;
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const candidate = attempt(mid);
    if (bytes(candidate.text) <= fitting.maxBytes) {
      best = candidate;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  if (best === undefined)
    return refusal(
      `the answer does not fit the response cap of ${kib(fitting.maxBytes)}: ask for less (a shorter window, a lower \`limit\`)`,
    );
  return { ok: true, ...best };
}

/** `256 KiB`, or bytes when it is not a whole number of KiB. */
export function kib(n: number): string {
  return n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}

/** The note for an answer that shows `shown` of `total` parts because of the response cap. */
export function capNote(what: string, shown: number, total: number, maxBytes: number): string {
  return `cut: only ${shown} of ${total} ${what} fit the response cap of ${kib(maxBytes)}; ask for fewer (a shorter window, a lower \`limit\`, a filter) to see the rest`;
}
