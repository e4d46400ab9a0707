// Programs that delete or overwrite files without looking like `rm` (G14c,
// E26): `mv` deletes its sources, `shred` destroys them, `tar --remove-files`
// and `zip -m` delete what they pack; in-place editors (`sed -i`, `perl -i`),
// `dd of=`, `ln`, `truncate` write the files they name. Options that name a
// program to run (`tar --to-command`, `zip -TT`, a sed script's `e`) make the
// command unparseable; what it certainly does still counts (E42).

import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext } from './effects.js';
import { deletion, effect, writeEffects } from './effects.js';
import { remoteHost } from './network.js';
import { operandsAndOptions } from './options.js';
import type { Extraction } from './programs.js';
import type { OptionSpec } from './table.js';

const NONE: Extraction = { effects: [] };

type Extractor = (words: readonly Word[], ctx: ExtractContext) => Extraction;

/** Deleting these operands; a folder among them deletes what it holds too (count unknown, E26). */
function deleting(operands: readonly Word[], ctx: ExtractContext, folders: boolean): Effect {
  return deletion(operands, ctx, !folders);
}

const MOVE: OptionSpec = {
  flags: [
    '-f',
    '--force',
    '-i',
    '--interactive',
    '-n',
    '--no-clobber',
    '-u',
    '-v',
    '--verbose',
    '-T',
    '--no-target-directory',
    '--strip-trailing-slashes',
    '-Z',
    '--context',
    '--exchange',
    '--no-copy',
  ],
  values: ['-t', '--target-directory', '-S', '--suffix'],
  optionalValues: ['--backup', '-b', '--update'],
};

/** `mv SOURCE… DEST`: each source is deleted from where it was (a folder with all it holds), the destination written. */
const move: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, MOVE);
  const target = seen.find((o) => o.name === '-t' || o.name === '--target-directory');
  if (target !== undefined) {
    if (operands.length === 0) return NONE;
    return {
      effects: [
        deleting(operands, ctx, true),
        ...(target.value === null
          ? [effect('fileWriteOutsideWorktree', { paths: null })]
          : writeEffects([target.value], ctx)),
      ],
    };
  }
  if (operands.length < 2) return NONE;
  const dest = operands[operands.length - 1] as Word;
  return {
    effects: [deleting(operands.slice(0, -1), ctx, true), ...writeEffects([dest], ctx)],
  };
};

const SHRED: OptionSpec = {
  flags: ['-f', '--force', '-u', '-v', '--verbose', '-x', '--exact', '-z', '--zero'],
  values: ['-n', '--iterations', '-s', '--size', '--random-source'],
  optionalValues: ['--remove'],
};

/** `shred FILE…` destroys the content of each file (and `-u` removes it): a deleting write. */
const shred: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, SHRED);
  if (operands.length === 0) return NONE;
  return { effects: [deleting(operands, ctx, false)] };
};

const TRUNCATE: OptionSpec = {
  flags: ['-c', '--no-create', '-o', '--io-blocks'],
  values: ['-r', '--reference', '-s', '--size'],
};

/** `truncate -s N FILE…`: each file is written. */
const truncate: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, TRUNCATE);
  return { effects: writeEffects(operands, ctx) };
};

/** `dd of=FILE`: the output file is written. */
const dd: Extractor = (words, ctx) => {
  const targets: Word[] = [];
  for (const word of words.slice(1)) {
    if (word.value.startsWith('of=')) targets.push({ ...word, value: word.value.slice(3) });
  }
  return { effects: writeEffects(targets, ctx) };
};

const LN: OptionSpec = {
  flags: [
    '-s',
    '--symbolic',
    '-f',
    '--force',
    '-n',
    '--no-dereference',
    '-i',
    '--interactive',
    '-L',
    '--logical',
    '-P',
    '--physical',
    '-r',
    '--relative',
    '-v',
    '--verbose',
    '-T',
    '--no-target-directory',
    '-d',
    '-F',
    '--directory',
  ],
  values: ['-t', '--target-directory', '-S', '--suffix'],
  optionalValues: ['--backup', '-b'],
};

