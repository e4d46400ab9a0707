// The files a Codex `apply_patch` call touches, read from its raw patch text
// (`*** Begin Patch` … `*** End Patch`): which files it adds, updates (and
// moves) and deletes. One pass over the lines, with hard limits on the size
// and on the number of files; anything that is not a well-formed patch is
// refused, never guessed at: Codex would apply a patch Warden misread.

/** A patch larger than this is refused (Codex's whole hook input is read up to 4 MiB). */
export const MAX_PATCH_BYTES = 4 * 1024 * 1024;
/** A patch touching more files than this is refused. */
export const MAX_PATCH_FILES = 1000;
/** A path longer than this is refused (Linux's PATH_MAX). */
const MAX_PATH_LENGTH = 4096;

export type PatchOperation =
  | { readonly op: 'add'; readonly path: string }
  | { readonly op: 'delete'; readonly path: string }
  | { readonly op: 'update'; readonly path: string; readonly moveTo?: string };

export type ParsedPatch =
  | { readonly ok: true; readonly files: readonly PatchOperation[] }
  | { readonly ok: false; readonly problem: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';
const END_OF_FILE = '*** End of File';

function fail(problem: string): ParsedPatch {
  return { ok: false, problem: `the patch is not one Warden can read: ${problem}` };
}

/** The path a header names, or why it is refused. */
function headerPath(line: string, prefix: string, at: number): string | { problem: string } {
  const path = line.slice(prefix.length).trim();
  if (path === '') return { problem: `line ${at}: \`${prefix}\` names no file` };
  if (path.length > MAX_PATH_LENGTH)
    return { problem: `line ${at}: a path longer than ${MAX_PATH_LENGTH} characters` };
  if (path.includes('\0')) return { problem: `line ${at}: a path with a NUL character` };
  return path;
}

/**
 * The files `patch` adds, updates (with where it moves them) and deletes, in
 * the order it names them; or the problem that makes it unreadable. Never
 * throws; linear in the patch's length.
 */
export function parsePatch(patch: string): ParsedPatch {
  if (patch.length > MAX_PATCH_BYTES || Buffer.byteLength(patch) > MAX_PATCH_BYTES)
    return fail(`it is larger than ${MAX_PATCH_BYTES / 1024 / 1024} MiB`);
  const lines = patch.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  // Blank lines around the patch are no part of it.
  let first = 0;
  while (first < lines.length && (lines[first] as string).trim() === '') first++;
  let last = lines.length - 1;
  while (last > first && (lines[last] as string).trim() === '') last--;
  if (first >= lines.length || (lines[first] as string).trim() !== BEGIN)
    return fail(`it does not start with \`${BEGIN}\``);
  if (last === first || (lines[last] as string).trim() !== END)
    return fail(`it does not end with \`${END}\``);
  const files: PatchOperation[] = [];
  /** What the lines being read belong to: the header before them. */
  let inside: 'none' | 'add' | 'delete' | 'update' = 'none';
  /** Whether the current update has a `@@` or change line yet (a `Move to` must come first). */
  let updateBody = false;
  for (let i = first + 1; i < last; i++) {
    const line = lines[i] as string;
    const at = i + 1;
    const trimmed = line.trim();
    const header = trimmed.startsWith('*** ');
    if (header && trimmed === END) return fail(`line ${at}: \`${END}\` before the patch's end`);
    if (header && trimmed === BEGIN) return fail(`line ${at}: a second \`${BEGIN}\``);
    let opened: PatchOperation | null = null;
    if (header && trimmed.startsWith(ADD)) {
      const path = headerPath(trimmed, ADD, at);
      if (typeof path !== 'string') return fail(path.problem);
      opened = { op: 'add', path };
      inside = 'add';
    } else if (header && trimmed.startsWith(DELETE)) {
      const path = headerPath(trimmed, DELETE, at);
      if (typeof path !== 'string') return fail(path.problem);
      opened = { op: 'delete', path };
      inside = 'delete';
    } else if (header && trimmed.startsWith(UPDATE)) {
      const path = headerPath(trimmed, UPDATE, at);
      if (typeof path !== 'string') return fail(path.problem);
      opened = { op: 'update', path };
      inside = 'update';
      updateBody = false;
    }
    if (opened !== null) {
      if (files.length >= MAX_PATCH_FILES)
        return fail(`it touches more than ${MAX_PATCH_FILES} files`);
      files.push(opened);
      continue;
    }
    if (header && trimmed.startsWith(MOVE)) {
      const current = files.at(-1);
      if (
        inside !== 'update' ||
        current?.op !== 'update' ||
        updateBody ||
        current.moveTo !== undefined
      )
        return fail(`line ${at}: \`${MOVE}\` not right after \`${UPDATE}\``);
      const path = headerPath(trimmed, MOVE, at);
      if (typeof path !== 'string') return fail(path.problem);
      files[files.length - 1] = { ...current, moveTo: path };
      continue;
    }
    switch (inside) {
      case 'none':
        return fail(`line ${at}: a line before any file header`);
      case 'delete':
        if (trimmed === '') continue;
        return fail(`line ${at}: \`${DELETE}\` takes no lines`);
      case 'add':
        if (line.startsWith('+')) continue;
        return fail(`line ${at}: a line of an added file must start with \`+\``);
      case 'update':
        if (trimmed === END_OF_FILE) continue;
        if (
          line === '' ||
          line.startsWith('@@') ||
          line.startsWith(' ') ||
          line.startsWith('+') ||
          line.startsWith('-')
        ) {
          updateBody = true;
          continue;
        }
        return fail(
          `line ${at}: a line of an update must start with \`@@\`, a space, \`+\` or \`-\``,
        );
    }
  }
  if (files.length === 0) return fail('it names no file');
  return { ok: true, files };
}

const HEREDOC_OPEN = /^<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1$/;
const SHELL_OPEN = /^(?:apply_patch|applypatch)\s+<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1$/;

/** The text between a here-document's first line (matched by `open`) and its closing delimiter, or null. */
function heredocBody(text: string, open: RegExp): string | null {
  if (text.length > MAX_PATCH_BYTES) return null;
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last > 0 && (lines[last] as string).trim() === '') last--;
  const first = (lines[0] as string).trim().match(open);
  if (first === null || last < 1) return null;
  if ((lines[last] as string).trim() !== first[2]) return null;
  return lines.slice(1, last).join('\n');
}

/**
 * The patch of a shell command that is only `apply_patch <<'EOF' … EOF`:
 * Codex takes such a command out of the shell and applies the patch itself
 * (observed with 0.171.0; the hook sees it as `Bash`). Null for any other
 * command, which the shell classifier reads.
 */
export function patchOfShellCommand(command: string): string | null {
  return heredocBody(command, SHELL_OPEN);
}

/** A patch as Codex's `apply_patch` takes it: bare, or wrapped in `<<'EOF'` … `EOF`, which Codex strips. */
export function unwrapPatch(patch: string): string {
  return patch.trimStart().startsWith('<<')
    ? (heredocBody(patch.trim(), HEREDOC_OPEN) ?? patch)
    : patch;
}
