// Reads policy, request and classifier files for the CLI and adapters, and
// picks the managed layer: an explicit `--managed` file, else
// WARDEN_MANAGED_POLICY (G29).

import { readFileSync } from 'node:fs';
import type {
  ActionRequest,
  ClassifierTable,
  CompiledPolicy,
  ManagedSource,
  Policy,
  PolicyKind,
  Result,
} from '@warden/engine';
import {
  formatPath,
  DEFAULT_TABLE,
  checkExamples,
  compilePolicy,
  extendClassifier,
  validatePolicy,
  validateRequest,
} from '@warden/engine';
import type { Problem, RenderedIssue } from './problems.js';
import { rendered } from './problems.js';
import { parseText } from './source.js';

/** A problem found in a named input (a file, stdin or a flag). */
export interface InputIssue extends RenderedIssue {
  readonly file?: string;
}

export type Loaded<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

/** Decodes a file's bytes, refusing any that are not UTF-8 rather than reading them as U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function readInput(file: string, stdin: () => string): Loaded<string> {
  try {
    return { ok: true, value: file === '-' ? stdin() : UTF8.decode(readFileSync(file)) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_ENCODING_INVALID_ENCODED_DATA')
      return {
        ok: false,
        issues: [
          {
            code: 'syntax',
            path: '',
            message:
              file === '-' ? 'standard input is not UTF-8 text' : `\`${file}\` is not UTF-8 text`,
            file,
          },
        ],
      };
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT'
        ? `no such file \`${file}\``
        : code === 'EISDIR'
          ? `\`${file}\` is a folder, not a file`
          : `cannot read \`${file}\`: ${(error as Error).message}`;
    return { ok: false, issues: [{ code: 'syntax', path: '', message, file }] };
  }
}

function withFile<T>(result: Result<T>, file: string): Loaded<T> {
  return result.ok
    ? result
    : { ok: false, issues: result.issues.map((i) => ({ ...rendered(i), file })) };
}

export interface LoadedPolicy {
  readonly file: string;
  readonly policy: Policy;
  readonly compiled: CompiledPolicy;
}

export function loadPolicyFile(
  file: string,
  kind: PolicyKind | 'auto',
  stdin: () => string,
): Loaded<LoadedPolicy> {
  const text = readInput(file, stdin);
  if (!text.ok) return text;
  const parsed = withFile(parseText(text.value), file);
  if (!parsed.ok) return parsed;
  const chosen = kind === 'auto' ? kindOf(parsed.value) : kind;
  const validated = withFile(validatePolicy(parsed.value, chosen), file);
  if (!validated.ok) return validated;
  const compiled = compilePolicy(validated.value);
  // A rule's examples are checked on every load: a policy that no longer decides them is refused.
  const wrong = checkExamples(compiled, { at: Date.now() });
  if (wrong.length > 0) return { ok: false, issues: wrong.map((i) => ({ ...rendered(i), file })) };
  return { ok: true, value: { file, policy: validated.value, compiled } };
}

/** A document that names no `workspace` is a managed policy, which omits it. */
function kindOf(value: unknown): PolicyKind {
  return typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !('workspace' in value)
    ? 'managed'
    : 'workspace';
}

export function loadRequest(file: string, stdin: () => string): Loaded<ActionRequest> {
  const text = readInput(file, stdin);
  if (!text.ok) return text;
  const parsed = withFile(parseText(text.value), file);
  if (!parsed.ok) return parsed;
  return withFile(validateRequest(parsed.value), file);
}

export function loadClassifier(
  file: string | undefined,
  stdin: () => string,
): Loaded<ClassifierTable> {
  if (file === undefined) return { ok: true, value: DEFAULT_TABLE };
  const text = readInput(file, stdin);
  if (!text.ok) return text;
  const parsed = withFile(parseText(text.value), file);
  if (!parsed.ok) return parsed;
  return withFile(extendClassifier(DEFAULT_TABLE, parsed.value), file);
}

export interface ManagedChoice {
  readonly file: string | null;
  readonly source: ManagedSource;
}

/** An explicit `--managed FILE` wins over WARDEN_MANAGED_POLICY (contracts §4). */
export function chooseManaged(flag: string | undefined, env: NodeJS.ProcessEnv): ManagedChoice {
  if (flag !== undefined) return { file: flag, source: 'flag' };
  const fromEnv = env.WARDEN_MANAGED_POLICY;
  if (fromEnv !== undefined && fromEnv !== '') return { file: fromEnv, source: 'env' };
  return { file: null, source: null };
}

/** A settings file (YAML or JSON) parsed, or its problems with the file named in each path. */
export function readSettingsFile(
  file: string,
):
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problems: Problem[] } {
  const text = readInput(file, () => '');
  if (!text.ok)
    return {
      ok: false,
      problems: text.issues.map((i) => ({ path: '--config', message: i.message })),
    };
  const parsed = parseText(text.value);
  if (!parsed.ok)
    return {
      ok: false,
      problems: parsed.issues.map((i) => ({
        path: i.path.length === 0 ? file : `${file}: ${formatPath(i.path)}`,
        message: i.message,
      })),
    };
  return { ok: true, value: parsed.value };
}
