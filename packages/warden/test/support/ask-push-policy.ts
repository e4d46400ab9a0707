// The policy the served-Warden suites start from: workspace `acme`, where
// every push asks (`ask-push`); a suite adds the rules its own assertions
// name (`soft-install`, `no-rm`, …) after it.

/** Workspace `acme` with `ask-push` (gitPush prompts), then the suite's own rules (YAML list items). */
export function askPushPolicy(extraRules = ''): string {
  return `version: 1
workspace: acme
rules:
  - id: ask-push
    scope: workspace
    action: gitPush
    decision: prompt
${extraRules}`;
}
