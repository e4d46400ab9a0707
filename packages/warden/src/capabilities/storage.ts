// Why this file exists: the server says where its data lives and whether the
// store answers (`/readyz`, the banner). Those facts are a capability of the
// `Warden` facade (`warden.storage`), so the server asks it, not the store.

import type { Backend, Store } from '../store/types.js';

export class Storage {
  constructor(private readonly parts: { readonly store: Store }) {}

  /** `sqlite` or `postgres`. */
  get backend(): Backend {
    return this.parts.store.backend;
  }

  /** Where the data lives: a file path, or the database URL without its password. */
  get location(): string {
    return this.parts.store.location;
  }

  /** Resolves when the store answers; rejects with why it does not. */
  async ping(): Promise<void> {
    await this.parts.store.stateVersion(null);
  }
}
