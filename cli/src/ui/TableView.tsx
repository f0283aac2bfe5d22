/** A table at a terminal: a dim header, aligned columns, an empty-state line and an optional footer. */
import { Box, Text } from 'ink';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Right-aligned (numbers). */
  align?: 'left' | 'right';
  /** Greys the cell (ids and other details). */
  dim?: boolean;
}

export interface TableViewProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** Greys a whole row (a disabled seat). */
  dimRow?: (row: Row) => boolean;
  empty?: string;
  footer?: string;
}

const pad = (s: string, width: number, align: 'left' | 'right' = 'left') =>
  align === 'right' ? s.padStart(width) : s.padEnd(width);

export function TableView<Row>({
  columns,
  rows,
  dimRow,
  empty = 'No data found',
  footer,
}: TableViewProps<Row>) {
  if (rows.length === 0) return <Text dimColor>{empty}</Text>;
  const cells = rows.map((row) => columns.map((c) => c.value(row)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  return (
    <Box flexDirection="column">
      <Text dimColor>
        {columns
          .map((c, i) => pad(c.header, widths[i]!, c.align))
          .join('  ')
          .trimEnd()}
      </Text>
      {cells.map((row, r) => {
        const greyed = dimRow?.(rows[r]!) ?? false;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the table is drawn once
          <Text key={r} dimColor={greyed}>
            {row.map((cell, i) => {
              const last = i === row.length - 1;
              const text = last
                ? pad(cell, widths[i]!, columns[i]!.align).trimEnd()
                : pad(cell, widths[i]!, columns[i]!.align);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                <Text key={i} dimColor={greyed || columns[i]!.dim}>
                  {text}
                  {last ? '' : '  '}
                </Text>
              );
            })}
          </Text>
        );
      })}
      {footer && (
        <Box marginTop={1}>
          <Text dimColor>{footer}</Text>
        </Box>
      )}
    </Box>
  );
}
