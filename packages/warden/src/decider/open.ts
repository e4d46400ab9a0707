// Where an adapter's decider comes from, by who decides: a Warden server (with
// a token) or a policy file on a data folder. A process that answers one call
// and exits makes one for that call and closes it after (`openForOneCall`); a
// resident one keeps them open between calls (`runner/`).

import type { Decider } from './types.js';

/** Who decides a hook's calls: a Warden server, or a policy file on a data folder. */
export type DeciderSpec =
  | { readonly kind: 'remote'; readonly server: string; readonly token: string }
  | {
      readonly kind: 'local';
      readonly policy: string;
      readonly managed: string | null;
      readonly data: string;
    };

/** A decider to use for one call, and what to do once done with it; or why there is none. */
export type OpenDecider = (
  spec: DeciderSpec,
  env: NodeJS.ProcessEnv,
) => Promise<
  { readonly decider: Decider; release(): Promise<void> } | { readonly problem: string }
>;

/**
 * For a hook started per call: a remote decider that posts once and exits, or
 * Warden opened on the policy file (without a writer thread: one call, one
 * record, and starting a thread would cost more than writing it here), closed
 * after the call.
 */
export const openForOneCall: OpenDecider = async (spec, env) => {
  if (spec.kind === 'remote') {
    const [{ remoteDecider }, { oneShotTransport }] = await Promise.all([
      import('./remote.js'),
      import('./transport.js'),
    ]);
    const decider = remoteDecider({
      server: spec.server,
      token: spec.token,
      transport: oneShotTransport(),
    });
    return { decider, release: () => decider.close() };
  }
  const { openLocalDecider } = await import('./local.js');
  const opened = await openLocalDecider({
    policy: spec.policy,
    managed: spec.managed,
    data: spec.data,
    env,
    auditThread: false,
  });
  if (!opened.ok) return { problem: opened.problem };
  return { decider: opened.decider, release: () => opened.decider.close() };
};
