/**
 * kaspa-rest-server's error bodies: FastAPI's `{"detail": …}`, a string for the errors its handlers raise and, for a
 * request that fails validation (422), pydantic v1's list of `{loc, msg, type, ctx?}` items, so its clients' error
 * handling works unchanged.
 */

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
}

export class RestError extends Error {
  override name = 'RestError';
  constructor(
    readonly status: number,
    readonly detail: string | ValidationItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((item) => item.msg).join('; '));
  }
}

export function validationError(items: ValidationItem[]): RestError {
  return new RestError(422, items);
}

const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);
const INTEGER = /^[+-]?\d+$/;

/**
 * Reads path and query values as FastAPI with pydantic v1 does, collecting every problem; `done` throws them as one
 * 422. Values of a failed read are fallbacks that are never used (done throws first).
 */
export class Parameters {
  readonly #items: ValidationItem[] = [];
  constructor(readonly query: URLSearchParams) {}

  fail(item: ValidationItem): void {
    this.#items.push(item);
  }

  /** A path value that must match `pattern` (FastAPI's `Path(regex=…)`). */
  pathMatching(name: string, value: string, pattern: string): string {
    if (!new RegExp(pattern).test(value)) {
      this.fail({ loc: ['path', name], msg: `string does not match regex "${pattern}"`, type: 'value_error.str.regex', ctx: { pattern } });
    }
    return value;
  }

  string(name: string): string | undefined {
    return this.query.get(name) ?? undefined;
  }

  integer(name: string, options: { ge?: number; le?: number } = {}): bigint | undefined {
    const text = this.query.get(name);
    if (text === null) return undefined;
    if (!INTEGER.test(text.trim())) {
      this.fail({ loc: ['query', name], msg: 'value is not a valid integer', type: 'type_error.integer' });
      return undefined;
    }
    const value = BigInt(text.trim());
    if (options.ge !== undefined && value < BigInt(options.ge)) {
      this.fail({
        loc: ['query', name],
        msg: `ensure this value is greater than or equal to ${options.ge}`,
        type: 'value_error.number.not_ge',
        ctx: { limit_value: options.ge },
      });
    } else if (options.le !== undefined && value > BigInt(options.le)) {
      this.fail({
        loc: ['query', name],
        msg: `ensure this value is less than or equal to ${options.le}`,
        type: 'value_error.number.not_le',
        ctx: { limit_value: options.le },
      });
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const text = this.query.get(name);
    if (text === null) return fallback;
    const word = text.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    this.fail({ loc: ['query', name], msg: 'value could not be parsed to a boolean', type: 'type_error.bool' });
    return fallback;
  }

  choice<T extends string>(name: string, values: readonly T[], fallback: T): T;
  choice<T extends string>(name: string, values: readonly T[], fallback: undefined): T | undefined;
  choice<T extends string>(name: string, values: readonly T[], fallback: T | undefined): T | undefined {
    const text = this.query.get(name);
    if (text === null) return fallback;
    if ((values as readonly string[]).includes(text)) return text as T;
    this.fail({
      loc: ['query', name],
      msg: `value is not a valid enumeration member; permitted: ${values.map((value) => `'${value}'`).join(', ')}`,
      type: 'type_error.enum',
      ctx: { enum_values: [...values] },
    });
    return fallback;
  }

  /** kaspa-rest-server's strict routes refuse query parameters they do not declare. */
  onlyKnown(known: readonly string[]): void {
    for (const name of new Set(this.query.keys())) {
      if (known.includes(name)) continue;
      this.fail({
        loc: ['query', name],
        msg: `Unknown query parameter in request: ${name}`,
        type: 'value_error',
        ctx: { available_parameters: [...known] },
      });
    }
  }

  done(): void {
    if (this.#items.length > 0) throw validationError([...this.#items]);
  }
}
