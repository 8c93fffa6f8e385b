import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, concatBytes, hexToBytes } from './bytes';
import {
  COINBASE_PAYLOAD_LIMITS,
  CoinbasePayloadError,
  decodeCoinbasePayload,
  encodeCoinbasePayload,
  type CoinbaseData,
  type CoinbasePayloadErrorCode,
} from './coinbase';
import { blockSubsidy } from './subsidy';
import { GOREF_DEVNET_BLOCKS, GOREF_SUBSIDY_PARAMS } from './test-support/goref-blocks';
import { readVectors } from './test-support/vectors';

interface CoinbaseDataVector {
  blueScore: string;
  subsidy: string;
  scriptPublicKey: { version: number; script: string };
  extraData: string;
}

interface Vectors {
  coinbasePayload: {
    vectors: {
      name: string;
      payload?: string;
      expected?: CoinbaseDataVector;
      input?: CoinbaseDataVector;
      expectedPayload?: string;
    }[];
  };
}

const { coinbasePayload } = readVectors<Vectors>('kaspa-vectors.json');

const FIXED_PART_LENGTH = 19;

function dataFromVector(vector: CoinbaseDataVector): CoinbaseData {
  return {
    blueScore: BigInt(vector.blueScore),
    subsidy: BigInt(vector.subsidy),
    scriptPublicKey: { version: vector.scriptPublicKey.version, script: hexToBytes(vector.scriptPublicKey.script) },
    extraData: hexToBytes(vector.extraData),
  };
}

function vectorNamed(name: string) {
  const vector = coinbasePayload.vectors.find((candidate) => candidate.name === name);
  if (!vector) throw new Error(`missing coinbase vector ${name}`);
  return vector;
}

function decodeError(payload: Uint8Array): CoinbasePayloadErrorCode | undefined {
  try {
    decodeCoinbasePayload(payload);
    return undefined;
  } catch (error) {
    if (error instanceof CoinbasePayloadError) return error.code;
    throw error;
  }
}

describe('coinbase payload (consensus/src/processes/coinbase.rs::payload_serialization_test)', () => {
  it('decodes an actual mainnet payload', () => {
    const vector = vectorNamed('actual mainnet payload');
    const decoded = decodeCoinbasePayload(hexToBytes(vector.payload!));
    expect(decoded).toEqual(dataFromVector(vector.expected!));
    expect(new TextDecoder().decode(decoded.extraData)).toBe('0.12.8/');
  });

  it('encodes and decodes the source test data', () => {
    const vector = vectorNamed('serialize round trip');
    const data = dataFromVector(vector.input!);
    const payload = encodeCoinbasePayload(data);
    expect(bytesToHex(payload)).toBe(vector.expectedPayload);
    expect(decodeCoinbasePayload(payload)).toEqual(data);
  });

  it.each(GOREF_DEVNET_BLOCKS.map((block) => [block.name, block] as const))(
    'decodes and re-encodes the coinbase of devnet block "%s" (consensus_integration_tests.rs::json_test)',
    (_name, block) => {
      const payload = hexToBytes(block.transactions[0]!.payload);
      const decoded = decodeCoinbasePayload(payload);
      expect(decoded.blueScore).toBe(BigInt(block.header.blueScore));
      expect(decoded.subsidy).toBe(blockSubsidy(BigInt(block.header.daaScore), GOREF_SUBSIDY_PARAMS));
      expect(bytesToHex(encodeCoinbasePayload(decoded))).toBe(bytesToHex(payload));
    },
  );

  it('round-trips any payload within the limits', () => {
    const dataArb = fc
      .record({
        blueScore: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        subsidy: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        scriptPublicKey: fc.record({
          version: fc.integer({ min: 0, max: 0xffff }),
          script: fc.uint8Array({ maxLength: COINBASE_PAYLOAD_LIMITS.scriptPublicKeyMaxLength }),
        }),
        extraData: fc.uint8Array({ maxLength: 60 }),
      })
      .filter(
        (data) =>
          FIXED_PART_LENGTH + data.scriptPublicKey.script.length + data.extraData.length <=
          COINBASE_PAYLOAD_LIMITS.maxPayloadLength,
      );
    fc.assert(
      fc.property(dataArb, (data) => {
        const payload = encodeCoinbasePayload(data);
        expect(payload.length).toBe(FIXED_PART_LENGTH + data.scriptPublicKey.script.length + data.extraData.length);
        expect(decodeCoinbasePayload(payload)).toEqual(data);
      }),
      { numRuns: 200 },
    );
  });
});

describe('coinbase payload errors', () => {
  const header = (scriptLength: number) =>
    concatBytes(new Uint8Array(FIXED_PART_LENGTH - 1), new Uint8Array([scriptLength]));

  it('rejects payloads shorter than the 19-byte fixed part', () => {
    expect(decodeError(new Uint8Array(18))).toBe('payload-too-short');
    expect(decodeError(header(0))).toBeUndefined();
  });

  it('rejects payloads longer than 204 bytes', () => {
    expect(decodeError(concatBytes(header(0), new Uint8Array(186)))).toBe('payload-too-long');
    expect(decodeError(concatBytes(header(0), new Uint8Array(185)))).toBeUndefined();
  });

  it('rejects a script length above 150 before checking that the script fits', () => {
    expect(decodeError(concatBytes(header(151), new Uint8Array(151)))).toBe('script-too-long');
    expect(decodeError(header(151))).toBe('script-too-long');
    expect(decodeError(concatBytes(header(150), new Uint8Array(150)))).toBeUndefined();
  });

  it('rejects a script that runs past the end of the payload', () => {
    expect(decodeError(concatBytes(header(34), new Uint8Array(33)))).toBe('script-truncated');
    expect(decodeError(concatBytes(header(34), new Uint8Array(34)))).toBeUndefined();
  });

  it('refuses to encode a script longer than 150 bytes', () => {
    const data: CoinbaseData = {
      blueScore: 1n,
      subsidy: 2n,
      scriptPublicKey: { version: 0, script: new Uint8Array(151) },
      extraData: new Uint8Array(0),
    };
    expect(() => encodeCoinbasePayload(data)).toThrow(CoinbasePayloadError);
  });
});
