import type { BenchRow } from './bench-row';

function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toString();
  const magnitude = Math.abs(value);
  return magnitude >= 100 ? value.toFixed(0) : magnitude >= 1 ? value.toFixed(2) : value.toPrecision(3);
}

/** Renders bench rows as an aligned plain-text table. */
export function formatTable(rows: readonly BenchRow[]): string {
  const header = ['group', 'metric', 'value', 'unit', 'task', 'backend', 'note'];
  const body = rows.map((row) => [row.group, row.metric, formatValue(row.value), row.unit, row.task ?? '', row.backend ?? '', row.note ?? '']);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 2 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}
