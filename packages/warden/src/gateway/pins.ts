// A downstream tool's definition as the gateway pins it: its name,
// description and input schema, hashed in canonical JSON. Two definitions
// that differ only in key order are one; any change of wording or schema is a
// new hash, which the gateway refuses until an admin accepts it.

import { createHash } from 'node:crypto';
import { canonicalJson } from '@warden/engine';
import type { JsonValue } from '../store/types.js';

/** What the gateway pins of a tool; the rest of what a server says of it (annotations) is a hint. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string | null;
  readonly inputSchema: JsonValue;
}

export function toolDefinition(tool: {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
}): ToolDefinition {
  return {
    name: tool.name,
    description: tool.description ?? null,
    // It came as JSON from the server: no copy needed, and none that could overflow on its depth.
    inputSchema: (tool.inputSchema ?? null) as JsonValue,
  };
}

/** How deep a definition may nest: a schema deeper than this is no tool anyone can read. */
export const MAX_DEFINITION_DEPTH = 64;

/** Whether a value nests deeper than `max` (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

export function definitionHash(definition: ToolDefinition): string {
  return createHash('sha256')
    .update(canonicalJson(definition as unknown as JsonValue))
    .digest('hex');
}

/** Whether a pin lets the definition through, and if not, why, in words an agent and an admin read. */
export type PinCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The refusal of a tool whose definition changed since it was pinned. */
export function changedReason(tool: string, pinnedAt: string, hash: string): string {
  return `the definition of \`${tool}\` changed since it was pinned (${pinnedAt}); it is refused until an admin accepts the new one (\`warden pins accept ${tool}\`, new definition ${hash.slice(0, 12)})`;
}
