import { Fragment } from 'react';

/** The OpenAPI document's prose: paragraphs split on blank lines, `code` spans in backticks. */
export function Prose({ text, className = '' }: { text: string; className?: string }) {
  return (
    <>
      {text
        .split(/\n{2,}/)
        .filter((paragraph) => paragraph.trim() !== '')
        .map((paragraph, index) => (
          <p key={index} className={`text-sm text-slate-700 dark:text-slate-300 ${className}`}>
            {paragraph.split('`').map((part, partIndex) =>
              partIndex % 2 === 1 ? (
                <code key={partIndex} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] dark:bg-slate-800">
                  {part}
                </code>
              ) : (
                <Fragment key={partIndex}>{part}</Fragment>
              ),
            )}
          </p>
        ))}
    </>
  );
}
