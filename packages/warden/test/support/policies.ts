// The policy the agent-runtime hook tests decide by: commands may run, a push
// to `main` is denied by `protect-main`; a suite adds the rules its own
// assertions name (`ask-outside`, `ask-deletes`, …) after these.

/** `protect-main` and `spawn`, then the suite's own rules (YAML list items). */
export function hookPolicy(extraRules = ''): string {
  return `version: 1
workspace: acme
rules:
  - id: spawn
    action: processSpawn
    decision: allow
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
${extraRules}`;
}
