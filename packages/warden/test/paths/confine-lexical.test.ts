// The pure half of the one path confinement (I5): which paths the text rules
// refuse before the disk is asked (A1, A6), which they accept and how they
// normalise them, and how a message shows what it quotes.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Confinement, PathCode } from '../../src/paths/index.js';
import {
  agentFolderConfinement,
  checkLexical,
  quote,
  worktreeConfinement,
} from '../../src/paths/index.js';
import { refusedAs } from '../support/confine-checks.js';
import { build, confineFolder, FOLDER } from '../support/confine-fixtures.js';

const { base } = confineFolder('lexical');
let inspector: Confinement;

beforeAll(async () => {
  build(base, { agent: FOLDER });
  inspector = await agentFolderConfinement(join(base, 'agent'));
});

describe('the lexical check refuses hostile paths before touching the disk (I5)', () => {
  const cases: [label: string, input: string, code: PathCode][] = [
    [
      'a `..` detour through Workspace is refused (A1, A6)',
      'Workspace/../AgentSettings.json',
      'traversal',
    ],
    ['a leading `..` is refused (A6)', '../AgentSettings.json', 'traversal'],
    ['a `..` after a `.` is refused, not resolved', 'a/./../../x', 'traversal'],
    ['a `..` that would stay inside is still refused', 'Workspace/notes/../report.md', 'traversal'],
    ['an absolute POSIX path is refused (A1)', '/etc/passwd', 'absolute'],
    ['an absolute Windows path with a backslash is refused', 'C:\\x', 'drive'],
    ['an absolute Windows path with a slash is refused', 'C:/x', 'drive'],
    ['a drive-relative path is refused', 'C:x', 'drive'],
    ['a root-relative Windows path is refused', '\\x', 'absolute'],
    ['a UNC path with backslashes is refused', '\\\\server\\share', 'unc'],
    ['a UNC path with slashes is refused', '//server/share', 'unc'],
    ['a Win32 file namespace path is refused', '\\\\?\\C:\\x', 'device'],
    ['a device namespace pipe is refused', '\\\\.\\pipe\\x', 'device'],
    ['a device namespace path with slashes is refused', '//./x', 'device'],
    ['a Windows device name is refused in any folder', 'Workspace/CON', 'device'],
    ['a Windows device name with an extension is refused', 'Workspace/nul.txt', 'device'],
    ['an alternate data stream is refused', 'Workspace/file:stream', 'stream'],
    ['the default data stream is refused', 'Workspace/file::$DATA', 'stream'],
    [
      'the prefix trap `Workspace-Backup` is not `Workspace` (A6)',
      'Workspace-Backup/x.md',
      'not-allowed',
    ],
    ['a file beside the allowlist is refused (I3)', 'AgentSettings.json', 'not-allowed'],
    ['a file added tomorrow is refused: it is an allowlist (I3)', 'history.log', 'not-allowed'],
    ['the agent folder itself cannot be listed or read', '.', 'not-allowed'],
    ['an encoded dot is refused, not decoded', 'Workspace/%2e%2e/AgentSettings.json', 'percent'],
    ['any `%` is refused', 'Workspace/100%.md', 'percent'],
    ['a fullwidth dot is refused', 'Workspace/\uFF0E\uFF0E/AgentSettings.json', 'lookalike-dot'],
    ['a one dot leader is refused', 'Workspace/\u2024\u2024/x', 'lookalike-dot'],
    ['a small full stop is refused', 'Workspace/a\uFE52md', 'lookalike-dot'],
    ['an ideographic full stop is refused', 'Workspace/a\u3002md', 'lookalike-dot'],
    ['a halfwidth ideographic full stop is refused', 'Workspace/a\uFF61md', 'lookalike-dot'],
    ['a two dot leader is refused', 'Workspace/\u2025/x', 'lookalike-dot'],
    ['a combining mark on a dot is refused', 'Workspace/a.\u0301b', 'lookalike-dot'],
    ['an Armenian full stop looks like `:` (I5)', 'Workspace/a\u0589b', 'lookalike'],
    ['a Hebrew sof pasuq looks like `:` (I5)', 'Workspace/a\u05C3b', 'lookalike'],
    ['a division slash is refused', 'Workspace\u2215x', 'lookalike-separator'],
    ['a fullwidth solidus is refused', 'Workspace\uFF0Fx', 'lookalike-separator'],
    ['a fullwidth reverse solidus is refused', 'Workspace\uFF3Cx', 'lookalike-separator'],
    ['a fraction slash is refused', 'Workspace\u2044x', 'lookalike-separator'],
    ['a yen sign, a best-fit backslash, is refused', 'Workspace\u00A5x', 'lookalike-separator'],
    ['a fullwidth colon is refused', 'Workspace/a\uFF1Astream', 'lookalike'],
    ['a fullwidth percent is refused', 'Workspace/\uFF052e', 'lookalike'],
    ['a no-break space is refused', 'Workspace/a\u00A0b', 'lookalike'],
    ['a backslash is refused', 'Workspace\\report.md', 'backslash'],
    ['a trailing dot is refused', 'Identity.md.', 'trailing'],
    ['a trailing space is refused', 'Soul.md ', 'trailing'],
    ['a trailing dot inside the path is refused', 'Workspace./report.md', 'trailing'],
    ['three dots are refused', 'Workspace/.../x', 'trailing'],
    ['a lowercase allowlisted file is a case alias', 'identity.md', 'case-alias'],
    ['an uppercase Workspace is a case alias', 'WORKSPACE/x', 'case-alias'],
    ['a lowercase Workspace is a case alias', 'workspace/x', 'case-alias'],
    ['a fullwidth letter in a known name is an alias', '\uFF37orkspace/x', 'case-alias'],
    ['the Kelvin sign is not a k', 'Wor\u212Aspace/x', 'case-alias'],
    ['a NUL byte is refused', 'Workspace/report.md\u0000.txt', 'control'],
    ['a newline is refused', 'Workspace/a\nb', 'control'],
    ['a tab is refused', 'Workspace/a\tb', 'control'],
    ['DEL is refused', 'Workspace/a\u007Fb', 'control'],
    ['a C1 control is refused', 'Workspace/a\u0085b', 'control'],
    ['a right-to-left override is refused', 'Workspace/evil\u202Edm.exe', 'control'],
    ['a zero-width space is refused', 'Work\u200Bspace/x', 'control'],
    ['a byte order mark is refused', '\uFEFFWorkspace/x', 'control'],
    ['a lone surrogate is refused', 'Workspace/\uD800', 'control'],
    ['an empty path is refused', '', 'empty'],
    ['an empty segment is refused, not collapsed', 'Workspace//report.md', 'empty-segment'],
    ['a path over 1024 bytes is refused', `Workspace/${'a/'.repeat(520)}x`, 'too-long'],
    ['a segment over 255 bytes is refused', `Workspace/${'a'.repeat(256)}`, 'too-long'],
    ['the hidden trash is refused (I6)', 'Workspace/.trash/x', 'hidden'],
    ['the hidden trash itself is refused (I6)', 'Workspace/.trash', 'hidden'],
    ['case never unhides the trash (I6)', 'Workspace/.TRASH/x', 'hidden'],
  ];
  it.each(cases)('%s: %j', (_label, input, code) => {
    const result = checkLexical(inspector, input);
    expect(refusedAs(result)).toBe(code);
    if (!result.ok) expect(result.problem.message).toMatch(/^[a-z].*[^.]$/s);
  });

  it('a `..` refusal reads as a Cedar sentence with the input in backticks', () => {
    expect(checkLexical(inspector, '../AgentSettings.json')).toEqual({
      ok: false,
      problem: {
        code: 'traversal',
        message: 'path `../AgentSettings.json` climbs out of the root: `..` is not allowed',
      },
    });
  });

  it('a non-string path is refused as a result, not a throw', () => {
    expect(refusedAs(checkLexical(inspector, 42 as unknown as string))).toBe('not-text');
  });
});

