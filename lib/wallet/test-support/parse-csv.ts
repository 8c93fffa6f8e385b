/**
 * RFC 4180 reader for the tests of the CSV exports: quoted fields may hold commas, doubled quotes and line breaks;
 * every line ends with CRLF, the last included (a text that does not is refused).
 */
export function parseCsv(text: string): string[][] {
  const lines: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      fields.push(field);
      lines.push(fields);
      fields = [];
      field = '';
      index += 1;
    } else field += char;
  }
  if (quoted || field !== '' || fields.length > 0) throw new Error('the CSV does not end with a complete CRLF-terminated line');
  return lines;
}