/** `ln [-sf] TARGET LINK`: the link is written (a forced one replaces what was there). */
const ln: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, LN);
  const target = seen.find((o) => o.name === '-t' || o.name === '--target-directory');
  if (target !== undefined)
    return {
      effects:
        target.value === null
          ? [effect('fileWriteOutsideWorktree', { paths: null })]
          : writeEffects([target.value], ctx),
    };
  if (operands.length < 2) return NONE;
  return { effects: writeEffects([operands[operands.length - 1] as Word], ctx) };
};

const SED: OptionSpec = {
  flags: [
    '-n',
    '--quiet',
    '--silent',
    '-E',
    '-r',
    '--regexp-extended',
    '-s',
    '--separate',
    '-u',
    '--unbuffered',
    '-z',
    '--null-data',
    '--posix',
    '--debug',
    '--sandbox',
    '--follow-symlinks',
    '--version',
    '--help',
  ],
  values: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
  optionalValues: ['-i', '--in-place'],
};

/**
 * Whether a sed script may run a program (`e`, `s///e`) or write a file
 * (`w`, `W`, `s///w`). The script is scanned command by command; what the
 * scanner cannot follow counts as running a program.
 */
export function sedRunsOrWrites(script: string): boolean {
  let i = 0;
  const n = script.length;
  const skipDelimited = (delimiter: string): boolean => {
    // Reads up to the next unescaped delimiter; false when there is none.
    while (i < n) {
      const c = script.charAt(i);
      if (c === '\\') i += 2;
      else if (c === delimiter) {
        i++;
        return true;
      } else if (c === '\n') return false;
      else i++;
    }
    return false;
  };
  while (i < n) {
    const c = script.charAt(i);
    if (/[\s;{}!]/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && script.charAt(i) !== '\n') i++;
      continue;
    }
    // Addresses: line numbers, `$`, `/regex/`, `\cREGEXc`, ranges and steps.
    if (/[0-9$,~+]/.test(c)) {
      i++;
      continue;
    }
    if (c === '/') {
      i++;
      if (!skipDelimited('/')) return true;
      while (/[IM]/.test(script.charAt(i))) i++;
      continue;
    }
    if (c === '\\') {
      const delimiter = script.charAt(i + 1);
      i += 2;
      if (!skipDelimited(delimiter)) return true;
      continue;
    }
    i++;
    switch (c) {
      case 's':
      case 'y': {
        const delimiter = script.charAt(i);
        if (delimiter === '' || delimiter === '\\' || delimiter === '\n') return true;
        i++;
        if (!skipDelimited(delimiter) || !skipDelimited(delimiter)) return true;
        if (c === 'y') break;
        while (i < n && /[gpiImMewW0-9]/.test(script.charAt(i))) {
          if (/[ewW]/.test(script.charAt(i))) return true;
          i++;
        }
        break;
      }
      case 'e':
      case 'w':
      case 'W':
        return true;
      case 'a':
      case 'i':
      case 'c':
      case 'r':
      case 'R':
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
      case 'l':
      case 'q':
      case 'Q':
      case 'L':
        // Text, a file read, a label or a number to the end of the line (or of the command).
        while (
          i < n &&
          script.charAt(i) !== '\n' &&
          (!/[btTvlqQL:]/.test(c) || script.charAt(i) !== ';')
        )
          i++;
        break;
      default:
        if (!/[=dDgGhHnNpPxzF]/.test(c)) return true;
    }
  }
  return false;
}

