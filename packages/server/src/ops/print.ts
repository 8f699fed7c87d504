import type { OpsResult } from './command';

/** Columns of CJK and other wide characters take two cells in a terminal. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const cellWidth = (s: string) => [...s].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0);
const padCell = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - cellWidth(s)));

/** One value on one line: objects as JSON, line breaks shown as spaces. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.replace(/\s*\n\s*/g, ' ');
}

/** A table with a header line; columns as given, else the keys of the first row. */
export function formatTable(rows: Record<string, unknown>[], columns?: string[]): string {
  if (rows.length === 0) return '(none)';
  const cols = columns ?? Object.keys(rows[0]!);
  const cells = rows.map((r) => cols.map((c) => cell(r[c])));
  const widths = cols.map((c, i) => Math.max(cellWidth(c), ...cells.map((r) => cellWidth(r[i]!))));
  const line = (values: string[]) => values.map((v, i) => padCell(v, widths[i]!)).join('  ').trimEnd();
  return [line(cols), ...cells.map(line)].join('\n');
}

export function formatRecord(record: Record<string, unknown>): string {
  const keys = Object.keys(record);
  const width = Math.max(...keys.map(cellWidth));
  return keys.map((k) => `${padCell(k, width)}  ${cell(record[k])}`).join('\n');
}

/** What a command prints: for people, or with --json the data alone for scripts. */
export function formatResult(result: OpsResult, json: boolean): string {
  if ('table' in result) return json ? JSON.stringify(result.table, null, 2) : formatTable(result.table, result.columns);
  if ('record' in result) return json ? JSON.stringify(result.record, null, 2) : formatRecord(result.record);
  return json ? JSON.stringify({ ok: true, message: result.done, ...result.data }, null, 2) : result.done;
}
