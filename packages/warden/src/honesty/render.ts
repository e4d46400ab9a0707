// The matrix as plain text, for `warden doctor`: the host statement first (G2,
// G7), then one row per adapter with ✓ / ✗ / ~ per column, then every note, so
// no mark is shown without the sentence that says exactly what it means.

import type { Cell } from './columns.js';
import { COLUMN_MEANINGS, MATRIX_COLUMNS } from './columns.js';
import type { HonestyMatrix } from './matrix.js';

export const MARKS = { true: '✓', false: '✗', partial: '~' } as const;

export function mark(cell: Cell): string {
  return cell.value === 'partial' ? MARKS.partial : cell.value ? MARKS.true : MARKS.false;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((text, i) => (i === r.length - 1 ? text : text.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export function renderMatrix(matrix: HonestyMatrix): string {
  const { host } = matrix;
  const lines: string[] = [
    `host: ${host.platform}; sandbox backend: ${host.backend ?? 'none'}`,
    host.statement,
    '',
  ];
  const header = ['adapter', 'available', ...MATRIX_COLUMNS, 'verified with'];
  const body = matrix.adapters.map((a) => [
    a.adapter,
    a.available ? 'yes' : 'no',
    ...MATRIX_COLUMNS.map((c) => mark(a.cells[c])),
    a.verifiedWith,
  ]);
  lines.push(...table([header, ...body]));
  lines.push(
    '',
    `${MARKS.true} yes   ${MARKS.false} no   ${MARKS.partial} partly (the note says which part)`,
  );
  for (const column of MATRIX_COLUMNS) lines.push(`${column}: ${COLUMN_MEANINGS[column]}`);
  for (const a of matrix.adapters) {
    lines.push(
      '',
      `${a.adapter}: ${a.title}${a.available ? '' : ' (not in this build: specified, not run)'}`,
    );
    lines.push(`  verified with ${a.verifiedWith}: ${a.basis}`);
    for (const column of MATRIX_COLUMNS) {
      const cell = a.cells[column];
      lines.push(`  ${mark(cell)} ${column}: ${cell.note}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
