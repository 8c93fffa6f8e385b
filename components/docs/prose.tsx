import { Fragment } from 'react';

/** One line of the OpenAPI document's prose: `code` spans in backticks. */
export function InlineMarkup({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className="doc-inline-code">
            {part}
          </code>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** A URL path that may wrap after any slash, and only there (a narrow column never breaks it letter by letter). */
export function PathText({ path }: { path: string }) {
  const segments = path.split('/');
  // Each segment and its slash are one text node: adjacent text nodes would each cost a `<!-- -->` in the HTML.
  return (
    <>
      {segments.map((segment, index) =>
        index < segments.length - 1 ? (
          <Fragment key={index}>
            {`${segment}/`}
            <wbr />
          </Fragment>
        ) : (
          <Fragment key={index}>{segment}</Fragment>
        ),
      )}
    </>
  );
}

/** The OpenAPI document's prose: paragraphs split on blank lines, `code` spans in backticks. */
export function Prose({ text, className = '' }: { text: string; className?: string }) {
  return (
    <>
      {text
        .split(/\n{2,}/)
        .filter((paragraph) => paragraph.trim() !== '')
        .map((paragraph, index) => (
          <p key={index} className={`doc-prose ${className}`}>
            <InlineMarkup text={paragraph} />
          </p>
        ))}
    </>
  );
}
