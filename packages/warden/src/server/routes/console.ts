// What the web console needs beyond the other routes: views computed on the
// server from the same engine the agents get their answers from.

import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';

export function consoleRoutes(_api: Api, _ctx: ServerContext): void {
  // Filled in as the console's screens need them.
}
