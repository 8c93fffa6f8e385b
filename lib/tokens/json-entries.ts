/**
 * A strict JSON reader (RFC 8259, as Go's encoding/json accepts it) that keeps the top-level object's members in
 * document order with their value kinds. Kasplex decodes op JSON with Go, where the order of duplicate and
 * case-folded keys decides which value wins and a non-string value for a known field drops the op, so JSON.parse
 * (which merges duplicates and hides the order) is not enough.
 */

export type JsonValueKind = 'string' | 'null' | 'number' | 'boolean' | 'object' | 'array';

export interface JsonMember {
  key: string;
  kind: JsonValueKind;
  /** The decoded string when kind is 'string', otherwise ''. */
  value: string;
}

export type JsonTopLevel =
  | { kind: 'object'; members: JsonMember[] }
  | { kind: Exclude<JsonValueKind, 'object'> };

class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

const REPLACEMENT_CHARACTER = '\ufffd';

class Reader {
  private position = 0;

  constructor(private readonly text: string) {}

  readDocument(): JsonTopLevel {
    this.skipWhitespace();
    let top: JsonTopLevel;
    if (this.peek() === '{') {
      top = { kind: 'object', members: this.readObject() };
    } else {
      top = { kind: this.readValue().kind } as JsonTopLevel;
    }
    this.skipWhitespace();
    if (this.position !== this.text.length) throw new JsonSyntaxError('trailing characters after the JSON value');
    return top;
  }

  private peek(): string | undefined {
    return this.text[this.position];
  }

  private expect(char: string): void {
    if (this.text[this.position] !== char) throw new JsonSyntaxError(`expected ${char} at ${this.position}`);
    this.position++;
  }

  private skipWhitespace(): void {
    while (this.position < this.text.length) {
      const char = this.text[this.position];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.position++;
    }
  }

  private readObject(): JsonMember[] {
    this.expect('{');
    const members: JsonMember[] = [];
    this.skipWhitespace();
    if (this.peek() === '}') {
      this.position++;
      return members;
    }
    for (;;) {
      this.skipWhitespace();
      const key = this.readString();
      this.skipWhitespace();
      this.expect(':');
      const value = this.readValue();
      members.push({ key, kind: value.kind, value: value.text });
      this.skipWhitespace();
      const next = this.peek();
      this.position++;
      if (next === '}') return members;
      if (next !== ',') throw new JsonSyntaxError(`expected , or } at ${this.position - 1}`);
    }
  }

  private readArray(): void {
    this.expect('[');
    this.skipWhitespace();
    if (this.peek() === ']') {
      this.position++;
      return;
    }
    for (;;) {
      this.readValue();
      this.skipWhitespace();
      const next = this.peek();
      this.position++;
      if (next === ']') return;
      if (next !== ',') throw new JsonSyntaxError(`expected , or ] at ${this.position - 1}`);
    }
  }

  private readValue(): { kind: JsonValueKind; text: string } {
    this.skipWhitespace();
    const char = this.peek();
    switch (char) {
      case '"':
        return { kind: 'string', text: this.readString() };
      case '{':
        this.readObject();
        return { kind: 'object', text: '' };
      case '[':
        this.readArray();
        return { kind: 'array', text: '' };
      case 't':
        this.readLiteral('true');
        return { kind: 'boolean', text: '' };
      case 'f':
        this.readLiteral('false');
        return { kind: 'boolean', text: '' };
      case 'n':
        this.readLiteral('null');
        return { kind: 'null', text: '' };
      default:
        this.readNumber();
        return { kind: 'number', text: '' };
    }
  }

  private readLiteral(literal: string): void {
    if (this.text.slice(this.position, this.position + literal.length) !== literal) {
      throw new JsonSyntaxError(`invalid literal at ${this.position}`);
    }
    this.position += literal.length;
  }

  private readNumber(): void {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.text.slice(this.position));
    if (!match) throw new JsonSyntaxError(`invalid value at ${this.position}`);
    this.position += match[0].length;
  }

  private readHex4(): number {
    const digits = this.text.slice(this.position, this.position + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new JsonSyntaxError(`invalid \\u escape at ${this.position}`);
    this.position += 4;
    return parseInt(digits, 16);
  }

  /** Go replaces an unpaired surrogate escape with U+FFFD. */
  private readUnicodeEscape(): string {
    const unit = this.readHex4();
    if (unit < 0xd800 || unit > 0xdfff) return String.fromCharCode(unit);
    if (unit <= 0xdbff && this.text.startsWith('\\u', this.position)) {
      const save = this.position;
      this.position += 2;
      const low = this.readHex4();
      if (low >= 0xdc00 && low <= 0xdfff) return String.fromCharCode(unit, low);
      this.position = save;
    }
    return REPLACEMENT_CHARACTER;
  }

  private readString(): string {
    this.expect('"');
    let out = '';
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) throw new JsonSyntaxError('unterminated string');
      this.position++;
      if (char === '"') return out;
      if (char < ' ') throw new JsonSyntaxError(`control character in string at ${this.position - 1}`);
      if (char !== '\\') {
        out += char;
        continue;
      }
      const escape = this.text[this.position++];
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out += escape;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u':
          out += this.readUnicodeEscape();
          break;
        default:
          throw new JsonSyntaxError(`invalid escape at ${this.position - 1}`);
      }
    }
  }
}

/** The top-level value of a JSON text, or null when the text is not valid JSON. */
export function readJsonTopLevel(text: string): JsonTopLevel | null {
  try {
    return new Reader(text).readDocument();
  } catch (error) {
    if (error instanceof JsonSyntaxError) return null;
    throw error;
  }
}
