// Warden's IO layer: loading policies and requests from files, and the CLI.
// Later stores, the gate, the gateway and the server live here too.

export type { InputIssue, Loaded, LoadedPolicy, ManagedChoice } from './policy/load.js';
export {
  chooseManaged,
  loadClassifier,
  loadPolicyFile,
  loadRequest,
  readInput,
} from './policy/load.js';
export { run } from './cli/main.js';
export type { Io } from './cli/io.js';
