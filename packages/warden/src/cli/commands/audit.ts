// `warden audit verify|export|import`: the audit log's integrity and its
// movement between installations (contracts §4, §6). The store and the chain
// load when a subcommand runs.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ChainBreak, ChainItem, VerifyReport } from '../../audit/chain.js';
import type { AuditDraft, AuditEntry, JsonValue, Store } from '../../store/types.js';
import { DATA_FLAG, dataOptions } from '../flags.js';
import type { Io } from '../io.js';
import { fail, printJson, style, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { handler } from '../registration.js';

function verify(audit: CommandUnknownOpts) {
  return audit
    .command('verify')
    .description(
      'recompute the hash chain and name the first changed, removed or reordered entry (exit 1 when broken)',
    )
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--file <file>', 'verify an exported JSONL file instead')
    .option(
      '--head <hash>',
      'a head noted earlier (export prints it): a file must end there, the log must still hold it',
    )
    .option('--json', 'print JSON');
}

function exportLog(audit: CommandUnknownOpts) {
  return audit
    .command('export')
    .description('write the whole audit log as JSON Lines or as OTLP/JSON traces')
    .option('--format <format>', '`jsonl` or `otlp`', 'jsonl')
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--out <file>', 'write to this file instead of standard output');
}

function importLog(audit: CommandUnknownOpts) {
  return dataOptions(
    audit
      .command('import')
      .description(
        'append the entries of an exported JSONL file (its chain must verify; entries already present are skipped)',
      )
      .argument('<file>', 'the JSONL file'),
  );
}

export type VerifyOptions = OptionsOf<typeof verify>;
export type ExportOptions = OptionsOf<typeof exportLog>;
export type ImportOptions = OptionsOf<typeof importLog>;

export function registerAudit(program: CommandUnknownOpts, cli: Cli): void {
  const audit = program.command('audit').description('the audit log: integrity and movement');
  verify(audit).action(handler(cli, runVerify));
  exportLog(audit).action(async (options) =>
    cli.exit(await runExport(cli.io, options, cli.version)),
  );
  importLog(audit).action(handler(cli, runImport));
}

/** Opens the store an audit command reads; an absent SQLite file is an error, not a new log. */
async function open(
  io: Io,
  options: Pick<VerifyOptions, 'data' | 'json'>,
  create: boolean,
): Promise<Store> {
  const { openStoreFor } = await import('../open.js');
  return openStoreFor(io, options.data, {
    json: options.json === true,
    existing: create ? false : { hint: 'is it the data folder `warden serve` uses?' },
  });
}

function report(io: Io, json: boolean, result: VerifyReport, source: string): void {
  if (json) {
    printJson(io, result);
    return;
  }
  const s = style(io.color);
  if (result.ok) {
    io.out(
      `${s.green('ok')}: ${source}: ${result.entries.toLocaleString('en-US')} entries, the chain is intact (head ${result.head.slice(0, 16)}…)\n`,
    );
    return;
  }
  const total = result.breaks.length + result.unlisted;
  io.out(
    `${s.red('broken')}: ${source}: ${total.toLocaleString('en-US')} ${total === 1 ? 'break' : 'breaks'} in ${result.entries.toLocaleString('en-US')} entries\n`,
  );
  for (const broken of result.breaks) io.out(`  ${broken.message}\n`);
  if (result.unlisted > 0)
    io.out(`  … and ${result.unlisted.toLocaleString('en-US')} more breaks, not listed\n`);
}

/**
 * Output read by a pipe that closes early (`warden audit verify | head -1`)
 * ends the output, not the command: the closed pipe's error is ignored, once
 * per process, so the command finishes and exits with its own code.
 */
let pipeGuarded = false;
function tolerateClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    process.exitCode = 1;
  });
}

/** `--head HASH`: a head noted earlier (e.g. from the last export), which the chain must still end at. */
function readHead(io: Io, json: boolean, head: string | undefined): string | null {
  if (head === undefined) return null;
  if (!/^[0-9a-f]{64}$/.test(head))
    return usage(io, json, '--head', `\`${head}\` is not a head: 64 lowercase hex digits`);
  return head;
}

export async function runVerify(io: Io, options: VerifyOptions): Promise<number> {
  const [{ verifyChain }, { jsonlItems }, { MissingHead }] = await Promise.all([
    import('../../audit/chain.js'),
    import('../../audit/jsonl.js'),
    import('../../store/sql/audit.js'),
  ]);
  const json = options.json === true;
  tolerateClosedPipe();
  if (options.file !== undefined && options.data !== undefined)
    return usage(io, json, '--file', 'give either `--file` or `--data`, not both');
  if (options.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.file, 'utf8');
    } catch (error) {
      return usage(
        io,
        json,
        '--file',
        `cannot read \`${options.file}\`: ${(error as Error).message}`,
      );
    }
    const head = readHead(io, json, options.head);
    const result = await verifyChain(jsonlItems(text), head === null ? undefined : { hash: head });
    report(io, json, result, options.file);
    return result.ok ? 0 : 1;
  }
  const store = await open(io, options, false);
  try {
    const items = async function* (): AsyncIterable<ChainItem> {
      for await (const { seq, entry, columns, problem } of store.audit.scan())
        yield { entry, position: seq, columns, ...(problem === undefined ? {} : { problem }) };
    };
    // A head noted earlier must still be in the log: the log grows past it, never around it.
    const head = readHead(io, json, options.head);
    let seen = head === null;
    const watched = async function* (): AsyncIterable<ChainItem> {
      for await (const item of items()) {
        if (item.entry?.hash === head) seen = true;
        yield item;
      }
    };
    let result: VerifyReport;
    try {
      // A store without its head record is reported as a break, and the chain still checked.
      const recorded = await store.audit.head().catch((error: unknown) => {
        if (error instanceof MissingHead) return null;
        throw error;
      });
      result = await verifyChain(watched(), recorded);
    } catch (error) {
      return usage(
        io,
        json,
        '--data',
        `cannot read the audit log in ${store.location}: ${(error as Error).message}`,
      );
    }
    if (!seen) {
      const noted: ChainBreak = {
        kind: 'truncated',
        position: result.entries + 1,
        id: null,
        message: `no entry of the log has the head ${head ?? ''}: entries were removed and the chain rewritten since it was noted`,
      };
      result = {
        ...result,
        ok: false,
        broken: result.broken ?? noted,
        breaks: [...result.breaks, noted],
      };
    }
    report(io, json, result, store.location);
    return result.ok ? 0 : 1;
  } finally {
    await store.close().catch(() => undefined);
  }
}

