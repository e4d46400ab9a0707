// What the permissions screen reads once and its parts share: the matrix
// route's answer (columns, cells, rules, the document at its revision).
// Every write reloads it, and every part that shows it renders again.

import { api, query } from '../../lib/api.js';

/**
 * @param {string} workspace
 * @returns {import('../../lib/types.js').PermissionsState}
 */
export function createState(workspace) {
  /** @type {import('../../lib/types.js').PermissionsMatrix | null} */
  let data = null;
  /** @type {unknown} */
  let error = null;
  /** @type {Set<(data: import('../../lib/types.js').PermissionsMatrix | null, error: unknown) => void>} */
  const listeners = new Set();
  /** @type {Promise<import('../../lib/types.js').PermissionsMatrix | null> | null} */
  let loading = null;

  const load = async () => {
    try {
      data = await api('GET', `/v1/permissions/matrix${query({ workspace })}`);
      error = null;
    } catch (e) {
      error = e;
    }
    for (const listener of [...listeners]) listener(data, error);
    return data;
  };

  return {
    workspace,
    /** The last answer of the matrix route (null before the first, or when it failed). */
    get data() {
      return data;
    },
    /** Why the last read failed, or null. */
    get error() {
      return error;
    },
    /** Reads the matrix again and tells every listener. */
    load() {
      loading ??= load().finally(() => {
        loading = null;
      });
      return loading;
    },
    /** Calls `fn(data, error)` after each read; returns the unsubscribe. @param {(data: import('../../lib/types.js').PermissionsMatrix | null, error: unknown) => void} fn */
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
