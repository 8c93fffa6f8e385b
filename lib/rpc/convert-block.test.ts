import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import { headerHash } from '../kaspa/header';
import { GOREF_DEVNET_BLOCKS } from '../kaspa/test-support/goref-blocks';
import { headerFromVector, type HeaderVector } from '../kaspa/test-support/headers';
import { readVectors, transactionFromVector } from '../kaspa/test-support/vectors';
import type { Header, Transaction, TransactionInput, TransactionOutput } from '../kaspa/types';
import { parseJson, stringifyJson } from './json';
import { U64_FIELD_NAMES } from './protocol';
import type { RpcBlock, RpcHeader, RpcRawBlock, RpcRawBlockInputForm, RpcRawHeader } from './types';
import type { Block } from '../kaspa/types';
import {
  blockFromRpc,
  blockToRpc,
  blockToRpcRaw,
  blockToRpcSubmission,
  blueWorkFromRpc,
  blueWorkToRpc,
  headerFromRpc,
  headerToRpc,
  headerToRpcRaw,
  scriptPublicKeyToRpcString,
  transactionToRpcOutput,
} from './convert-block';
import { transactionFromRpc } from './convert-transaction';

/** Sends a value through the wire codec the way the client and server see it. */
function overWire<T>(value: T): T {
  return parseJson(stringifyJson(value), { bigintKeys: U64_FIELD_NAMES }) as T;
}

const { headers } = readVectors<{
  headers: { vectors: { name: string; header: HeaderVector; expectedHeaderHash: string }[] };
}>('kaspa-vectors.json');

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

