// Argument extractors for the programs the classifier knows (G14c, E26). Each
// reads a simple command's words and returns its classes with what it could
// tell of their arguments.

import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext } from './effects.js';
import { changeDir, deletion, writeEffects } from './effects.js';
import { GH_OPTIONS, gh, glab } from './gh.js';
import { GIT_OPTIONS, git } from './git.js';
import { NETWORK_OPTIONS, curl, wget } from './network.js';
import { FILE_DESCRIPTIONS, FILE_EXTRACTORS, FILE_OPTIONS } from './files.js';
import { REMOTE_DESCRIPTIONS, REMOTE_EXTRACTORS, REMOTE_OPTIONS } from './remote.js';
import { CODE_DESCRIPTIONS, CODE_EXTRACTORS } from './code.js';
import { operandsAndOptions } from './options.js';
import type { ExtractorName, OptionSpec } from './table.js';

export interface Extraction {
  readonly effects: Effect[];
  /** For `cd` and friends: the new working directory (null: unknown); undefined: unchanged. */
  readonly cwd?: string | null;
  /** Set when the command cannot be read with confidence. */
  readonly unparseable?: string;
}

type Extractor = (words: readonly Word[], ctx: ExtractContext) => Extraction;

const rm: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, RM_OPTIONS);
  const recursive = seen.some((o) => ['-r', '-R', '--recursive'].includes(o.name));
  return { effects: [deletion(operands, ctx, !recursive)] };
};

const unlink: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, NO_OPTIONS);
  return { effects: [deletion(operands, ctx, true)] };
};

const rmdir: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, RMDIR_OPTIONS);
  const parents = seen.some((o) => o.name === '-p' || o.name === '--parents');
  return { effects: [deletion(operands, ctx, !parents)] };
};

const tee: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, TEE_OPTIONS);
  return { effects: writeEffects(operands, ctx) };
};

/** `cp`, `mv`, `install`: the destination may lie outside the worktree. */
const copy: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, COPY_OPTIONS);
  // `install -d` creates every operand as a folder.
  const install = /(^|\/)install$/.test((words[0] as Word).value);
  if (install && seen.some((o) => o.name === '-d' || o.name === '--directory'))
    return { effects: writeEffects(operands, ctx) };
  const target = seen.find((o) => o.name === '-t' || o.name === '--target-directory');
  if (target !== undefined)
    return { effects: target.value === null ? [] : writeEffects([target.value], ctx) };
  const last = operands[operands.length - 1];
  return { effects: operands.length < 2 || last === undefined ? [] : writeEffects([last], ctx) };
};

/** `touch`, `mkdir`: every operand is written. */
const touch: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, TOUCH_OPTIONS);
  return { effects: writeEffects(operands, ctx) };
};

const cd: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, CD_OPTIONS);
  const target = operands[0];
  if (operands.length !== 1 || target === undefined) return { effects: [], cwd: null };
  // With CDPATH set, `cd name` may go to a folder of CDPATH instead.
  if (ctx.cdpath && target.literal && !/^(\/|\.\.?(\/|$))/.test(target.value))
    return { effects: [], cwd: null };
  return { effects: [], cwd: changeDir(ctx.cwd, target) };
};

const popd: Extractor = () => ({ effects: [], cwd: null });

