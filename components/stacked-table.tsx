/**
 * The explorer's tables that scroll sideways on narrow screens and stack their rows on phones (globals.css
 * `.stack-on-phone`: the header hides and each cell shows its `data-label`): the sr-only caption that names the
 * table, the header row from `columns`, and the caller's rows. Invariant: every header cell but the last keeps a
 * right gap (`pr-3`), as the callers' body cells do, so the last column sits flush with the table's edge.
 */
import type { ReactNode } from 'react';
import { ScrollArea } from './ui';

export interface StackedColumn {
  label: string;
  /** Amounts, counts, scores and end-of-row status read right-aligned. */
  alignRight?: boolean;
}

interface Props {
  /** The scroll region's accessible name. */
  label: string;
  /** Read by screen readers only; it names the table. */
  caption: ReactNode;
  columns: readonly StackedColumn[];
  /** 'list': the rows are a page's subject (roomier rows); 'detail': a part of an entity's page, in a card. */
  density: 'list' | 'detail';
  testId?: string;
  /** The body rows; each cell carries `data-label`, which stands in for the header once the rows stack. */
  children: ReactNode;
  /** Rows of a `<tfoot>`, e.g. totals. */
  footer?: ReactNode;
}

export function StackedTable({ label, caption, columns, density, testId, children, footer }: Props) {
  const padding = density === 'list' ? 'py-2' : 'py-1';
  const headers = columns.map((column, index) => (
    <th
      key={column.label}
      scope="col"
      className={[padding, index < columns.length - 1 && 'pr-3', column.alignRight && 'text-right', 'font-medium'].filter(Boolean).join(' ')}
    >
      {column.label}
    </th>
  ));
  return (
    <ScrollArea label={label}>
      <table className={density === 'list' ? 'stack-on-phone w-full text-sm' : 'stack-on-phone w-full text-left text-sm'} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        {density === 'list' ? (
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">{headers}</tr>
          </thead>
        ) : (
          <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
            <tr>{headers}</tr>
          </thead>
        )}
        <tbody>{children}</tbody>
        {footer !== undefined && <tfoot>{footer}</tfoot>}
      </table>
    </ScrollArea>
  );
}
