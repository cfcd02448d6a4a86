/** A value for a CSV cell: text as it is, numbers as dollar amounts with 2 decimals. */
export type CsvValue = string | number;

/**
 * One spreadsheet cell: text starting with =, +, -, @, a tab or a carriage return gets a leading
 * apostrophe so a spreadsheet never runs it as a formula; commas, quotes and line breaks are quoted.
 */
export function csvCell(value: CsvValue): string {
  const text = typeof value === 'number' ? value.toFixed(2) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV file: the header, then one line per row, CRLF line ends (RFC 4180). */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Marks an answer as a CSV file the browser saves as `filename`, never kept by a cache (staff data). */
export function asCsvDownload(reply: { header(name: string, value: string): unknown }, filename: string): void {
  reply.header('cache-control', 'no-store');
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${filename}"`);
}
