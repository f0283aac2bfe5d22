/**
 * The design system's table: a card whose rows become cards of their own when it is narrow (each cell
 * labelled with its column, styles.css), a caption for screen readers, header cells with their scope, and
 * a row saying so when there is nothing to list (omit `empty` when the page shows its own empty state).
 */
import type { ReactNode } from 'react';

export interface Column<R> {
  header: string;
  cell: (row: R, index: number) => ReactNode;
}

export function DataTable<R>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  children,
}: {
  /** Read by screen readers only. */
  caption: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  /** The text of the row shown when `rows` is empty. */
  empty?: string;
  /** Below the table, inside its card (a note, a pager). */
  children?: ReactNode;
}) {
  return (
    <div className="card table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length} className="empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row, i) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.header} data-label={c.header}>
                    {c.cell(row, i)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
      {children}
    </div>
  );
}