// Option tables, one per program (kept as constants so their lookups are built once).
const RM_OPTIONS: OptionSpec = {
  flags: [
    '-f',
    '-i',
    '-I',
    '-r',
    '-R',
    '-d',
    '-v',
    '--force',
    '--recursive',
    '--dir',
    '--verbose',
    '--one-file-system',
    '--no-preserve-root',
    '--preserve-root',
    '--interactive',
  ],
  optionalValues: ['--interactive', '--preserve-root'],
};
const NO_OPTIONS: OptionSpec = {};
const RMDIR_OPTIONS: OptionSpec = {
  flags: ['-p', '--parents', '-v', '--verbose', '--ignore-fail-on-non-empty'],
};
const TEE_OPTIONS: OptionSpec = {
  flags: ['-a', '--append', '-i', '--ignore-interrupts', '-p'],
  optionalValues: ['--output-error'],
};
const COPY_OPTIONS: OptionSpec = {
  flags: ['-d', '--directory'],
  values: [
    '-t',
    '--target-directory',
    '-S',
    '--suffix',
    '-m',
    '--mode',
    '-o',
    '--owner',
    '-g',
    '--group',
  ],
  optionalValues: ['--backup', '--preserve', '--no-preserve', '--reflink', '--sparse', '--update'],
};
const TOUCH_OPTIONS: OptionSpec = {
  values: ['-d', '--date', '-r', '--reference', '-t', '-m', '--mode', '--context'],
  optionalValues: ['--time'],
};
const CD_OPTIONS: OptionSpec = { flags: ['-L', '-P', '-e', '-@'] };

export const EXTRACTOR_FUNCTIONS: Readonly<Record<ExtractorName, Extractor>> = {
  git,
  rm,
  unlink,
  rmdir,
  tee,
  curl,
  wget,
  gh,
  glab,
  copy,
  touch,
  cd,
  popd,
  ...REMOTE_EXTRACTORS,
  ...FILE_EXTRACTORS,
  ...CODE_EXTRACTORS,
};

/** What each extractor reads, for the table the product shows. */
export const EXTRACTOR_DESCRIPTIONS: Readonly<Record<ExtractorName, string>> = {
  git: '`push`, `send-pack`, `http-push`, `subtree push`, `svn dcommit` → gitPush with refs; `commit` → gitCommit; `clean`, `rm` → fileDelete with paths; `clone`, `fetch`, `pull`, `ls-remote`, `remote add`, `submodule add|update`, `archive --remote` → networkEgress with hosts; settings and variables that run programs are unparseable, those that move refs or hosts leave them unknown',
  rm: 'fileDelete with paths and count (count unknown when recursive)',
  unlink: 'fileDelete with paths and count',
  rmdir: 'fileDelete with paths and count',
  tee: 'fileWriteOutsideWorktree for files outside the worktree',
  curl: 'networkEgress with hosts of its URLs and proxy',
  wget: 'networkEgress with hosts of its URLs',
  gh: '`pr create` → prCreate; `pr merge`, `pr review` → prPublish; `repo sync` and `api` calls that merge or move refs → gitPush with refs; other writes → vendorSyncWrite; GraphQL is unparseable',
  glab: '`mr create` → prCreate; `mr merge`, `mr approve` → prPublish; writes through `api` are unparseable',
  copy: 'fileWriteOutsideWorktree when the destination lies outside the worktree',
  touch: 'fileWriteOutsideWorktree for operands outside the worktree',
  cd: 'changes the working directory that later relative paths start from',
  popd: 'makes the working directory unknown',
  ...REMOTE_DESCRIPTIONS,
  ...FILE_DESCRIPTIONS,
  ...CODE_DESCRIPTIONS,
};

/**
 * The option table each extractor reads its program's options with, where it
 * has one (git's subcommands are in GIT_OPTIONS). `policy prove` spells a
 * rule's options the ways these tables say the extractor reads them.
 */
export const EXTRACTOR_OPTIONS: Readonly<Partial<Record<ExtractorName, OptionSpec>>> = {
  git: GIT_OPTIONS.global,
  rm: RM_OPTIONS,
  rmdir: RMDIR_OPTIONS,
  tee: TEE_OPTIONS,
  copy: COPY_OPTIONS,
  touch: TOUCH_OPTIONS,
  cd: CD_OPTIONS,
  ...NETWORK_OPTIONS,
  ...GH_OPTIONS,
  ...REMOTE_OPTIONS,
  ...FILE_OPTIONS,
};
