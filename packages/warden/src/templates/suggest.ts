// Names in messages: a list in backticks, and the engine's "did you mean".

export { didYouMean } from '@warden/engine';

/** `a`, `b` and `c`, each in backticks. */
export function listNames(names: readonly string[]): string {
  const quoted = names.map((name) => `\`${name}\``);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1] ?? ''}`;
}