const headerArbitrary: fc.Arbitrary<Header> = fc.record({
  version: fc.integer({ min: 0, max: 0xffff }),
  parentsByLevel: fc.array(fc.array(hash, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
  hashMerkleRoot: hash,
  acceptedIdMerkleRoot: hash,
  utxoCommitment: hash,
  timestamp: u64,
  bits: fc.integer({ min: 0, max: 0xffffffff }),
  nonce: u64,
  daaScore: u64,
  blueScore: u64,
  blueWork: fc.bigInt({ min: 0n, max: (1n << 192n) - 1n }),
  pruningPoint: hash,
});

const outputArbitrary: fc.Arbitrary<TransactionOutput> = fc.oneof(
  fc.record({
    value: u64,
    scriptPublicKey: fc.record({ version: fc.integer({ min: 0, max: 0xffff }), script: fc.uint8Array({ maxLength: 40 }) }),
  }),
  fc.record({
    value: u64,
    scriptPublicKey: fc.record({ version: fc.integer({ min: 0, max: 0xffff }), script: fc.uint8Array({ maxLength: 40 }) }),
    covenant: fc.record({ authorizingInput: fc.integer({ min: 0, max: 0xffff }), covenantId: hash }),
  }),
);

function inputArbitrary(version: number): fc.Arbitrary<TransactionInput> {
  const base = {
    previousOutpoint: fc.record({ transactionId: hash, index: fc.integer({ min: 0, max: 0xffffffff }) }),
    signatureScript: fc.uint8Array({ maxLength: 70 }),
    sequence: u64,
    sigOpCount: fc.integer({ min: 0, max: 0xff }),
  };
  return version === 0 ? fc.record(base) : fc.record({ ...base, computeBudget: fc.integer({ min: 0, max: 0xffff }) });
}

const transactionArbitrary: fc.Arbitrary<Transaction> = fc.constantFrom(0, 1).chain((version) =>
  fc.record({
    version: fc.constant(version),
    inputs: fc.array(inputArbitrary(version), { maxLength: 3 }),
    outputs: fc.array(outputArbitrary, { maxLength: 3 }),
    lockTime: u64,
    subnetworkId: fc.uint8Array({ minLength: 20, maxLength: 20 }),
    gas: u64,
    payload: fc.uint8Array({ maxLength: 40 }),
    storageMass: u64,
  }),
);

const blockArbitrary: fc.Arbitrary<Block> = fc.record({
  header: headerArbitrary,
  transactions: fc.array(transactionArbitrary, { maxLength: 4 }),
});

/** The vectors' reader writes `covenant: null`; the conversions use the other spelling of "no covenant", an absent key. */
function withoutNullCovenants(tx: Transaction): Transaction {
  return { ...tx, outputs: tx.outputs.map(({ covenant, ...output }) => (covenant ? { ...output, covenant } : output)) };
}

const GOREF_BLOCKS: Block[] = GOREF_DEVNET_BLOCKS.map((vector) => ({
  header: headerFromVector(vector.header),
  transactions: vector.transactions.map((tx) => withoutNullCovenants(transactionFromVector(tx))),
}));

describe('headers', () => {
  it.each(headers.vectors.map((vector) => [vector.name, vector] as const))(
    'the read form of %s carries the consensus hash (genesis.rs::test_genesis_hashes)',
    (_name, vector) => {
      const header = headerFromVector(vector.header);
      const rpc = overWire(headerToRpc(header));
      expect(rpc.hash).toBe(vector.expectedHeaderHash);
      expect(headerFromRpc(rpc)).toEqual(header);
    },
  );

  it('round-trips any header through the raw and read forms over the wire codec', () => {
    fc.assert(
      fc.property(headerArbitrary, (header) => {
        expect(headerFromRpc(overWire(headerToRpcRaw(header)))).toEqual(header);
        expect(headerFromRpc(overWire(headerToRpc(header)))).toEqual(header);
      }),
      { numRuns: 100 },
    );
  });

  it('writes fields in serde order: the raw form without a hash, the read form with the hash first', () => {
    const header = GOREF_BLOCKS[0]!.header;
    const rawKeys: (keyof RpcRawHeader)[] = [
      'version',
      'parentsByLevel',
      'hashMerkleRoot',
      'acceptedIdMerkleRoot',
      'utxoCommitment',
      'timestamp',
      'bits',
      'nonce',
      'daaScore',
      'blueWork',
      'blueScore',
      'pruningPoint',
    ];
    expect(Object.keys(headerToRpcRaw(header))).toEqual(rawKeys);
    const readKeys: (keyof RpcHeader)[] = ['hash', ...rawKeys];
    expect(Object.keys(headerToRpc(header))).toEqual(readKeys);
  });

  it('uses a given hash instead of rehashing', () => {
    const header = GOREF_BLOCKS[0]!.header;
    const given = new Uint8Array(32).fill(0xab);
    expect(headerToRpc(header, given).hash).toBe('ab'.repeat(32));
    expect(headerToRpc(header).hash).toBe(bytesToHex(headerHash(header)));
  });

  it('reads u64 fields given as plain numbers (hand-built objects)', () => {
    const header = GOREF_BLOCKS[0]!.header;
    const raw = headerToRpcRaw(header);
    const loose = {
      ...raw,
      timestamp: Number(raw.timestamp),
      nonce: 7,
      daaScore: Number(raw.daaScore),
      blueScore: Number(raw.blueScore),
    } as unknown as RpcRawHeader;
    expect(headerFromRpc(loose)).toEqual({ ...header, nonce: 7n });
  });

  it('rejects hashes that are not 32 bytes', () => {
    const raw = headerToRpcRaw(GOREF_BLOCKS[0]!.header);
    expect(() => headerFromRpc({ ...raw, pruningPoint: 'ab'.repeat(31) })).toThrow(/pruningPoint must be 32 bytes/);
    expect(() => headerFromRpc({ ...raw, parentsByLevel: [['ab'.repeat(33)]] })).toThrow(/parent must be 32 bytes/);
  });
});

describe('blue work', () => {
  it('is written as 48 zero-padded big-endian hex digits', () => {
    expect(blueWorkToRpc(0n)).toBe('0'.repeat(48));
    expect(blueWorkToRpc(0x1234n)).toBe(`${'0'.repeat(44)}1234`);
    expect(blueWorkToRpc((1n << 192n) - 1n)).toBe('f'.repeat(48));
    expect(() => blueWorkToRpc(1n << 192n)).toThrow(RangeError);
    expect(() => blueWorkToRpc(-1n)).toThrow(RangeError);
  });

  it('is read left-padded like Uint192::from_hex, up to 48 digits', () => {
    expect(blueWorkFromRpc('')).toBe(0n);
    expect(blueWorkFromRpc('1')).toBe(1n);
    expect(blueWorkFromRpc('ABcd')).toBe(0xabcdn);
    expect(() => blueWorkFromRpc('1'.repeat(49))).toThrow(RangeError);
    expect(() => blueWorkFromRpc('0x12')).toThrow(RangeError);
  });
});

describe('transactions in the output form', () => {
  it('writes script public keys as strings, mass beside storageMass and nulls where there is no data', () => {
    const tx = GOREF_BLOCKS[1]!.transactions.find((candidate) => candidate.inputs.length > 0) ?? GOREF_BLOCKS[1]!.transactions[0]!;
    const rpc = transactionToRpcOutput(tx);
    expect(rpc.mass).toBe(tx.storageMass);
    expect(rpc.storageMass).toBe(tx.storageMass);
    expect(rpc.verboseData).toBeNull();
    for (const [index, output] of rpc.outputs.entries()) {
      const original = tx.outputs[index]!;
      expect(output.scriptPublicKey).toBe(
        original.scriptPublicKey.version.toString(16).padStart(4, '0') + bytesToHex(original.scriptPublicKey.script),
      );
      expect(output.covenant).toBeNull();
      expect(output.verboseData).toBeNull();
    }
    for (const input of rpc.inputs) {
      expect(input.computeBudget).toBe(0);
      expect(input.verboseData).toBeNull();
    }
  });

  it('encodes the script version big-endian in four hex digits', () => {
    expect(scriptPublicKeyToRpcString({ version: 0x0102, script: Uint8Array.of(0xac) })).toBe('0102ac');
    expect(scriptPublicKeyToRpcString({ version: 0, script: new Uint8Array(0) })).toBe('0000');
  });

  it('round-trips any transaction over the wire codec', () => {
    fc.assert(
      fc.property(transactionArbitrary, (tx) => {
        expect(transactionFromRpc(overWire(transactionToRpcOutput(tx)))).toEqual(tx);
      }),
      { numRuns: 200 },
    );
  });
});

describe('blocks', () => {
  it.each(GOREF_DEVNET_BLOCKS.map((vector, index) => [vector.name, index] as const))(
    'round-trips %s (consensus_integration_tests.rs::json_test) through every form',
    (_name, index) => {
      const block = GOREF_BLOCKS[index]!;
      const raw = overWire<RpcRawBlock>(blockToRpcRaw(block));
      expect(blockFromRpc(raw)).toEqual(block);
      expect(blockFromRpc(overWire<RpcRawBlockInputForm>(blockToRpcSubmission(block)))).toEqual(block);
      const read = overWire<RpcBlock>(blockToRpc(block));
      expect(read.header.hash).toBe(GOREF_DEVNET_BLOCKS[index]!.expectedHash);
      expect(blockFromRpc(read)).toEqual(block);
    },
  );

  it('round-trips any block through the template, submission and read forms', () => {
    fc.assert(
      fc.property(blockArbitrary, (block) => {
        expect(blockFromRpc(overWire(blockToRpcRaw(block)))).toEqual(block);
        expect(blockFromRpc(overWire(blockToRpcSubmission(block)))).toEqual(block);
        expect(blockFromRpc(overWire(blockToRpc(block)))).toEqual(block);
      }),
      { numRuns: 50 },
    );
  });

  it('keeps the template form free of a header hash and the read form index-aligned with verbose data', () => {
    const block = GOREF_BLOCKS[1]!;
    expect('hash' in blockToRpcRaw(block).header).toBe(false);
    const txVerbose = block.transactions.map((_, index) => ({
      transactionId: bytesToHex(new Uint8Array(32).fill(index)),
      hash: bytesToHex(new Uint8Array(32).fill(index + 1)),
      computeMass: BigInt(index),
      blockHash: '00'.repeat(32),
      blockTime: 0n,
    }));
    const read = blockToRpc(block, { transactionVerboseData: txVerbose });
    expect(read.transactions.map((tx) => tx.verboseData)).toEqual(txVerbose);
    expect(read.verboseData).toBeNull();
  });
});
