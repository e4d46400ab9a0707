// The built-in tool registry, the in-process choke point (G1, G5): a tool
// declares the action classes its calls may belong to and how to read its
// arguments into a request; a mutating tool that declares no class cannot be
// registered. Every call passes the gate before it runs, and every call —
// allowed, refused, failed or unknown — is recorded in the audit log.

import type { ActionClass, RequestArgs } from '@warden/engine';
import { isActionClass } from '@warden/engine';
import type { z } from 'zod';
import type { CallContext, CallOutcome, Gate, GateDecision } from '../gate/gate.js';
import type { AuditStatus } from '../store/types.js';

/** A refusal by the tool itself before or while it runs (e.g. a path outside its root): recorded as `Denied`. */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

/** What one call would do, as the gate needs to know it. */
export interface Extraction {
  /** The classes this call belongs to: a subset of the declared ones (default: all of them). */
  readonly actions?: readonly ActionClass[];
  /** A command line the call amounts to; the classifier reads it (G14c). */
  readonly command?: string;
  readonly args?: RequestArgs;
}

export interface ToolContext {
  readonly call: CallContext;
  readonly callId: string;
  readonly signal?: AbortSignal;
}

export interface ToolDefinition<A = unknown, R = unknown> {
  readonly name: string;
  readonly description: string;
  /** The classes this tool's calls may belong to (G5); leave out only with `readOnly: true`. */
  readonly actions?: readonly ActionClass[];
  /** A read: declares no class and is not gated, only recorded. */
  readonly readOnly?: boolean;
  /** Validates the arguments before anything else happens. */
  readonly schema?: z.ZodType<A>;
  /** Reads the arguments into the request's facets; absent: the declared classes with no arguments. */
  readonly extract?: (args: A, ctx: ToolContext) => Extraction | Promise<Extraction>;
  readonly run: (args: A, ctx: ToolContext) => Promise<R>;
}

/** Keeps the argument type of a definition (a helper for `register`). */
export function defineTool<A, R>(definition: ToolDefinition<A, R>): ToolDefinition<A, R> {
  return definition;
}

export type ToolResult<R> =
  | {
      readonly ok: true;
      readonly value: R;
      readonly status: 'Ok';
      readonly decision: GateDecision | null;
    }
  | {
      readonly ok: false;
      readonly status: Exclude<AuditStatus, 'Ok' | 'Staged'>;
      readonly error: string;
      readonly decision: GateDecision | null;
    };

export class ToolRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRegistrationError';
  }
}

/** The ratchet (G5): a tool either declares classes from the closed taxonomy or says it only reads. */
export function checkDefinition(definition: ToolDefinition<never, unknown>): string | null {
  const name = definition.name;
  if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(name))
    return `tool name \`${String(name)}\` is not valid: letters, digits, \`_\`, \`.\`, \`-\`, starting with a letter`;
  const actions = definition.actions ?? [];
  if (definition.readOnly === true) {
    if (actions.length > 0)
      return `tool \`${name}\` says it only reads and declares classes: pick one`;
    if (definition.extract !== undefined)
      return `tool \`${name}\` only reads: a read is not gated and has nothing to extract`;
    return null;
  }
  if (actions.length === 0)
    return `tool \`${name}\` declares no action class: a tool that changes anything must declare the classes its calls belong to (or \`readOnly: true\` for a read)`;
  const unknown = actions.find((a) => !isActionClass(a));
  if (unknown !== undefined)
    return `tool \`${name}\` declares unknown action class \`${String(unknown)}\``;
  return null;
}

interface Registered {
  readonly definition: ToolDefinition<unknown, unknown>;
}

export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  readonly actions: readonly ActionClass[];
  readonly readOnly: boolean;
}

/** What a thrown value says; a value that cannot even be turned into text still says something. */
function message(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'the tool threw a value that cannot be shown';
  }
}

export class ToolRegistry {
  private readonly tools = new Map<string, Registered>();

  constructor(
    private readonly gate: Gate,
    /** The identity every call is stamped with (I1). */
    readonly context: CallContext,
    private readonly newId: () => string,
    private readonly onAuditError?: (message: string) => void,
  ) {}

  register<A, R>(definition: ToolDefinition<A, R>): this {
    const problem = checkDefinition(definition as unknown as ToolDefinition<never, unknown>);
    if (problem !== null) throw new ToolRegistrationError(problem);
    if (this.tools.has(definition.name))
      throw new ToolRegistrationError(`tool \`${definition.name}\` is registered already`);
    this.tools.set(definition.name, {
      definition: definition as unknown as ToolDefinition<unknown, unknown>,
    });
    return this;
  }