/** `sed -i SCRIPT FILE…` writes each file; a script that runs or writes is unparseable. */
const sed: Extractor = (words, ctx) => {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, SED);
  if (unknown.length > 0)
    return { effects: [], unparseable: `unknown sed option \`${unknown[0] ?? ''}\`` };
  const scripts = seen
    .filter((o) => o.name === '-e' || o.name === '--expression')
    .map((o) => o.value);
  const files = scripts.length > 0 ? operands : operands.slice(1);
  if (scripts.length === 0 && operands[0] !== undefined) scripts.push(operands[0]);
  const inPlace = seen.some((o) => o.name === '-i' || o.name === '--in-place');
  const effects = inPlace ? writeEffects(files, ctx) : [];
  if (seen.some((o) => o.name === '-f' || o.name === '--file'))
    return { effects, unparseable: 'the sed script is read from a file' };
  if (seen.some((o) => o.name === '--sandbox')) return { effects };
  for (const script of scripts) {
    if (script === null || !script.literal)
      return { effects, unparseable: 'the sed script is not literal' };
    if (sedRunsOrWrites(script.value))
      return { effects, unparseable: 'the sed script may run a program or write a file' };
  }
  return { effects };
};

const TAR: OptionSpec = {
  flags: [
    '-c',
    '--create',
    '-x',
    '--extract',
    '--get',
    '-t',
    '--list',
    '-r',
    '--append',
    '-u',
    '--update',
    '-A',
    '--catenate',
    '--concatenate',
    '-d',
    '--diff',
    '--compare',
    '--delete',
    '-z',
    '--gzip',
    '-j',
    '--bzip2',
    '-J',
    '--xz',
    '--zstd',
    '--lzma',
    '-Z',
    '--compress',
    '-a',
    '--auto-compress',
    '-v',
    '--verbose',
    '-p',
    '--preserve-permissions',
    '-k',
    '--keep-old-files',
    '--overwrite',
    '-h',
    '--dereference',
    '-P',
    '--absolute-names',
    '-O',
    '--to-stdout',
    '-m',
    '--touch',
    '-W',
    '--verify',
    '--remove-files',
    '--no-same-owner',
    '--same-owner',
    '--numeric-owner',
    '--totals',
    '--ignore-failed-read',
    '--recursion',
    '--no-recursion',
    '-S',
    '--sparse',
    '-i',
    '--ignore-zeros',
    '--force-local',
    '--unlink-first',
    '-U',
    '--recursive-unlink',
    '--keep-newer-files',
    '--skip-old-files',
    '--wildcards',
    '--no-wildcards',
    '--null',
    '--show-transformed-names',
    '--full-time',
    '--utc',
  ],
  values: [
    '-f',
    '--file',
    '-C',
    '--directory',
    '-T',
    '--files-from',
    '-X',
    '--exclude-from',
    '--exclude',
    '-b',
    '--blocking-factor',
    '--transform',
    '--xform',
    '--strip-components',
    '--owner',
    '--group',
    '--mode',
    '--mtime',
    '-N',
    '--newer',
    '--after-date',
    '--format',
    '-H',
    '-L',
    '--tape-length',
    '-V',
    '--label',
    '-g',
    '--listed-incremental',
    '-I',
    '--use-compress-program',
    '-F',
    '--info-script',
    '--new-volume-script',
    '--to-command',
    '--rsh-command',
    '--rmt-command',
    '--checkpoint-action',
    '--index-file',
    '--volno-file',
  ],
  optionalValues: ['--checkpoint', '--backup', '--occurrence'],
};

const TAR_RUNS = new Set([
  '-I',
  '--use-compress-program',
  '-F',
  '--info-script',
  '--new-volume-script',
  '--to-command',
  '--rsh-command',
  '--rmt-command',
]);

/**
 * `tar`: `--remove-files` deletes what it packs; extracting writes where
 * `-C` says; `-f host:file` reaches a host; programs given by option
 * (`--to-command`, `-I`, `--checkpoint-action=exec=…`) are unparseable.
 */