export async function runExport(io: Io, options: ExportOptions, version: string): Promise<number> {
  const { toOtlp } = await import('../../audit/otlp.js');
  // No `--json`: what export prints is the log itself; its problems are lines on standard error.
  const json = false;
  tolerateClosedPipe();
  const format = options.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'otlp')
    return usage(io, json, '--format', `unknown format \`${format}\`: use \`jsonl\` or \`otlp\``);
  const store = await open(io, options, false);
  let count = 0;
  try {
    const lines: string[] = [];
    const entries: AuditEntry[] = [];
    let head = '0'.repeat(64);
    for await (const { entry } of store.audit.scan()) {
      head = entry.hash;
      count += 1;
      if (format === 'jsonl') lines.push(JSON.stringify(entry));
      else entries.push(entry);
    }
    const text =
      format === 'jsonl'
        ? lines.map((l) => `${l}\n`).join('')
        : `${JSON.stringify(toOtlp(entries, version))}\n`;
    if (options.out === undefined || options.out === '-') {
      io.out(text);
    } else {
      writeFileSync(options.out, text);
    }
    // The head, to keep apart from the file: `verify --file F --head H` notices lines cut from its end.
    io.err(
      `exported ${count.toLocaleString('en-US')} entries${options.out === undefined || options.out === '-' ? '' : ` to ${options.out}`} (${format}); head ${head}\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** An entry's content without the marks an import adds. */
function withoutMarks(body: { readonly [key: string]: JsonValue }): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(body)) if (key !== 'imported') out[key] = value;
  return out;
}

export async function runImport(io: Io, file: string, options: ImportOptions): Promise<number> {
  const [{ canonicalJson }, { bodyOf, verifyChain }, { draftFromEntry, jsonlItems }] =
    await Promise.all([
      import('@warden/engine'),
      import('../../audit/chain.js'),
      import('../../audit/jsonl.js'),
    ]);
  const json = options.json === true;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return usage(io, json, 'file', `cannot read \`${file}\`: ${(error as Error).message}`);
  }
  const items = jsonlItems(text);
  const checked = await verifyChain(items);
  if (!checked.ok)
    return fail(io, json, [
      {
        code: 'invalid_value',
        path: file,
        message: `not imported: ${checked.broken?.message ?? ''}`,
      },
    ]);
  const drafts: AuditDraft[] = [];
  const problems = [];
  const at = new Date(io.now()).toISOString();
  for (const item of items) {
    const entry = item.entry ?? {};
    const draft = draftFromEntry(entry, {
      file: basename(file),
      position: item.position,
      hash: String(entry.hash),
      prevHash: String(entry.prevHash),
      at,
    });
    if ('problem' in draft)
      problems.push({
        code: 'invalid_value' as const,
        path: `${file}:${item.position}`,
        message: draft.problem,
      });
    else drafts.push(draft);
  }
  if (problems.length > 0) return fail(io, json, problems);
  const store = await open(io, options, true);
  try {
    // An entry already here is skipped when it is the same entry, and refused when it is not.
    const fresh: AuditDraft[] = [];
    const conflicts = [];
    for (const draft of drafts) {
      const stored = await store.audit.get(draft.id);
      if (stored === null) {
        fresh.push(draft);
        continue;
      }
      const mine = withoutMarks(bodyOf(stored));
      const theirs = withoutMarks(draft.body);
      if (canonicalJson(mine) !== canonicalJson(theirs))
        conflicts.push({
          code: 'conflict' as const,
          path: `${file}:${String((draft.body.imported as { position?: number } | undefined)?.position ?? '')}`,
          message: `entry \`${draft.id}\` is already in the log with other content`,
        });
    }
    if (conflicts.length > 0) return fail(io, json, conflicts);
    for (let i = 0; i < fresh.length; i += 1000) await store.audit.append(fresh.slice(i, i + 1000));
    const skipped = drafts.length - fresh.length;
    if (json) printJson(io, { imported: fresh.length, skipped, into: store.location });
    else
      io.out(
        `imported ${fresh.length.toLocaleString('en-US')} entries into ${store.location}${skipped > 0 ? ` (${skipped.toLocaleString('en-US')} already present, skipped)` : ''}\n`,
      );
    return 0;
  } finally {
    await store.close();
  }
}
