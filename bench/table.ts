export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** A plain-text table: each column as wide as its widest cell plus two spaces. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)) + 2);
  for (const row of [header, ...rows]) {
    console.log(row.map((cell, column) => pad(cell, widths[column]!)).join('').trimEnd());
  }
}

/** Sizes in kB of 1000 bytes, as Vite's build output prints them. */
export function kilobytes(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}
