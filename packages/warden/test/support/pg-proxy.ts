// A TCP proxy in front of Postgres that can cut every connection, like a
// database going down, and let them through again, like one coming back; or
// hold every byte on open connections, like a network that silently drops
// packets (a blackhole), and let them flow again. The shared Postgres itself
// is never stopped.

import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

export interface PgProxy {
  /** The database URL through the proxy. */
  readonly url: string;
  /** Drops every open connection and refuses new ones. */
  cut(): void;
  /** Lets connections through again. */
  restore(): void;
  /** Keeps every connection open, and new ones too, but lets no byte through either way. */
  hold(): void;
  /** Lets the held bytes, and every later one, through again. */
  release(): void;
  close(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
}

export async function pgProxy(target: URL): Promise<PgProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<Pair>();
  let down = false;
  let held = false;
  const flow = (pair: Pair): void => {
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };
  const stop = (pair: Pair): void => {
    pair.client.unpipe(pair.upstream);
    pair.upstream.unpipe(pair.client);
    pair.client.pause();
    pair.upstream.pause();
  };
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream };
    sockets.add(client);
    sockets.add(upstream);
    pairs.add(pair);
    if (held) {
      client.pause();
      upstream.pause();
    } else flow(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      pairs.delete(pair);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target.toString());
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: () => {
      down = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      pairs.clear();
    },
    restore: () => {
      down = false;
    },
    hold: () => {
      held = true;
      for (const pair of pairs) stop(pair);
    },
    release: () => {
      held = false;
      for (const pair of pairs) flow(pair);
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
