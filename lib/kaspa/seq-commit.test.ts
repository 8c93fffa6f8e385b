import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes';
import { ZERO_HASH } from './hashing';
import {
  activeLaneLeafHash,
  activityLeaf,
  activityRootHash,
  laneActivityDigest,
  laneKey,
  laneTipNext,
  COINBASE_LANE_KEY,
  mergesetContextHash,
  minerPayloadLeaf,
  minerPayloadRoot,
  payloadAndContextDigest,
  seqCommit,
  seqCommitBranchHash,
  seqStateRoot,
} from './seq-commit';
import { toccata } from './test-support/toccata-vectors';
import { readVectors } from './test-support/vectors';
import { payloadDigest } from './transaction';
import { SUBNETWORK_ID_COINBASE } from './types';

interface Vectors {
  seqCommit: { vectors: { fn: string; expected: string }[] };
}

const { seqCommit: vectors } = readVectors<Vectors>('kaspa-vectors.json');

function expectedFor(fnPrefix: string, index = 0): string {
  const matches = vectors.vectors.filter((vector) => vector.fn.startsWith(fnPrefix));
  const match = matches[index];
  if (!match) throw new Error(`missing seqCommit vector ${fnPrefix}#${index}`);
  return match.expected;
}

/** h(b) of the source tests: 32 bytes, byte 0 = b. */
function h(byte: number): Uint8Array {
  const hash = new Uint8Array(32);
  hash[0] = byte;
  return hash;
}

const hex = bytesToHex;
const text = (value: string) => new TextEncoder().encode(value);
const hashArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const u64Arb = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

describe('seq-commit golden vectors (consensus/seq-commit/src/hashing.rs tests)', () => {
  it('lane_key', () => {
    expect(hex(laneKey(new Uint8Array(20).fill(0x42)))).toBe(expectedFor('lane_key', 0));
    expect(hex(laneKey(SUBNETWORK_ID_COINBASE))).toBe(expectedFor('lane_key', 1));
  });

  it('activity_leaf', () => {
    expect(hex(activityLeaf(h(1), 0, 0))).toBe(expectedFor('activity_leaf'));
  });

  it('lane_tip_next', () => {
    const input = {
      parentRef: h(1),
      laneKey: laneKey(new Uint8Array(20).fill(0x55)),
      activityDigest: h(2),
      contextHash: h(3),
    };
    expect(hex(laneTipNext(input))).toBe(expectedFor('lane_tip_next'));
  });

  it('miner_payload_hash', () => {
    expect(hex(payloadDigest(text('hello miner')))).toBe(expectedFor('miner_payload_hash'));
  });

  it('miner_payload_leaf', () => {
    const leaf = minerPayloadLeaf({ blockHash: h(1), blueWork: 0x0123n, coinbasePayload: text('coinbase data') });
    expect(hex(leaf)).toBe(expectedFor('miner_payload_leaf'));
  });

  it('seq_state_root', () => {
    expect(hex(seqStateRoot(h(1), payloadAndContextDigest(h(2), h(3))))).toBe(expectedFor('seq_state_root'));
  });

  it('seq_commit', () => {
    expect(hex(seqCommit(h(1), h(2)))).toBe(expectedFor('seq_commit'));
  });
});

describe('seq-commit merkle trees use H_seq with the standard shape', () => {
  it('has ZERO_HASH for no leaves, the leaf for one, H_seq(a ‖ b) for two', () => {
    for (const root of [laneActivityDigest, minerPayloadRoot]) {
      expect(root([])).toEqual(ZERO_HASH);
      expect(root([h(1)])).toEqual(h(1));
      expect(root([h(1), h(2)])).toEqual(seqCommitBranchHash(h(1), h(2)));
      expect(root([h(1), h(2), h(3)])).toEqual(
        seqCommitBranchHash(seqCommitBranchHash(h(1), h(2)), seqCommitBranchHash(h(3), ZERO_HASH)),
      );
    }
  });
});

