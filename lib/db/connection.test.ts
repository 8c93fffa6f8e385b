import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './test-support/test-databases';
import { testBackends } from './test-support/test-databases';
import { binaryByteaArray } from './connection';

/** Empty, the bytes an array literal must escape (backslash, quote, comma, brace), and a hash. */
const sample = [new Uint8Array(0), new Uint8Array([0x00, 0x5c, 0x22, 0x2c, 0x7b, 0xff]), Uint8Array.from({ length: 32 }, (_, i) => i * 8)];

describe.each(testBackends())('bytea parameters and results on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it('round-trips a bytea, byte for byte, as a Uint8Array', async () => {
    for (const value of sample) {
      const { rows } = await database.db.query<{ value: Uint8Array; length: number }>(
        'SELECT $1::bytea AS value, length($1::bytea) AS length',
        [value],
      );
      expect(rows[0]!.length).toBe(value.length);
      expect(rows[0]!.value).toBeInstanceOf(Uint8Array);
      expect(Array.from(rows[0]!.value)).toEqual(Array.from(value));
    }
  });

  it('round-trips a bytea[] with nulls, element by element, as the server sees it', async () => {
    const values = [...sample, null];
    const { rows } = await database.db.query<{ position: number; value: Uint8Array | null; hex: string | null }>(
      `SELECT position::integer AS position, value, encode(value, 'hex') AS hex
       FROM unnest($1::bytea[]) WITH ORDINALITY AS v(value, position) ORDER BY position`,
      [values],
    );
    expect(rows.map((row) => row.hex)).toEqual(values.map((value) => (value ? Buffer.from(value).toString('hex') : null)));
    expect(rows.map((row) => (row.value ? Array.from(row.value) : null))).toEqual(values.map((value) => (value ? Array.from(value) : null)));
  });

  it('takes an empty bytea[], one of nulls only, and one starting with a null', async () => {
    for (const values of [[], [null, null], [null, sample[2]!]]) {
      const { rows } = await database.db.query<{ hex: string | null }>(
        `SELECT encode(value, 'hex') AS hex FROM unnest($1::bytea[]) WITH ORDINALITY AS v(value, position) ORDER BY position`,
        [values],
      );
      expect(rows.map((row) => row.hex)).toEqual(values.map((value) => (value ? Buffer.from(value).toString('hex') : null)));
    }
  });

  it('round-trips a bytea[] result column', async () => {
    const { rows } = await database.db.query<{ values: Uint8Array[] }>('SELECT $1::bytea[] AS values', [sample]);
    expect(rows[0]!.values.map((value) => Array.from(value))).toEqual(sample.map((value) => Array.from(value)));
  });
});

describe('binaryByteaArray', () => {
  it('encodes only arrays of bytes (with nulls), leaving every other array to the text path', () => {
    expect(binaryByteaArray(['kaspa:q', 'x'])).toBeNull();
    expect(binaryByteaArray([1n, 2n])).toBeNull();
    expect(binaryByteaArray([])).toBeNull();
    expect(binaryByteaArray([null])).toBeNull();
    const encoded = binaryByteaArray([Uint8Array.of(0xab), null])!;
    expect(encoded.toString('hex')).toBe('00000001' + '00000001' + '00000011' + '00000002' + '00000001' + '00000001ab' + 'ffffffff');
  });
});
