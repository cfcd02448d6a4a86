import type { ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
}

/** A small report table; its first column names the row. */
export function ReportTable<Row>({ caption, rows, columns, rowKey }: { caption: string; rows: Row[]; columns: Array<Column<Row>>; rowKey: (row: Row) => string }) {
  const [first, ...rest] = columns;
  const align = (column: Column<Row>) => (column.numeric ? 'whitespace-nowrap text-right tabular-nums' : '');
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-ink-500/30">
            {columns.map((column, index) => (
              <th key={column.header} scope="col" className={`py-2 font-semibold ${index > 0 ? 'pl-3' : ''} ${align(column)}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="border-b border-mango-50">
              <th scope="row" className="py-2 pr-3 font-medium">{first!.cell(row)}</th>
              {rest.map((column) => (
                <td key={column.header} className={`py-2 pl-3 ${align(column)}`}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
