import type { ReactNode } from 'react';

export interface DocColumn {
  label: string;
  numeric?: boolean;
}

/** A table of the API reference (styled by `.doc-table` in globals.css), in a marked scroll region. */
export function DocTable({
  caption,
  captionHidden = false,
  columns,
  className = '',
  children,
}: {
  caption: string;
  captionHidden?: boolean;
  columns: DocColumn[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto" data-scroll-container="">
      <table className={`doc-table ${className}`}>
        <caption className={captionHidden ? 'sr-only' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.numeric ? 'text-right' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
