// The inspector's six actions as in-process tools, for an agent runtime that
// calls its tools through Warden's registry: each only reads (`readOnly`, so
// it declares no action class and is recorded, not gated), and a refusal is a
// `ToolRefusal`, which the registry records as `Denied`.

import type { ToolDefinition } from '../tools/registry.js';
import { ToolRefusal, defineTool } from '../tools/registry.js';
import type { JsonObject } from './answer.js';
import { inspectorDescriptions } from './descriptions.js';
import type { Inspector } from './inspector.js';
import { ACTION_SCHEMAS, INSPECTOR_ACTIONS } from './schemas.js';

/** The six tools, named exactly as contracts §5 names them. */
export function inspectorTools(inspector: Inspector): ToolDefinition<unknown, JsonObject>[] {
  const descriptions = inspectorDescriptions(inspector.settings);
  return INSPECTOR_ACTIONS.map((name) =>
    defineTool<unknown, JsonObject>({
      name,
      description: descriptions[name],
      readOnly: true,
      schema: ACTION_SCHEMAS[name],
      run: async (args) => {
        const answer = await inspector.call(name, args);
        if (!answer.ok) throw new ToolRefusal(answer.error);
        return answer.value;
      },
    }),
  );
}
