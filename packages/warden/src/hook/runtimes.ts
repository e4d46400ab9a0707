// The agent runtimes `warden hook <runtime>` answers, by the name on the
// command line. Each loads only when its hook runs: the hook starts for every
// tool call, so it pays for one runtime's reader, not all of them.

import type { HookInput, HookRuntime } from './runtime.js';

type Loader = () => Promise<HookRuntime<HookInput, object>>;

const LOADERS: Readonly<Record<string, Loader>> = {
  'claude-code': async () =>
    (await import('./claude-code.js')).claudeCode as unknown as HookRuntime<HookInput, object>,
};

/** The names `warden hook` takes, in the order help lists them. */
export const RUNTIME_NAMES: readonly string[] = Object.keys(LOADERS);

/** The runtime of that name, or null for a name Warden has no hook for. */
export async function loadRuntime(name: string): Promise<HookRuntime<HookInput, object> | null> {
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  return load === undefined ? null : load();
}
