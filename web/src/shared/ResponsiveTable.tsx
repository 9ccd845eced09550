import { Paper, Stack, Table, type TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';

export type Column<Row> = {
  /** The column's heading; `hidden` keeps it for screen readers only (an actions column). */
  header: string;
  hidden?: boolean;
  cell: (row: Row) => ReactNode;
  td?: TableTdProps;
};

type DataAttributes = Record<`data-${string}`, string>;

type Props<Row> = {
  /** The table's (or the card list's) accessible name. */
  label?: string;
  caption?: ReactNode;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: ReadonlyArray<Column<Row>>;
  /** Attributes every row and card carries, e.g. the key's id. */
  rowProps?: (row: Row) => DataAttributes;
  /** A log: striped and dense. A list of things to act on: roomier, highlighted under the pointer. */
  dense?: boolean;
  /** With `narrow`, one card per row in a list instead of the table. */
  card?: (row: Row) => ReactNode;
  narrow?: boolean;
  /** Without cards, a table narrower than this scrolls sideways instead of squeezing. */
  minWidth?: number;
};

/**
 * Every table of the back office: column headings with their scope, the same spacing, and on a
 * narrow screen either cards (a list a phone reads top to bottom) or a sideways scroll.
 */
export function ResponsiveTable<Row>({
  label,
  caption,
  rows,
  rowKey,
  columns,
  rowProps,
  dense = false,
  card,
  narrow = false,
  minWidth,
}: Props<Row>) {
  if (narrow && card) {
    return (
      <Stack component="ul" gap="sm" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((row) => (
          <Paper component="li" key={rowKey(row)} withBorder p="md" {...rowProps?.(row)}>
            {card(row)}
          </Paper>
        ))}
      </Stack>
    );
  }
  const table = (
    <Table
      verticalSpacing={dense ? 'xs' : 'sm'}
      striped={dense}
      highlightOnHover={!dense}
      {...(label ? { 'aria-label': label } : {})}
    >
      {caption && <Table.Caption>{caption}</Table.Caption>}
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header} scope="col">
              {column.hidden ? <span className="sr-only">{column.header}</span> : column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((column) => (
              <Table.Td key={column.header} {...column.td}>
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth === undefined ? table : <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer>;
}
