// Policy and request text (YAML or JSON) to plain values. YAML is read with the
// 1.2 core schema, so timestamps stay strings and a missing zone is seen (E4).
// A value holding text that is not Unicode (a `"\ud800"` escape) is refused,
// as every JSON body the server reads is.

import { LineCounter, parseDocument } from 'yaml';
import type { Issue, Result } from '@warden/engine';
import { parsePath } from '@warden/engine';
import { illFormedPath } from '../well-formed.js';

export function parseText(text: string): Result<unknown> {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    schema: 'core',
    uniqueKeys: true,
    prettyErrors: false,
    lineCounter: lines,
  });
  if (doc.errors.length > 0) {
    const issues: Issue[] = doc.errors.map((error) => {
      const where = lines.linePos(error.pos[0]);
      const at = where === undefined ? '' : `line ${where.line}, column ${where.col}: `;
      return {
        code: 'syntax',
        path: [],
        message: `${at}${firstLine(error.message)}`,
      } satisfies Issue;
    });
    return { ok: false, issues };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // The YAML library refuses documents whose aliases expand without bound.
    return {
      ok: false,
      issues: [
        {
          code: 'syntax',
          path: [],
          message: `cannot read the document: ${firstLine((error as Error).message)}`,
        },
      ],
    };
  }
  if (value === null || value === undefined) {
    return { ok: false, issues: [{ code: 'syntax', path: [], message: 'the document is empty' }] };
  }
  const broken = illFormedPath(value);
  if (broken !== null)
    return {
      ok: false,
      issues: [
        {
          code: 'syntax',
          path: parsePath(broken),
          message:
            'holds a lone surrogate (an escape like `\\ud800` on its own), which is not Unicode text',
        },
      ],
    };
  return { ok: true, value };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.charAt(0).toLowerCase() + line.slice(1).replace(/\.$/, '');
}
