// Change notices within one process. Stores of one SQLite file opened in the
// same process share a channel; other processes learn of changes by polling.

import { EventEmitter } from 'node:events';
import type { Events, StoreEvent } from './types.js';

const channels = new Map<string, EventEmitter>();

export function localEvents(key: string): Events {
  let emitter = channels.get(key);
  if (emitter === undefined) {
    emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    channels.set(key, emitter);
  }
  const channel = emitter;
  return {
    publish(event: StoreEvent) {
      // Listeners run after the writer's own code continues, as a remote notice would.
      queueMicrotask(() => channel.emit('event', event));
      return Promise.resolve();
    },
    subscribe(listener) {
      const safe = (event: StoreEvent): void => {
        try {
          listener(event);
        } catch {
          // A listener's fault is its own; the others still hear the event.
        }
      };
      channel.on('event', safe);
      return () => channel.off('event', safe);
    },
  };
}
