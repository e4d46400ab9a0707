// `warden/server`: the HTTP server `warden serve` runs — its configuration,
// the app (to mount or to test without a socket) and agent tokens.

export type { RunningServer, StartOptions } from '../server/serve.js';
export { startServer } from '../server/serve.js';
export type { ServerState } from '../server/app.js';
export { createApp } from '../server/app.js';
export type { ServerContext } from '../server/context.js';
export type { ConfigFlags, ConfigResult, ServerConfig } from '../server/config.js';
export { DEFAULT_PORT, configSchema, loadConfig } from '../server/config.js';
export type { Identity, Permission } from '../server/auth.js';
export type { TokenRequest } from '../tokens.js';
export { createToken } from '../tokens.js';
