/**
 * The widest cell a column is padded to. A longer cell (served text is any length: a 1 MB
 * providerID or stored phase) is written whole but widens nothing: padding every row to it
 * made the output rows × its length (1,000 Machines beside one 1 MB providerID: 1 GB, and
 * past V8's longest string a crash). Names (253) and real providerIDs fit.
 */
export const MAX_PADDED_WIDTH = 512;

/**
 * A kubectl-style table: columns padded to their widest cell (up to `MAX_PADDED_WIDTH`),
 * `gap` spaces apart (kubectl's three).
 */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  { gap = 3 }: { gap?: number } = {},
): string {
  // (a loop, not Math.max(...cells): spreading 100,000 rows' cells as arguments overflows the stack)
  const widths = headers.map((h) => h.length);
  for (const row of rows)
    for (let i = 0; i < widths.length; i++) {
      const width = (row[i] ?? '').length;
      if (width <= MAX_PADDED_WIDTH) widths[i] = Math.max(widths[i]!, width);
    }
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join(' '.repeat(gap))
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}

/**
 * kubectl's age column (`HumanDuration`): 45s, 5m30s, 12m, 5h3m, 20h, 3d4h, 45d, 2y30d, 9y.
 * `<unknown>` without a timestamp.
 */
export function age(timestamp: string | undefined, nowMs: number): string {
  const then = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  if (Number.isNaN(then)) return '<unknown>';
  const seconds = Math.max(0, Math.floor((nowMs - then) / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const years = Math.floor(days / 365);
  if (seconds < 120) return `${seconds}s`;
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (hours < 3) return `${minutes}m`;
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 730) return `${days}d`;
  if (years < 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/**
 * A value from the cluster as a table cell: text as it is, a number or boolean as written, an
 * object or list as its JSON. A loosely typed field (v1alpha1 CRDs type `status.nodeRef` and
 * `spec.versions` as bare objects) can hold anything, and `String()` showed an object as
 * `[object Object]`.
 */
export function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