describe('invisible characters are refused, whatever their category (I5)', () => {
  const invisible: [label: string, ch: string][] = [
    ['the Hangul filler', '\u3164'],
    ['the halfwidth Hangul filler', '\uFFA0'],
    ['the Hangul choseong filler', '\u115F'],
    ['the Hangul jungseong filler', '\u1160'],
    ['the blank Braille pattern', '\u2800'],
    ['a variation selector', '\uFE0F'],
    ['a supplementary variation selector', '\u{E0100}'],
    ['a Mongolian free variation selector', '\u180B'],
    ['the combining grapheme joiner', '\u034F'],
    ['a Khmer inherent vowel', '\u17B4'],
    ['a soft hyphen', '\u00AD'],
    ['a tag character', '\u{E0041}'],
  ];
  it.each(invisible)('%s in a name is refused as invisible', (_label, ch) => {
    const result = checkLexical(inspector, `Workspace/a${ch}b.md`);
    expect(refusedAs(result)).toBe('control');
    if (!result.ok) expect(result.problem.message).not.toContain(ch);
  });

  it('a name made only of a Hangul filler cannot pose as an empty name', () => {
    expect(refusedAs(checkLexical(inspector, 'Workspace/\u3164'))).toBe('control');
  });
});

describe('the lexical check accepts ordinary paths and normalises them', () => {
  const cases: [label: string, input: string, rel: string][] = [
    ['a workspace file is accepted as given', 'Workspace/report.md', 'Workspace/report.md'],
    ['a leading `./` is dropped', './Workspace/report.md', 'Workspace/report.md'],
    ['an inner `.` segment is dropped', 'Workspace/./report.md', 'Workspace/report.md'],
    ['one trailing slash is dropped', 'Workspace/', 'Workspace'],
    [
      'a `.bak_` file inside Workspace is work output (I5)',
      'Workspace/old.bak_1',
      'Workspace/old.bak_1',
    ],
    ['a dotfile inside Workspace is accepted', 'Workspace/.env', 'Workspace/.env'],
    ['letters of any script are accepted', 'Workspace/März-報告.md', 'Workspace/März-報告.md'],
    ['a precomposed letter is accepted', 'Workspace/caf\u00E9.md', 'Workspace/caf\u00E9.md'],
    ['Identity.md is accepted (I3)', 'Identity.md', 'Identity.md'],
    ['Soul.md is accepted (I3)', 'Soul.md', 'Soul.md'],
  ];
  it.each(cases)('%s: %j', (_label, input, rel) => {
    const result = checkLexical(inspector, input);
    expect(result.ok && result.value.rel).toBe(rel);
  });

  it('a path ending in `/` or `/.` says it names a folder; others do not', () => {
    const folder = (input: string) => {
      const result = checkLexical(inspector, input);
      return result.ok && result.value.folder === true;
    };
    expect([folder('Workspace/'), folder('Workspace/.'), folder('Workspace')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('a worktree confinement without an allowlist accepts its root as `.`', async () => {
    const worktree = await worktreeConfinement(join(base, 'agent'));
    expect(checkLexical(worktree, '.')).toEqual({
      ok: true,
      value: { rel: '.', segments: [], folder: true },
    });
    expect(refusedAs(checkLexical(worktree, '.trash/x'))).toBe('hidden');
  });
});

describe('a message shows what it quotes, and nothing can hide in it (I5, I7)', () => {
  it('shows invisible characters and combining marks as `\\u{…}` code points', () => {
    expect(quote('a\u3164b')).toBe('`a\\u{3164}b`');
    expect(quote('e\u0301.md')).toBe('`e\\u{301}.md`');
    expect(quote('x\u200By\uFE0Fz\u2800')).toBe('`x\\u{200B}y\\u{FE0F}z\\u{2800}`');
    expect(quote('evil\u202Etxt')).toBe('`evil\\u{202E}txt`');
  });

  it('escapes a backslash and a backtick, so a shown `\\u{…}` is never the input', () => {
    expect(quote('a\\u{41}`b')).toBe('`a\\\\u{41}\\`b`');
  });

  it('keeps ordinary letters, spaces and precomposed accents as they are', () => {
    expect(quote('März 報告 caf\u00E9')).toBe('`März 報告 caf\u00E9`');
  });

  it('cuts long input after 120 characters and says so with an ellipsis', () => {
    expect(quote('a'.repeat(200))).toBe(`\`${'a'.repeat(120)}…\``);
  });

  it('a refusal message shows an invisible character as a code point, never raw', () => {
    const result = checkLexical(inspector, 'Workspace/evil\u202Etxt');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.message).toContain('U+202E');
      expect(result.problem.message).toContain('\\u{202E}');
      expect(result.problem.message).not.toContain('\u202E');
    }
  });
});
