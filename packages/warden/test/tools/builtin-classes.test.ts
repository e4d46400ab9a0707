// The built-in tools' classes are data (tools/builtin/classes.ts) that the
// tools declare and the read-only side reads: the two cannot disagree.

import { describe, expect, it } from 'vitest';
import { BUILTIN_CLASSES, BUILTIN_NAMES, builtinTools } from '../../src/tools/builtin/index.js';
import { declaredClasses } from '../../src/instance/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Gate } from '../../src/gate/gate.js';

function registered() {
  const registry = new ToolRegistry(
    {} as Gate,
    { workspace: 'w', agent: 'a', source: 'builtin' },
    () => 'id',
  );
  for (const tool of builtinTools({ worktree: '/' })) registry.register(tool);
  return registry.list();
}

describe('the built-in tools declare what the classes table says', () => {
  it('every built-in tool is in the table, in the order builtinTools makes them', () => {
    expect(registered().map((t) => t.name)).toEqual([...BUILTIN_NAMES]);
  });

  it("each tool's registered classes and read-only flag equal the table's", () => {
    for (const tool of registered()) {
      const entry = BUILTIN_CLASSES[tool.name as keyof typeof BUILTIN_CLASSES];
      expect({ name: tool.name, actions: tool.actions, readOnly: tool.readOnly }).toEqual({
        name: tool.name,
        actions: entry.actions,
        readOnly: entry.readOnly,
      });
    }
  });

  it('a tool that only reads declares no class, and one that acts declares some', () => {
    for (const [name, entry] of Object.entries(BUILTIN_CLASSES))
      expect({ name, acts: entry.actions.length > 0 }).toEqual({ name, acts: !entry.readOnly });
  });

  it("the instance reads a built-in tool's classes from the table", () => {
    for (const [name, entry] of Object.entries(BUILTIN_CLASSES))
      expect(declaredClasses(name)).toEqual(entry.actions);
    expect(declaredClasses('no_such_tool')).toBeNull();
  });
});
