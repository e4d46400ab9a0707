// Where rules are enforced (G37, G2, G7): what each adapter lets Warden see
// and stop, computed on this server's host, with the one sentence about the
// sandbox floor first. Every cell states exactly what holds, never more.

import { api } from '../../lib/api.js';
import { h, replace } from '../../lib/dom.js';
import { alertBox, fail, rich } from './ui.js';

/** @type {readonly [keyof import('../../lib/types.js').Honesty['adapters'][number]['cells'], string, string][]} */
const COLUMNS = [
  ['filtersToolSurface', 'Filters tool surface', 'Warden decides which tools the agent even sees'],
  ['interceptsToolCalls', 'Intercepts tool calls', 'every call passes the gate before it runs'],
  [
    'observesCompletion',
    'Observes completion',
    'Warden sees the call’s outcome (status, duration)',
  ],
  ['seesNativeTools', 'Sees native tools', 'the runtime’s built-in tools are visible to Warden'],
  ['sandboxCovered', 'Sandbox-covered', 'in-process tools run under an OS sandbox profile'],
];

/** @param {true | false | 'partial'} value */
function word(value) {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  return 'partly';
}

/** @param {HTMLElement} panel */
export function mountHonesty(panel) {
  const box = alertBox();
  const body = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  replace(panel, box, body);
  void (async () => {
    try {
      /** @type {import('../../lib/types.js').Honesty} */
      const matrix = await api('GET', '/v1/honesty');
      replace(
        body,
        h(
          'p',
          { class: `statement${matrix.host.floorMissing ? ' statement-warn' : ''}`, role: 'note' },
          h('strong', null, 'On this host: '),
          rich(matrix.host.statement),
          '.',
        ),
        h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'honesty' },
            h('caption', null, 'What each adapter lets Warden see and stop'),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', { scope: 'col' }, 'Adapter'),
                COLUMNS.map(([, label, meaning]) =>
                  h('th', { scope: 'col', title: meaning }, label),
                ),
              ),
            ),
            h(
              'tbody',
              null,
              matrix.adapters.map((row) =>
                h(
                  'tr',
                  { dataset: { adapter: row.adapter } },
                  h(
                    'th',
                    { scope: 'row' },
                    rich(row.title),
                    h(
                      'span',
                      { class: 'covers' },
                      row.available
                        ? `verified with ${row.verifiedWith}`
                        : 'not in this build: as specified',
                    ),
                  ),
                  COLUMNS.map(([key]) => {
                    const cell = row.cells[key];
                    return h(
                      'td',
                      { class: `claim claim-${word(cell.value)}` },
                      h('strong', null, word(cell.value)),
                      h('span', { class: 'claim-note' }, rich(cell.note)),
                    );
                  }),
                ),
              ),
            ),
          ),
        ),
        h(
          'dl',
          { class: 'kv legend' },
          COLUMNS.map(([, label, meaning]) => [h('dt', null, label), h('dd', null, meaning)]),
        ),
      );
    } catch (error) {
      replace(body);
      fail(box, 'Cannot read where rules are enforced', error);
    }
  })();
}
