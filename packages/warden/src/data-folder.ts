// The data folder's default name, in a module of its own: the per-call hook
// names it too, and must not load the store's module to learn it.

/** Where Warden keeps its store, audit log, agents and runner when no `--data` says otherwise. */
export const DEFAULT_DATA = '.warden';
