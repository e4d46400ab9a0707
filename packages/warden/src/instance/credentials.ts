// The literal credentials in the agents' settings, which every record and
// answer redacts (inspector.md §2); read here so a reader needs no gate.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentialLiterals } from '../audit/redact.js';

/** Credential values in `<data>/agents/<id>/AgentSettings.json` (inspector.md §2), for the redactor. */
export function agentCredentials(data: string): string[] {
  const agents = join(data, 'agents');
  if (!existsSync(agents)) return [];
  const literals: string[] = [];
  for (const id of readdirSync(agents)) {
    const file = join(agents, id, 'AgentSettings.json');
    try {
      literals.push(...credentialLiterals(JSON.parse(readFileSync(file, 'utf8')) as unknown));
    } catch {
      // No settings, or unreadable: nothing to learn from them.
    }
  }
  return literals;
}