const tar: Extractor = (words, ctx) => {
  // `tar czf x.tgz dir`: the first word may be bundled options without a dash.
  const first = words[1];
  const expanded =
    first !== undefined && first.literal && /^[A-Za-z]+$/.test(first.value)
      ? [words[0] as Word, { ...first, value: `-${first.value}` }, ...words.slice(2)]
      : words;
  const { operands, seen } = operandsAndOptions(expanded, 1, TAR);
  const effects: Effect[] = [];
  const archive = seen.find((o) => o.name === '-f' || o.name === '--file');
  const archiveHost =
    archive?.value?.literal === true &&
    !seen.some((o) => o.name === '--force-local') &&
    /^[^/]*:/.test(archive.value.value)
      ? remoteHost(archive.value.value)
      : undefined;
  if (archiveHost !== undefined)
    effects.push(effect('networkEgress', { hosts: archiveHost === null ? null : [archiveHost] }));
  const creates = seen.some((o) =>
    ['-c', '--create', '-r', '--append', '-u', '--update'].includes(o.name),
  );
  const extracts = seen.some((o) => ['-x', '--extract', '--get'].includes(o.name));
  if (creates && archive?.value && archiveHost === undefined && archive.value.value !== '-')
    effects.push(...writeEffects([archive.value], ctx));
  if (extracts) {
    const into = seen.filter((o) => o.name === '-C' || o.name === '--directory');
    const absolute = seen.some((o) => o.name === '-P' || o.name === '--absolute-names');
    if (absolute) effects.push(effect('fileWriteOutsideWorktree', { paths: null }));
    else if (into.length > 0) {
      const dir = into[into.length - 1]?.value;
      if (dir) effects.push(...writeEffects([dir], ctx));
    }
  }
  if (seen.some((o) => o.name === '--remove-files')) {
    const fromList = seen.some((o) => o.name === '-T' || o.name === '--files-from');
    const dirs = seen.some((o) => o.name === '-C' || o.name === '--directory');
    effects.push(
      fromList || dirs || operands.length === 0
        ? effect('fileDelete', { paths: null, count: null })
        : deleting(operands, ctx, true),
    );
  }
  if (seen.some((o) => TAR_RUNS.has(o.name)))
    return { effects, unparseable: 'tar runs the program an option names' };
  const action = seen.find((o) => o.name === '--checkpoint-action');
  if (
    action !== undefined &&
    (action.value === null || !action.value.literal || /^(exec|shell)/.test(action.value.value))
  )
    return { effects, unparseable: 'a tar checkpoint action runs a program' };
  return { effects };
};

const ZIP: OptionSpec = {
  flags: [
    '-r',
    '--recurse-paths',
    '-R',
    '-m',
    '--move',
    '-q',
    '--quiet',
    '-v',
    '-j',
    '--junk-paths',
    '-u',
    '--update',
    '-f',
    '--freshen',
    '-d',
    '--delete',
    '-D',
    '-T',
    '--test',
    '-y',
    '--symlinks',
    '-X',
    '-0',
    '-1',
    '-2',
    '-3',
    '-4',
    '-5',
    '-6',
    '-7',
    '-8',
    '-9',
    '-e',
    '--encrypt',
    '-o',
    '-g',
    '--grow',
    '-l',
    '-ll',
    '-FS',
    '-@',
  ],
  values: [
    '-x',
    '--exclude',
    '-i',
    '--include',
    '-P',
    '--password',
    '-b',
    '-n',
    '-t',
    '-tt',
    '-Z',
    '-O',
    '--output-file',
    '-TT',
    '--unzip-command',
  ],
};

/** `zip [-m] ARCHIVE FILE…`: `-m` deletes what it packs; `-TT` runs a program; the archive is written. */
const zip: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, ZIP);
  const effects: Effect[] = [];
  const archive = operands[0];
  const out = seen.find((o) => o.name === '-O' || o.name === '--output-file')?.value ?? archive;
  if (out !== undefined && out !== null && out.value !== '-')
    effects.push(...writeEffects([out], ctx));
  if (seen.some((o) => o.name === '-m' || o.name === '--move')) {
    const files = operands.slice(1);
    effects.push(
      files.length === 0 || seen.some((o) => o.name === '-@')
        ? effect('fileDelete', { paths: null, count: null })
        : deleting(files, ctx, true),
    );
  }
  if (seen.some((o) => o.name === '-TT' || o.name === '--unzip-command'))
    return { effects, unparseable: '`zip -TT` runs the program it names' };
  return { effects };
};

