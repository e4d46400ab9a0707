// `warden policy apply FILE`: store a policy as the next revision — on a
// server (`--server`, with an admin token) or straight into the data folder
// (or DATABASE_URL's Postgres). The file is validated whole first; nothing
// half-loads. A document without `workspace` is the managed layer. The
// client and the store load when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { RevisionView } from '../../../views/policy.js';
import type { PolicyWriteResult } from '../../../warden.js';
import { author } from '../../author.js';
import { connectOptions, DATA_FLAG } from '../../flags.js';
import type { Io } from '../../io.js';
import { EXIT, fail, printJson, style } from '../../io.js';
import type { OptionsOf, Registration } from '../../registration.js';
import { registration } from '../../registration.js';
import { openLocal } from '../../store-or-server.js';

function apply(policy: CommandUnknownOpts) {
  return connectOptions(
    policy
      .command('apply')
      .description(
        'store a policy as the next revision: on a server (`--server`, admin token) or in the data folder',
      )
      .argument('<file>', 'the policy (a document without `workspace` is the managed layer)')
      .option(DATA_FLAG.usage, DATA_FLAG.description)
      .option('--message <text>', 'say why, for the revision history'),
  ).option('--json', 'print JSON');
}

export type ApplyOptions = OptionsOf<typeof apply>;

export const registerPolicyApply: Registration = registration(apply, runApply);

export async function runApply(io: Io, file: string, options: ApplyOptions): Promise<number> {
  const [{ loadPolicyFile, readInput }, { parseText }, { rendered, renderedAll }] =
    await Promise.all([
      import('../../../policy/load.js'),
      import('../../../policy/source.js'),
      import('../../../policy/problems.js'),
    ]);
  const json = options.json === true;
  const loaded = loadPolicyFile(file, 'auto', io.stdin);
  if (!loaded.ok) return fail(io, json, loaded.issues);
  const { policy } = loaded.value;
  const text = readInput(file, io.stdin);
  if (!text.ok) return fail(io, json, text.issues);
  const parsed = parseText(text.value);
  if (!parsed.ok) return fail(io, json, renderedAll(parsed.issues));
  const document = parsed.value;
  const managed = policy.kind === 'managed';
  let written: RevisionView;
  if (
    options.server !== undefined ||
    (options.data === undefined && io.env.WARDEN_URL !== undefined && io.env.WARDEN_URL !== '')
  ) {
    const [{ call, connection }, { revisionView }] = await Promise.all([
      import('../../client.js'),
      import('../../../views/policy.js'),
    ]);
    const conn = connection(io, options);
    // The managed layer's revision is answered as a policy revision is.
    written = await call(io, conn, 'PUT', managed ? '/v1/managed' : '/v1/policy', {
      schema: revisionView,
      json,
      body: { document, ...(options.message === undefined ? {} : { message: options.message }) },
    });
  } else {
    const warden = await openLocal(io, json, options.data);
    let result: PolicyWriteResult;
    try {
      const by = {
        author: author(),
        ...(options.message === undefined ? {} : { message: options.message }),
      };
      result = managed
        ? await warden.putManagedPolicy(document, by)
        : await warden.putPolicy(document, by);
    } finally {
      await warden.close();
    }
    if (!result.ok)
      return fail(
        io,
        json,
        'conflict' in result
          ? [
              {
                code: 'conflict',
                path: '',
                message: 'another revision was written meanwhile: apply again',
              },
            ]
          : result.issues.map((i) => ({ ...rendered(i), file })),
      );
    written = result.revision;
  }
  if (json) {
    printJson(io, {
      applied: true,
      kind: policy.kind,
      workspace: policy.workspace ?? null,
      revision: written.revision,
    });
    return EXIT.ok;
  }
  const s = style(io.color);
  io.out(
    `${s.green('applied')}: ${file} is now revision ${written.revision} of ${managed ? 'the managed layer' : `workspace \`${policy.workspace ?? ''}\``} (${policy.rules.length} rule${policy.rules.length === 1 ? '' : 's'})\n`,
  );
  return EXIT.ok;
}
