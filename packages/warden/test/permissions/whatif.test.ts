// The what-if check answers what the agent gets (G3, G38): every case of the
// decision corpus, asked through `warden explain`, gives the engine's answer.

import { describe, expect, it } from 'vitest';
import { loadCorpus, runCase } from '../../../engine/test/corpus.js';
import { DEFAULT_AT } from '../../../engine/test/corpus.js';

import { files, wardenInProcess } from '../helpers.js';

describe('warden explain answers exactly what the engine decides (G38)', () => {
  for (const file of loadCorpus()) {
    // What a call's own decision allowed (E44) is no question the what-if check is asked.
    const cases = file.cases.filter(
      (c) => c.expect.errors === undefined && c.observed === undefined,
    );
    if (cases.length === 0 || file.policyErrors !== undefined) continue;
    it(`${file.file}: ${cases.length} cases`, async () => {
      const paths = files({
        'policy.json': file.policy as object,
        ...(file.managed !== undefined ? { 'managed.json': file.managed as object } : {}),
      });
      for (const c of cases) {
        const request = files({ 'request.json': c.request as object })['request.json'] as string;
        const args = [
          'explain',
          '--policy',
          paths['policy.json'] as string,
          '--request',
          request,
          '--json',
          '--at',
          c.at ?? DEFAULT_AT,
        ];
        if (c.approver === 'connected') args.push('--approver', 'connected');
        if (c.transactional === true) args.push('--transactional');
        if (paths['managed.json'] !== undefined) args.push('--managed', paths['managed.json']);
        const ran = await wardenInProcess(args);
        expect(ran.code, `${c.name}: ${ran.stderr}${ran.stdout}`).toBe(0);
        expect(JSON.parse(ran.stdout), c.name).toEqual(runCase(file, c).result);
      }
    });
  }
});
