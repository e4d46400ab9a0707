// The last segment of a program word or path (`/usr/bin/sudo` → `sudo`): how restrictive
// rules name a program given by path (G14c).

export function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
