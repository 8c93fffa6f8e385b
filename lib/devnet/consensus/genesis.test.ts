import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { decodeCoinbasePayload } from '../../kaspa/coinbase';
import { EMPTY_MUHASH } from '../../kaspa/muhash';
import { calcWork } from '../../kaspa/pow';
import { bitsForExpectedHashesPerBlock, createDevnetGenesis, GENESIS_HEADER_VERSION } from './genesis';

describe('createDevnetGenesis', () => {
  it("reproduces rusty-kaspa's DEVNET_GENESIS from its bits, timestamp and nonce", () => {
    // consensus/core/src/config/genesis.rs DEVNET_GENESIS, checked by its test_genesis_hashes.
    const genesis = createDevnetGenesis({ timestamp: 0x11e9db49828n, bits: 0x1e21bc1c, nonce: 0x48e5en });
    expect(bytesToHex(genesis.hash)).toBe('4cb48d0b2073b802360145a15ad1abdc01d89b5c2fe4722630ab9b5fe9dfc4f2');
    expect(bytesToHex(genesis.header.hashMerkleRoot)).toBe('58abf20321d70716162b6bf8d9f589ca33ae6e32b3b19abb7fa65d1141a3f94d');
  });

  it('builds a version 0, parentless header over one coinbase carrying the devnet payload', () => {
    const genesis = createDevnetGenesis({ timestamp: 1_750_000_000_000n, bits: 0x207fffff });
    expect(genesis.header.version).toBe(GENESIS_HEADER_VERSION);
    expect(genesis.header.parentsByLevel).toEqual([]);
    expect(genesis.header.utxoCommitment).toEqual(EMPTY_MUHASH);
    expect(genesis.transactions).toHaveLength(1);
    const payload = decodeCoinbasePayload(genesis.transactions[0]!.payload);
    expect(payload).toMatchObject({ blueScore: 0n, subsidy: 100_000_000n });
    expect(payload.scriptPublicKey.script).toEqual(Uint8Array.of(0));
    expect(new TextDecoder().decode(payload.extraData)).toBe('kaspa-devnet');
  });

  it('changes its hash with the configured timestamp and bits', () => {
    const a = createDevnetGenesis({ timestamp: 1n, bits: 0x207fffff });
    const b = createDevnetGenesis({ timestamp: 2n, bits: 0x207fffff });
    const c = createDevnetGenesis({ timestamp: 1n, bits: 0x1f00ffff });
    expect(new Set([a, b, c].map((genesis) => bytesToHex(genesis.hash))).size).toBe(3);
  });
});

describe('bitsForExpectedHashesPerBlock', () => {
  it('encodes a target whose expected work is the requested hash count, up to compact precision', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n, max: 1n << 120n }), (hashes) => {
        const work = calcWork(bitsForExpectedHashesPerBlock(hashes));
        const error = work > hashes ? work - hashes : hashes - work;
        expect(error * (1n << 14n)).toBeLessThanOrEqual(hashes);
      }),
    );
  });

  it('clamps one hash per block to the highest allowed target', () => {
    expect(bitsForExpectedHashesPerBlock(1n)).toBe(0x207fffff);
    expect(bitsForExpectedHashesPerBlock(2n)).toBe(0x207fffff);
    expect(() => bitsForExpectedHashesPerBlock(0n)).toThrow(RangeError);
  });
});
