// `warden policy apply FILE`: store a policy as the next revision — on a
// server (`--server`, with an admin token) or straight into the data folder
// (or DATABASE_URL's Postgres). The file is validated whole first; nothing
// half-loads. A document without `workspace` is the managed layer.

import { userInfo } from 'node:os';
import { loadPolicyFile, readInput } from '../policy/load.js';
import { parseText } from '../policy/source.js';
import type { RevisionView } from '../views/policy.js';
import { revisionView } from '../views/policy.js';
import type { PolicyWriteResult } from '../warden.js';
import { call, connection } from './client.js';
import { openLocal } from './store-or-server.js';
import type { ApplyOptions } from './commands/policy.js';
import type { Io } from './io.js';
import { EXIT, fail, printJson, style } from './io.js';

/** Who writes a revision from this machine: `cli:<user>`. */
export function author(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

export async function runApply(io: Io, file: string, options: ApplyOptions): Promise<number> {
  const json = options.json === true;
  const loaded = loadPolicyFile(file, 'auto', io.stdin);
  if (!loaded.ok) return fail(io, json, loaded.issues);
  const { policy } = loaded.value;
  const text = readInput(file, io.stdin);
  const parsed = text.ok ? parseText(text.value) : text;
  if (!parsed.ok) return fail(io, json, parsed.issues);
  const document = parsed.value;
  const managed = policy.kind === 'managed';
  let written: RevisionView;
  if (
    options.server !== undefined ||
    (options.data === undefined && io.env.WARDEN_URL !== undefined && io.env.WARDEN_URL !== '')
  ) {
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
          : result.issues.map((i) => ({ ...i, file })),
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