/** `unzip ARCHIVE [-d DIR]`: writes into DIR. */
const unzip: Extractor = (words, ctx) => {
  const { seen } = operandsAndOptions(words, 1, {
    values: ['-d', '-x'],
    flags: ['-o', '-q', '-n', '-j', '-l', '-t', '-v', '-p', '-u', '-f', '-a', '-qq'],
  });
  const into = seen.find((o) => o.name === '-d')?.value;
  return { effects: into ? writeEffects([into], ctx) : [] };
};

/** Compressors that replace each file with its (un)compressed form, deleting the input, unless kept. */
const REPLACING: OptionSpec = {
  flags: [
    '-k',
    '--keep',
    '-c',
    '--stdout',
    '--to-stdout',
    '-t',
    '--test',
    '-l',
    '--list',
    '-r',
    '--recursive',
    '-d',
    '--decompress',
    '--uncompress',
    '-z',
    '--compress',
    '-f',
    '--force',
    '-q',
    '--quiet',
    '-v',
    '--verbose',
    '-n',
    '--no-name',
    '-N',
    '--name',
    '-e',
    '--extreme',
    '-s',
    '--small',
    '--fast',
    '--best',
    '--rsyncable',
    ...['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((n) => `-${n}`),
  ],
  values: [
    '-S',
    '--suffix',
    '-T',
    '--threads',
    '-F',
    '--format',
    '-C',
    '--check',
    '-M',
    '--memlimit',
    '-b',
    '--blocksize',
    '-p',
    '--processes',
  ],
};

/** Compressors that keep their input unless told to remove it (`--rm`). */
const KEEPING: OptionSpec = {
  flags: [
    '--rm',
    '-j',
    '-c',
    '--stdout',
    '-d',
    '--decompress',
    '-z',
    '--compress',
    '-f',
    '--force',
    '-q',
    '--quiet',
    '-v',
    '--verbose',
    '-r',
    '-k',
    '--keep',
    '-m',
    '--multiple',
    '-t',
    '--test',
    '--ultra',
    '--long',
    '--fast',
    '--best',
    ...['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((n) => `-${n}`),
  ],
  values: ['-o', '--output', '-D', '-T', '--threads', '-S', '--suffix', '-B', '-l'],
};

/** Programs that delete their input: `gzip`-like by default, `zstd`-like with `--rm`. */
const DELETES_BY_DEFAULT = new Set([
  'gzip',
  'gunzip',
  'pigz',
  'unpigz',
  'bzip2',
  'bunzip2',
  'pbzip2',
  'xz',
  'unxz',
  'lzma',
  'unlzma',
  'lzip',
  'plzip',
  'lzop',
  'compress',
  'uncompress',
]);

/**
 * `gzip FILE…` replaces each file by `FILE.gz`, deleting it (unless `-k`,
 * `-c`, `-t`, `-l`); `zstd --rm`, `lz4 --rm`, `brotli -j` do so when told.
 * With `-r` a folder's files go too; with no file the program filters its input.
 */
const compress: Extractor = (words, ctx) => {
  const program = (words[0] as Word).value.split('/').pop() ?? '';
  const byDefault = DELETES_BY_DEFAULT.has(program);
  const { operands, seen, unknown } = operandsAndOptions(words, 1, byDefault ? REPLACING : KEEPING);
  const has = (...names: string[]): boolean => seen.some((o) => names.includes(o.name));
  if (
    byDefault
      ? has('-k', '--keep', '-c', '--stdout', '--to-stdout', '-t', '--test', '-l', '--list')
      : !has('--rm', '-j')
  )
    return NONE;
  if (byDefault && unknown.length > 0 && unknown.some((u) => /^-[a-zA-Z]*[kctl]/.test(u)))
    return NONE;
  const files =
    program.startsWith('lz4') && !has('-m', '--multiple') ? operands.slice(0, 1) : operands;
  const inputs = files.filter((w) => !(w.literal && w.value === '-'));
  if (inputs.length === 0) return NONE;
  return { effects: [deleting(inputs, ctx, has('-r', '--recursive'))] };
};

/** `7z a -sdel ARCHIVE FILE…` deletes the files once they are packed. */
const sevenZip: Extractor = (words, ctx) => {
  const args = words.slice(1);
  if (!args.some((w) => w.literal && w.value === '-sdel')) return NONE;
  const operands = args.filter((w) => !(w.literal && w.value.startsWith('-')));
  const files = operands.slice(2);
  return {
    effects: [
      files.length === 0
        ? effect('fileDelete', { paths: null, count: null })
        : deleting(files, ctx, true),
    ],
  };
};

/** `gio remove|trash FILE…`, `trash FILE…`, `trash-put FILE…`: each file leaves its folder. */
const trash: Extractor = (words, ctx) => {
  const program = (words[0] as Word).value.split('/').pop() ?? '';
  let rest = words.slice(1);
  if (program === 'gio') {
    const verb = rest[0];
    if (verb === undefined || !verb.literal || !['remove', 'rm', 'trash'].includes(verb.value))
      return NONE;
    rest = rest.slice(1);
  }
  const options = rest.filter((w) => w.literal && w.value.startsWith('-'));
  if (options.some((w) => /^--(empty|list|restore|help|version)$/.test(w.value))) return NONE;
  const files = rest.filter((w) => !(w.literal && w.value.startsWith('-')));
  if (files.length === 0) return NONE;
  return { effects: [deleting(files, ctx, true)] };
};

export const FILE_EXTRACTORS = {
  move,
  shred,
  truncate,
  dd,
  ln,
  sed,
  tar,
  zip,
  unzip,
  compress,
  sevenZip,
  trash,
} satisfies Record<string, Extractor>;

export const FILE_DESCRIPTIONS: Readonly<Record<keyof typeof FILE_EXTRACTORS, string>> = {
  move: 'fileDelete for the sources (a folder with all it holds, count unknown); fileWriteOutsideWorktree for a destination outside',
  shred: 'fileDelete with paths and count (the content is destroyed)',
  truncate: 'fileWriteOutsideWorktree for files outside the worktree',
  dd: 'fileWriteOutsideWorktree for an `of=` file outside the worktree',
  ln: 'fileWriteOutsideWorktree for a link outside the worktree',
  sed: '`-i`: fileWriteOutsideWorktree for files outside the worktree; scripts that run programs or write files are unparseable',
  tar: '`--remove-files` → fileDelete; extraction with `-C`/`-P` and archives written outside; `-f host:file` → networkEgress; program options are unparseable',
  zip: '`-m` → fileDelete; an archive outside the worktree is written; `-TT` is unparseable',
  unzip: 'fileWriteOutsideWorktree for `-d` outside the worktree',
  compress:
    'fileDelete for the files `gzip`, `bzip2`, `xz` and their kin replace (unless `-k`, `-c`, `-t` or `-l`), and for those `zstd`, `lz4` and `brotli` replace with `--rm`',
  sevenZip: '`-sdel` → fileDelete for the files packed',
  trash: 'fileDelete for the files moved to the trash (`gio remove|trash`, `trash`, `trash-put`)',
};

export type FileExtractorName = keyof typeof FILE_EXTRACTORS;

/** The option table each of these extractors reads its program's options with. */
export const FILE_OPTIONS: Readonly<Partial<Record<FileExtractorName, OptionSpec>>> = {
  move: MOVE,
  shred: SHRED,
  truncate: TRUNCATE,
  ln: LN,
  sed: SED,
  tar: TAR,
  zip: ZIP,
  compress: REPLACING,
};
