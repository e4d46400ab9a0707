// A team's policy at size, for the console's tests at scale: 503 rules over
// 20 agents, 10 spaces and 2 modes.

import { ACTION_CLASSES } from '@warden/engine';

const CLASSES = ACTION_CLASSES;
const DECISIONS = ['allow', 'prompt', 'deny'];

/** 503 rules: every agent, space and mode named, conditions and expiries mixed in, one rule repeated. */
export function bigPolicy(): string {
  const scopes = [
    'workspace',
    ...Array.from({ length: 20 }, (_, i) => `agent:coder-${i + 1}`),
    ...Array.from({ length: 10 }, (_, i) => `space:space-${i + 1}`),
  ];
  const lines = ['version: 1', 'workspace: acme', 'spaces:'];
  for (let i = 1; i <= 10; i++) lines.push(`  space-${i}: {}`);
  lines.push(
    'modes:',
    '  review:',
    '    preset:',
    '      - { id: review-push, action: gitPush, decision: deny }',
    '  ship:',
    '    preset:',
    '      - { id: ship-push, action: gitPush, decision: allow }',
    'rules:',
  );
  for (let i = 1; i <= 497; i++) {
    const scope = scopes[i % scopes.length] as string;
    const action = CLASSES[(i * 7) % CLASSES.length] as string;
    const decision = DECISIONS[i % 3] as string;
    const when = i % 4 === 0 && decision !== 'allow' ? `, when: { paths: ["dir-${i}/**"] }` : '';
    const expires = i % 9 === 0 ? ', expiresAt: "2999-01-01T00:00:00Z"' : '';
    lines.push(
      `  - { id: r-${i}, scope: "${scope}", action: ${action}, decision: ${decision}${when}${expires} }`,
    );
  }
  lines.push(
    '  - { id: twin-a, scope: "agent:coder-7", action: secretAccess, decision: deny, when: { paths: [".env"] } }',
    '  - { id: twin-b, scope: "agent:coder-7", action: secretAccess, decision: deny, when: { paths: [".env"] } }',
    '  - { id: needle, scope: "agent:coder-13", action: prCreate, decision: prompt, note: "haystack" }',
    '  - { id: nothing, scope: "agent:coder-7", action: secretAccess, decision: deny, when: { paths: ["!a"], refs: ["!b"], hosts: ["!c"], commands: ["!d"] } }',
  );
  return `${lines.join('\n')}\n`;
}
