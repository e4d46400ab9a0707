// `warden/gateway`: the MCP gateway — it puts the tools of MCP servers behind
// the gate, deciding in process (a policy file) or by asking a Warden server.

export type { ConfigLoad, GatewayConfig } from '../gateway/config.js';
export { loadGatewayConfig, validateGatewayConfig } from '../gateway/config.js';
export type { Decider } from '../gateway/decider.js';
export { connectedDecider, standaloneDecider } from '../gateway/decider.js';
export type { CallOptions, GatewayOptions } from '../gateway/gateway.js';
export { Gateway, GatewayStartError } from '../gateway/gateway.js';
export type { HttpGateway } from '../gateway/upstream.js';
export { mcpServer, serveHttp, serveStdio } from '../gateway/upstream.js';
