// The runtimes `warden hook install` writes into and `warden doctor` reads
// back, in the order both list them.

import { claudeCodeInstaller } from './claude-code.js';
import { codexInstaller } from './codex.js';
import { geminiInstaller } from './gemini.js';
import type { RuntimeInstaller } from './runtime.js';

/** Every runtime `warden hook install` knows, in the order help and `warden doctor` list them. */
export const INSTALLERS: readonly RuntimeInstaller[] = [
  claudeCodeInstaller,
  codexInstaller,
  geminiInstaller,
];