describe('seq-commit hashes without golden vectors commit to every input', () => {
  it('mergeset context: timestamp, DAA score and blue score', () => {
    fc.assert(
      fc.property(
        fc.record({ timestamp: u64Arb, daaScore: u64Arb, blueScore: u64Arb }),
        fc.constantFrom('timestamp', 'daaScore', 'blueScore'),
        u64Arb,
        (base, key, other) => {
          fc.pre(base[key] !== other);
          expect(hex(mergesetContextHash({ ...base, [key]: other }))).not.toBe(hex(mergesetContextHash(base)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('activity root: shortcut and lanes root, in order', () => {
    expect(hex(activityRootHash(h(7), h(9)))).not.toBe(hex(activityRootHash(h(9), h(7))));
    expect(hex(activityRootHash(ZERO_HASH, h(42)))).not.toBe(hex(h(42)));
    fc.assert(
      fc.property(hashArb, hashArb, hashArb, (shortcut, lanes, other) => {
        fc.pre(hex(other) !== hex(shortcut) && hex(other) !== hex(lanes));
        const base = hex(activityRootHash(shortcut, lanes));
        expect(hex(activityRootHash(other, lanes))).not.toBe(base);
        expect(hex(activityRootHash(shortcut, other))).not.toBe(base);
      }),
      { numRuns: 40 },
    );
  });

  it('active lane leaf: lane tip and blue score', () => {
    fc.assert(
      fc.property(hashArb, u64Arb, hashArb, u64Arb, (tip, blueScore, otherTip, otherScore) => {
        fc.pre(hex(tip) !== hex(otherTip) && blueScore !== otherScore);
        const base = hex(activeLaneLeafHash(tip, blueScore));
        expect(hex(activeLaneLeafHash(otherTip, blueScore))).not.toBe(base);
        expect(hex(activeLaneLeafHash(tip, otherScore))).not.toBe(base);
      }),
      { numRuns: 40 },
    );
  });

  it('activity leaf: tx id, version and merge index', () => {
    const base = hex(activityLeaf(h(1), 0, 0));
    expect(hex(activityLeaf(h(2), 0, 0))).not.toBe(base);
    expect(hex(activityLeaf(h(1), 1, 0))).not.toBe(base);
    expect(hex(activityLeaf(h(1), 0, 1))).not.toBe(base);
  });

  it('miner payload leaf: block hash, blue work and payload', () => {
    const base = hex(minerPayloadLeaf({ blockHash: h(1), blueWork: 1n, coinbasePayload: text('data') }));
    expect(hex(minerPayloadLeaf({ blockHash: h(2), blueWork: 1n, coinbasePayload: text('data') }))).not.toBe(base);
    expect(hex(minerPayloadLeaf({ blockHash: h(1), blueWork: 2n, coinbasePayload: text('data') }))).not.toBe(base);
    expect(hex(minerPayloadLeaf({ blockHash: h(1), blueWork: 1n, coinbasePayload: text('other') }))).not.toBe(base);
  });
});

describe('seq-commit goldens (toccata-vectors seqCommit.goldens)', () => {
  type Golden = (typeof toccata.seqCommit.goldens)[number];
  const bytes = (golden: Golden, field: string) => hexToBytes(String(golden.input[field]));
  const compute: Record<string, (golden: Golden) => Uint8Array> = {
    lane_key: (golden) => laneKey(bytes(golden, 'laneId')),
    activity_leaf: (golden) => activityLeaf(bytes(golden, 'txId'), Number(golden.input.version), Number(golden.input.mergeIdx)),
    lane_tip_next: (golden) =>
      laneTipNext({
        parentRef: bytes(golden, 'parentRef'),
        laneKey: laneKey(bytes(golden, 'laneKeyOf')),
        activityDigest: bytes(golden, 'activityDigest'),
        contextHash: bytes(golden, 'contextHash'),
      }),
    miner_payload_hash: (golden) => payloadDigest(text(String(golden.input.payloadAscii))),
    miner_payload_leaf: (golden) =>
      minerPayloadLeaf({
        blockHash: bytes(golden, 'blockHash'),
        blueWork: BigInt(golden.input.blueWork!),
        coinbasePayload: text(String(golden.input.payloadAscii)),
      }),
    seq_state_root: (golden) => seqStateRoot(bytes(golden, 'activityRoot'), payloadAndContextDigest(bytes(golden, 'contextHash'), bytes(golden, 'payloadRoot'))),
    seq_commit: (golden) => seqCommit(bytes(golden, 'parentSeqCommit'), bytes(golden, 'stateRoot')),
  };

  it.each(toccata.seqCommit.goldens.map((golden) => [golden.fn, golden] as const))('%s', (fn, golden) => {
    const hasher = compute[fn];
    if (!hasher) throw new Error(`no implementation for golden ${fn}`);
    expect(hex(hasher(golden))).toBe(golden.expected);
  });

  it('COINBASE_LANE_KEY is lane_key(SUBNETWORK_ID_COINBASE)', () => {
    expect(hex(COINBASE_LANE_KEY)).toBe(hex(laneKey(SUBNETWORK_ID_COINBASE)));
  });
});
