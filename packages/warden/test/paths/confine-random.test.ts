// Random hostile input against the one path confinement (I3, I5, I6, A6):
// random paths are refused or land inside the allowlist, and a link with a
// random target reads what the kernel reads or is refused — with an answer
// that does not change when hidden or outside files appear or vanish.

import { readFileSync, realpathSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Confinement, PathResult } from '../../src/paths/index.js';
import {
  agentFolderConfinement,
  allowAgentFolder,
  checkLexical,
  readConfined,
} from '../../src/paths/index.js';
import { expectCedarStyle } from '../support/confine-checks.js';
import {
  agentFolder,
  build,
  confineFolder,
  FOLDER,
  OUTSIDE,
  SECRET,
} from '../support/confine-fixtures.js';

const MAX = { maxBytes: 64 * 1024 };
const { base, agents, agent, outside } = confineFolder('random', { real: true });
let inspector: Confinement;

beforeAll(async () => {
  build(outside, { 'secret.txt': OUTSIDE });
  build(agents, {
    ...agentFolder('a1', {
      settings: `{"apiKey":"${SECRET}"}`,
      identity: 'I am a1',
      workspace: {
        'report.md': 'the report',
        'notes/x.md': 'notes x',
        'notes/sub': FOLDER,
        '.trash/d/x': SECRET,
      },
    }),
  });
  inspector = await agentFolderConfinement(agent);
});

function inside(root: string, rel: string): boolean {
  const abs = resolve(root, rel);
  return abs === root || abs.startsWith(root + sep);
}

describe('random hostile paths are refused or land inside the allowlist (I5)', () => {
  const alphabet = fc.constantFrom(
    '.',
    '/',
    '\\',
    '%',
    ':',
    'C',
    '\u0000',
    '\uFF0E',
    '\u3164',
    ' ',
    'a',
    'x',
    'Workspace',
    '..',
    'Identity.md',
    '.trash',
    'AgentSettings.json',
    '-Backup',
  );
  const hostile = fc.array(alphabet, { maxLength: 14 }).map((parts) => parts.join(''));

  it('the lexical check either refuses or yields a path inside the root and the allowlist', () => {
    fc.assert(
      fc.property(hostile, (input) => {
        const result = checkLexical(inspector, input);
        if (!result.ok) {
          expectCedarStyle(result.problem.message);
          return;
        }
        const { rel, segments } = result.value;
        expect(inside(inspector.root, rel)).toBe(true);
        expect(relative(inspector.root, resolve(inspector.root, rel)).split(sep)).toEqual(
          segments.length === 0 ? [''] : segments,
        );
        expect(allowAgentFolder(segments)).toBe(true);
        expect(segments.some((s) => s === '..' || s === '' || s.toLowerCase() === '.trash')).toBe(
          false,
        );
        expect([...rel].some((ch) => '%:\\\u0000\uFF0E\u3164'.includes(ch))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('a read of a random hostile path never returns a secret or an outside file', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (input) => {
        const result = await readConfined(inspector, input, MAX);
        if (!result.ok) {
          expectCedarStyle(result.problem.message);
          return;
        }
        expect(result.value.content.toString()).not.toContain(SECRET);
        expect(result.value.content.toString()).not.toContain(OUTSIDE);
        expect(inside(inspector.root, relative(inspector.root, result.value.abs))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a link with a random target reads what the kernel reads, or is refused alike (I5, I6, A6)', () => {
  const segment = fc.constantFrom(
    '..',
    '.',
    '',
    'Workspace',
    '.trash',
    'd',
    'x',
    'notes',
    'sub',
    'x.md',
    'report.md',
    'AgentSettings.json',
    'outside',
    'secret.txt',
    'r',
  );
  const target = fc.tuple(
    fc.constantFrom('', '/', `${'/'}ROOT/`, `${'/'}BASE/`),
    fc.array(segment, { minLength: 1, maxLength: 8 }),
  );

  /** Reads `Workspace/r` with the hidden `d` and the outside secret present, then with both gone. */
  async function readBothWays(): Promise<[PathResult<{ content: Buffer }>, PathResult<unknown>]> {
    const present = await readConfined(inspector, 'Workspace/r', MAX);
    renameSync(join(agent, 'Workspace', '.trash', 'd'), join(agent, 'Workspace', '.trash', 'e'));
    renameSync(join(outside, 'secret.txt'), join(outside, 'gone.txt'));
    try {
      return [present, await readConfined(inspector, 'Workspace/r', MAX)];
    } finally {
      renameSync(join(agent, 'Workspace', '.trash', 'e'), join(agent, 'Workspace', '.trash', 'd'));
      renameSync(join(outside, 'gone.txt'), join(outside, 'secret.txt'));
    }
  }

  it('never reads a hidden or outside file, and answers the same when they vanish', async () => {
    const link = join(agent, 'Workspace', 'r');
    await fc.assert(
      fc.asyncProperty(target, async ([prefix, parts]) => {
        const text = (prefix.replace('ROOT', agent.slice(1)).replace('BASE', base.slice(1)) +
          parts.join('/')) as string;
        if (text === '') return;
        symlinkSync(text, link);
        try {
          const [present, absent] = await readBothWays();
          if (present.ok) {
            const real = realpathSync(link);
            expect(inside(join(agent, 'Workspace'), relative(join(agent, 'Workspace'), real))).toBe(
              true,
            );
            expect(real).not.toContain(`${sep}.trash`);
            expect(present.value.content.toString()).toBe(readFileSync(link, 'utf8'));
          } else {
            expectCedarStyle(present.problem.message);
          }
          expect(absent.ok ? 'ok' : absent.problem).toEqual(present.ok ? 'ok' : present.problem);
        } finally {
          unlinkSync(link);
        }
      }),
      { numRuns: 300 },
    );
  });
});
