// The audit log as OTLP/JSON traces (an ExportTraceServiceRequest), with the
// OpenTelemetry GenAI attribute names: each tool call is an `execute_tool`
// span; decisions, approvals and changes are spans of their own in the same
// trace (one trace per run, else per call), carrying Warden's fields.

import { createHash } from 'node:crypto';
import type { AuditEntry, JsonValue } from '../store/types.js';

type AnyValue =
  { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };

interface KeyValue {
  key: string;
  value: AnyValue;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  status: { code: number; message?: string };
}

export interface OtlpTraces {
  resourceSpans: {
    resource: { attributes: KeyValue[] };
    scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[];
  }[];
}

const SPAN_KIND_INTERNAL = 1;
const STATUS_UNSET = 0;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

function hex(text: string, bytes: number): string {
  return createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, bytes * 2);
}

function nanos(ms: number): string {
  return `${BigInt(Math.round(ms * 1000)) * 1000n}`;
}

function value(v: JsonValue): AnyValue | null {
  if (v === null) return null;
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number')
    return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { stringValue: JSON.stringify(v) };
}

function attributes(pairs: readonly [string, JsonValue | undefined][]): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, raw] of pairs) {
    if (raw === undefined) continue;
    const v = value(raw);
    if (v !== null) out.push({ key, value: v });
  }
  return out;
}

function text(entry: AuditEntry, key: string): string | undefined {
  const v = entry[key];
  return typeof v === 'string' ? v : undefined;
}

/** One span for one audit entry. */
export function spanOf(entry: AuditEntry): OtlpSpan {
  const kind = text(entry, 'kind') ?? 'call';
  const tool = text(entry, 'tool');
  const end = Date.parse(text(entry, 'occurredAt') ?? '') || 0;
  const duration = typeof entry.durationMs === 'number' ? entry.durationMs : 0;
  const trace = text(entry, 'runId') ?? text(entry, 'callId') ?? entry.id;
  const common: [string, JsonValue | undefined][] = [
    ['gen_ai.agent.id', entry.agentId],
    ['gen_ai.tool.name', entry.tool],
    ['gen_ai.tool.call.id', entry.callId],
    ['gen_ai.request.model', entry.model],
    ['warden.audit.id', entry.id],
    ['warden.audit.kind', kind],
    ['warden.audit.hash', entry.hash],
    ['warden.audit.prev_hash', entry.prevHash],
    ['warden.workspace', entry.workspace],
    ['warden.run.id', entry.runId],
    ['warden.source', entry.source],
    ['warden.decision.id', entry.decisionId],
  ];
  let name: string;
  let status: OtlpSpan['status'] = { code: STATUS_UNSET };
  let extra: [string, JsonValue | undefined][] = [];
  if (kind === 'call') {
    name = `execute_tool ${tool ?? ''}`.trim();
    const callStatus = text(entry, 'status');
    extra = [
      ['gen_ai.operation.name', 'execute_tool'],
      ['gen_ai.tool.call.arguments', entry.arguments],
      ['warden.status', entry.status],
    ];
    if (callStatus === 'Ok') status = { code: STATUS_OK };
    else if (callStatus !== undefined && callStatus !== 'Staged') {
      const message = text(entry, 'error');
      status = { code: STATUS_ERROR, ...(message === undefined ? {} : { message }) };
      extra.push(['error.type', callStatus]);
    }
  } else if (kind === 'decision') {
    name = `warden.decide ${tool ?? ''}`.trim();
    const decision = entry.decision as { [key: string]: JsonValue } | null | undefined;
    extra = [
      ['warden.decision.outcome', entry.outcome],
      ['warden.decision.decision', decision?.decision],
      ['warden.decision.rule', decision?.rule],
      ['warden.decision.scope', decision?.scope],
      ['warden.decision.reason', decision?.reason],
    ];
  } else if (kind === 'approval') {
    name = 'warden.approval';
    extra = [
      ['warden.approval.id', entry.approvalId],
      ['warden.approval.answer', entry.answer],
      ['warden.approval.by', entry.by],
      ['warden.approval.reason', entry.reason],
      ['warden.decision.outcome', entry.outcome],
    ];
  } else {
    name = `warden.change ${text(entry, 'change') ?? ''}`.trim();
    extra = [
      ['warden.change', entry.change],
      ['warden.change.by', entry.by],
      ['warden.change.details', entry.details],
    ];
  }
  return {
    traceId: hex(`trace:${trace}`, 16),
    spanId: hex(`span:${entry.id}`, 8),
    name,
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: nanos(end - duration),
    endTimeUnixNano: nanos(end),
    attributes: attributes([...extra, ...common]),
    status,
  };
}

export function toOtlp(entries: readonly AuditEntry[], version: string): OtlpTraces {
  return {
    resourceSpans: [
      {
        resource: {
          attributes: attributes([
            ['service.name', 'warden'],
            ['service.version', version],
          ]),
        },
        scopeSpans: [{ scope: { name: 'warden.audit', version }, spans: entries.map(spanOf) }],
      },
    ],
  };
}
