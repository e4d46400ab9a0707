// Extending the classifier's table by configuration (G14c): more command
// prefixes and their classes, more wrappers, more programs for an extractor,
// other system paths. Validated like a policy: every problem with its path.

import { z } from 'zod';
import { ACTION_CLASSES, isActionClass } from '../model/classes.js';
import type { Issue, PathSegment, Result } from '../model/issue.js';
import { issue } from '../model/issue.js';
import { commandPrefixWords } from '../document/command-text.js';
import { fromZod, safeParse } from '../document/zod-issues.js';
import { didYouMean } from '../util/did-you-mean.js';
import type { ClassifierTable, ExtractorName, PrefixEntry, WrapperEntry } from './table.js';
import { EXTRACTORS } from './table.js';

const KINDS = [
  'exec',
  'shell',
  'xargs',
  'find',
  'watch',
  'flock',
  'su',
  'remote',
  'stdin',
  'parallel',
  'runner',
] as const;
const names = z.array(z.string().min(1));

const configSchema = z.strictObject({
  systemPaths: z.array(z.string().regex(/^\//, 'a system path is absolute')).optional(),
  commands: z
    .array(z.strictObject({ command: z.string().min(1), classes: z.array(z.string()).min(1) }))
    .optional(),
  wrappers: z
    .record(
      z.string(),
      z.strictObject({
        kind: z.enum(KINDS),
        flags: names.optional(),
        values: names.optional(),
        optionalValues: names.optional(),
        positionals: z.number().int().min(0).optional(),
        lookup: names.optional(),
        script: names.optional(),
        chdir: names.optional(),
        unsupported: names.optional(),
        numericFlags: z.boolean().optional(),
        argvAfter: names.optional(),
        scriptOperand: z.number().int().min(0).optional(),
        shell: z.union([z.literal(true), names]).optional(),
        files: names.optional(),
        same: z.array(z.array(z.string().min(1)).min(2)).optional(),
        defaults: z.record(z.string(), z.string()).optional(),
        assignments: z.literal(true).optional(),
        describe: z.string().optional(),
      }),
    )
    .optional(),
  programs: z.record(z.string(), z.string()).optional(),
});

const KNOWN: Record<string, readonly string[]> = {
  '': ['systemPaths', 'commands', 'wrappers', 'programs'],
};

export function extendClassifier(base: ClassifierTable, value: unknown): Result<ClassifierTable> {
  const parsed = safeParse(configSchema, value);
  if (!parsed.success) {
    return { ok: false, issues: fromZod(parsed.error, [], (path) => KNOWN[path.join('.')] ?? []) };
  }
  const config = parsed.data;
  const issues: Issue[] = [];
  const commands: PrefixEntry[] = [...base.commands];
  config.commands?.forEach((entry, index) => {
    const at: PathSegment[] = ['commands', index];
    const words = commandPrefixWords(entry.command);
    if (!Array.isArray(words)) issues.push(issue('bad_command', [...at, 'command'], words.problem));
    const classes = entry.classes.filter((cls, i) => {
      if (isActionClass(cls)) return true;
      issues.push(
        issue(
          'unknown_class',
          [...at, 'classes', i],
          `unknown action class \`${cls}\`${didYouMean(cls, ACTION_CLASSES)}`,
        ),
      );
      return false;
    });
    if (isAllClasses(classes)) commands.push({ command: entry.command, classes });
  });
  const programs: Record<string, ExtractorName> = Object.assign(
    Object.create(null) as object,
    base.programs,
  );
  for (const [program, extractor] of Object.entries(config.programs ?? {})) {
    if ((EXTRACTORS as readonly string[]).includes(extractor))
      programs[program] = extractor as ExtractorName;
    else
      issues.push(
        issue(
          'invalid_value',
          ['programs', program],
          `unknown extractor \`${extractor}\`: use one of ${EXTRACTORS.map((e) => `\`${e}\``).join(', ')}${didYouMean(extractor, EXTRACTORS)}`,
        ),
      );
  }
  const wrappers: Record<string, WrapperEntry> = Object.assign(
    Object.create(null) as object,
    base.wrappers,
  );
  for (const [name, entry] of Object.entries(config.wrappers ?? {})) {
    const { describe, ...rest } = entry;
    wrappers[name] = {
      ...stripUndefined(rest),
      describe: describe ?? `runs a command (configured)`,
    } as WrapperEntry;
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      ...base,
      systemPaths: config.systemPaths ?? base.systemPaths,
      wrappers,
      programs,
      commands,
    },
  };
}

function isAllClasses(classes: string[]): classes is PrefixEntry['classes'][number][] {
  return classes.every(isActionClass);
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