  list(): ToolInfo[] {
    return [...this.tools.values()].map(({ definition: d }) => ({
      name: d.name,
      description: d.description,
      actions: d.actions ?? [],
      readOnly: d.readOnly === true,
    }));
  }

  /** Calls a tool through the gate; never throws for what a call can do wrong. */
  async call<R = unknown>(
    name: string,
    raw: unknown,
    options: { readonly callId?: string; readonly signal?: AbortSignal } = {},
  ): Promise<ToolResult<R>> {
    const callId = options.callId ?? this.newId();
    const ctx: ToolContext = {
      call: this.context,
      callId,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    const tool = this.tools.get(name);
    if (tool === undefined) {
      const error = `no tool \`${name}\`${this.tools.size === 0 ? '' : `: known tools are ${[...this.tools.keys()].map((t) => `\`${t}\``).join(', ')}`}`;
      return this.refuse(callId, name, raw, 'NotFound', error, null);
    }
    const definition = tool.definition;
    let args: unknown = raw;
    if (definition.schema !== undefined) {
      const parsed = definition.schema.safeParse(raw);
      if (!parsed.success) {
        const problems = parsed.error.issues.map(
          (i) => `${i.path.join('.') || 'arguments'}: ${i.message}`,
        );
        return this.refuse(
          callId,
          name,
          raw,
          'Error',
          `invalid arguments for \`${name}\`: ${problems.join('; ')}`,
          null,
        );
      }
      args = parsed.data;
    }
    let decision: GateDecision | null = null;
    if (definition.readOnly !== true) {
      let extraction: Extraction;
      try {
        extraction = definition.extract === undefined ? {} : await definition.extract(args, ctx);
      } catch (error) {
        const status = error instanceof ToolRefusal ? 'Denied' : 'Error';
        return this.refuse(
          callId,
          name,
          raw,
          status,
          `\`${name}\` cannot describe this call: ${message(error)}`,
          null,
        );
      }
      const declared = definition.actions ?? [];
      const actions = extraction.actions ?? declared;
      const stray = actions.find((a) => !declared.includes(a));
      if (stray !== undefined) {
        return this.refuse(
          callId,
          name,
          raw,
          'Denied',
          `\`${name}\` reported class \`${stray}\`, which it does not declare`,
          null,
        );
      }
      if (actions.length > 0 || extraction.command !== undefined) {
        decision = await this.gate.decide(
          this.context,
          {
            tool: name,
            ...(actions.length > 0 ? { actions } : {}),
            ...(extraction.command === undefined ? {} : { command: extraction.command }),
            ...(extraction.args === undefined ? {} : { args: extraction.args }),
            arguments: raw,
            callId,
          },
          options.signal === undefined ? {} : { signal: options.signal },
        );
        // A refused call is recorded by the gate as `Denied`.
        if (decision.outcome !== 'allow')
          return { ok: false, status: 'Denied', error: decision.reason, decision };
      }
    }
    const started = performance.now();
    let status: AuditStatus = 'Ok';
    let error: string | undefined;
    let value: unknown;
    try {
      value = await definition.run(args, ctx);
    } catch (thrown) {
      status = thrown instanceof ToolRefusal ? 'Denied' : 'Error';
      error = message(thrown);
    }
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    const recorded = await this.record({
      callId,
      decisionId: decision?.decisionId ?? null,
      tool: name,
      arguments: raw,
      status,
      durationMs,
      ...(error === undefined ? {} : { error }),
    });
    const audit = recorded === null ? {} : { auditError: recorded };
    if (status === 'Ok') return { ok: true, value: value as R, status: 'Ok', decision, ...audit };
    return {
      ok: false,
      status: status as 'Error' | 'Denied',
      error: error ?? '',
      decision,
      ...audit,
    };
  }

  private async refuse(
    callId: string,
    tool: string,
    raw: unknown,
    status: 'NotFound' | 'Error' | 'Denied',
    error: string,
    decision: GateDecision | null,
  ): Promise<ToolResult<never>> {
    const recorded = await this.record({
      callId,
      decisionId: decision?.decisionId ?? null,
      tool,
      arguments: raw,
      status,
      durationMs: null,
      error,
    });
    return {
      ok: false,
      status,
      error,
      decision,
      ...(recorded === null ? {} : { auditError: recorded }),
    };
  }

  /**
   * Records how a call ended. The call has happened (or was refused) whatever
   * the log says, so a failure to record is reported with the result, not thrown.
   */
  private async record(outcome: CallOutcome): Promise<string | null> {
    try {
      await this.gate.complete(this.context, outcome);
      return null;
    } catch (error) {
      const text = `the call's outcome could not be recorded: ${message(error)}`;
      this.onAuditError?.(text);
      return text;
    }
  }
}
