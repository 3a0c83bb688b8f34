/** A kubectl-style table: columns padded to their widest cell, three spaces apart. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('   ')
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
