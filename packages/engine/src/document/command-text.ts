// Command prefixes written in policies (rules, `commands` constraints, the
// mode's net) are read as shell words, so `'git' push` and `git  push` are
// the same prefix as `git push` (G14b).

import { parseShell } from '../shell/parser.js';
import { ShellSyntaxError } from '../shell/scanner.js';

/** The words of a command prefix, or a message saying why it is not one. */
export function commandPrefixWords(text: string): string[] | { problem: string } {
  if (text.trim() === '') return { problem: 'empty command' };
  let list;
  try {
    list = parseShell(text);
  } catch (error) {
    if (error instanceof ShellSyntaxError)
      return { problem: `cannot read \`${text}\` as a command: ${error.message}` };
    throw error;
  }
  const only = list.items.length === 1 ? list.items[0] : undefined;
  const pipeline =
    only !== undefined && !only.background && only.node.rest.length === 0
      ? only.node.first
      : undefined;
  const command = pipeline?.commands.length === 1 ? pipeline.commands[0] : undefined;
  if (command === undefined || command.type !== 'simple') {
    return {
      problem: `\`${text}\` holds more than one command: a prefix names one simple command`,
    };
  }
  if (
    command.assignments.length > 0 ||
    command.redirects.length > 0 ||
    command.words.length === 0
  ) {
    return { problem: `\`${text}\` must be only words: no assignments or redirections` };
  }
  const words: string[] = [];
  for (const word of command.words) {
    if (word.parts.some((part) => part.kind !== 'lit')) {
      return { problem: `\`${word.raw}\` is an expansion: command prefixes match literal words` };
    }
    words.push(word.value);
  }
  return words;
}
