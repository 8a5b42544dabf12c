// The one table formatter of the CLI: columns padded to their widest cell, two spaces apart.
// (cli-table3 and friends draw borders and colours we do not want; this is all we need.)

export type Align = 'left' | 'right';

/** The rows as lines; `align` per column (default left). Trailing spaces are trimmed. */
export function formatTable(
  rows: ReadonlyArray<readonly string[]>,
  align: readonly Align[] = [],
): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  return rows.map((row) =>
    row
      .map((cell, i) =>
        align[i] === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}
