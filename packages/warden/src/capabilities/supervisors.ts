// Why this file exists: supervisors (inspector.md) are agents that read,
// never act. Making one's AgentInspector and its read-only registry is a
// capability of the `Warden` facade (`warden.supervisors`), kept apart from
// the gate so that what a supervisor is handed — the store's reader side and
// the audit log's redactor, its own report store — is decided in one place.

import type { CallContext } from '../gate/gate.js';
import type { Inspector } from '../inspector/inspector.js';
import type { InstanceAgent } from '../instance/index.js';
import type { Redactor } from '../audit/redact.js';
import type { Store } from '../store/types.js';
import type { ToolRegistry } from '../tools/registry.js';

export type InspectorResult =
  | {
      readonly ok: true;
      readonly inspector: Inspector;
      readonly agent: InstanceAgent;
      readonly warnings: readonly string[];
    }
  | { readonly ok: false; readonly problems: readonly string[] };

export type SupervisorToolsResult =
  | { readonly ok: true; readonly tools: ToolRegistry; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

export class Supervisors {
  constructor(
    private readonly parts: {
      readonly store: Store;
      readonly data: string;
      readonly clock: () => number;
      /** The audit log's redactor as it is now (literals are added as agents are made). */
      readonly redactor: () => Redactor;
      /** A gated registry for one agent's tools. */
      readonly tools: (context: CallContext) => ToolRegistry;
    },
  ) {}

  /**
   * The AgentInspector for `supervisor` (inspector.md): an agent of this
   * instance (`<data>/agents/<id>/`) whose settings give it
   * `tools.agentInspector`; anything less is refused with every problem. It
   * reads this Warden's store through its reader side and redacts with the
   * audit log's redactor.
   */
  async inspector(supervisor: string): Promise<InspectorResult> {
    // Loaded on demand: the inspector reads the facade's credential helper.
    const { loadSupervisor, Inspector } = await import('../inspector/index.js');
    const loaded = await loadSupervisor(this.parts.data, supervisor);
    if (!loaded.ok) return loaded;
    const inspector = new Inspector({
      data: this.parts.data,
      store: this.parts.store,
      supervisor,
      settings: loaded.settings,
      redactor: this.parts.redactor(),
      clock: this.parts.clock,
    });
    return { ok: true, inspector, agent: loaded.agent, warnings: loaded.warnings };
  }

  /**
   * A supervisor's registry (inspector.md §4, I7, I10): the six read-only
   * inspector actions and `messageHuman`, nothing that acts.
   */
  async tools(
    supervisor: string,
    context: Omit<CallContext, 'agent'>,
  ): Promise<SupervisorToolsResult> {
    const made = await this.inspector(supervisor);
    if (!made.ok) return made;
    const { inspectorTools } = await import('../inspector/index.js');
    const { messageHumanTool } = await import('../report/message-human.js');
    const tools = this.parts.tools({ ...context, agent: supervisor });
    for (const tool of inspectorTools(made.inspector)) tools.register(tool);
    tools.register(
      messageHumanTool(this.parts.store.reports, {
        supervisor,
        workspace: made.agent.workspace ?? context.workspace,
        clock: this.parts.clock,
        redact: (text) => this.parts.redactor().redactText(text).text,
      }),
    );
    return { ok: true, tools, warnings: made.warnings };
  }
}
