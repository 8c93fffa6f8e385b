import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, compareBytes, hexToBytes } from './bytes';
import { LaneChangeMismatchError, LanesTree, type LaneEntry, type LaneRecord } from './lanes-tree';
import { activeCollapsedHash, activeLaneLeafHash, activeNodeHash, emptySubtreeHash, keyBit, laneKey, SMT_DEPTH } from './seq-commit';
import { decodeSmtProof, encodeSmtProof, SmtProofError, smtProofRoot, verifySmtProof } from './smt-proof';
import { toccata } from './test-support/toccata-vectors';
import type { Hash } from './types';

const { smtRoots } = toccata.seqCommit;

/** The tree hash straight from its definition, for comparison: no trie, no caching. */
function referenceRoot(records: readonly LaneRecord[]): Hash {
  const subtree = (lanes: readonly LaneRecord[], depth: number): Hash => {
    if (lanes.length === 0) return emptySubtreeHash(SMT_DEPTH - depth);
    if (lanes.length === 1) return activeCollapsedHash(lanes[0]!.laneKey, activeLaneLeafHash(lanes[0]!.entry.tip, lanes[0]!.entry.blueScore));
    const left = lanes.filter((lane) => !keyBit(lane.laneKey, depth));
    const right = lanes.filter((lane) => keyBit(lane.laneKey, depth));
    return activeNodeHash(subtree(left, depth + 1), subtree(right, depth + 1));
  };
  return subtree(records, 0);
}

const entryArb = fc.record({ tip: fc.uint8Array({ minLength: 32, maxLength: 32 }), blueScore: fc.bigInt({ min: 0n, max: 1000n }) });
/** Keys that often share long prefixes (down to differing only in the last bit) as well as random ones. */
const keyArb = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
  fc.tuple(fc.constantFrom(0x00, 0x80), fc.nat({ max: 7 })).map(([first, last]) => Uint8Array.of(first, ...new Uint8Array(30), last)),
);
const recordsArb = fc
  .array(fc.record({ laneKey: keyArb, entry: entryArb }), { maxLength: 12 })
  .map((records) => [...new Map(records.map((record) => [bytesToHex(record.laneKey), record])).values()]);

const sortedRecords = (records: readonly LaneRecord[]) => [...records].sort((a, b) => compareBytes(a.laneKey, b.laneKey));

describe('active-lanes tree roots (consensus/smt-store/tests/integration.rs goldens)', () => {
  it.each(smtRoots.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const records = vector.leaves.map((leaf) => {
      if (leaf.laneId) expect(bytesToHex(laneKey(hexToBytes(leaf.laneId)))).toBe(leaf.key);
      return { laneKey: hexToBytes(leaf.key), entry: { tip: hexToBytes(leaf.laneTip), blueScore: BigInt(leaf.blueScore) } };
    });
    expect(bytesToHex(LanesTree.fromRecords(records).root)).toBe(vector.expectedRoot);
  });

  it('the empty tree root is the empty subtree of height 256 (derived)', () => {
    expect(bytesToHex(LanesTree.EMPTY.root)).toBe(smtRoots.derivedEmptyRoot.value);
    expect(bytesToHex(emptySubtreeHash(SMT_DEPTH))).toBe(smtRoots.derivedEmptyRoot.value);
  });

  it('reproduces the deletion round trip of the goldens incrementally', () => {
    const [block1, , block3] = smtRoots.vectors.map((vector) =>
      vector.leaves.map((leaf) => ({ laneKey: hexToBytes(leaf.key), entry: { tip: hexToBytes(leaf.laneTip), blueScore: BigInt(leaf.blueScore) } })),
    );
    const first = LanesTree.fromRecords(block1!);
    const second = first.delete(block1![0]!.laneKey);
    expect(bytesToHex(second.root)).toBe(smtRoots.vectors[1]!.expectedRoot);
    const third = block3!.reduce((tree, record) => tree.set(record.laneKey, record.entry), second);
    expect(bytesToHex(third.root)).toBe(smtRoots.vectors[2]!.expectedRoot);
    expect(bytesToHex(first.root)).toBe(smtRoots.vectors[0]!.expectedRoot);
  });
});

describe('LanesTree', () => {
  it('matches the definition after any sequence of inserts, updates and deletes', () => {
    fc.assert(
      fc.property(recordsArb, fc.array(fc.nat(), { maxLength: 8 }), (records, deletions) => {
        let tree = LanesTree.fromRecords(records);
        const remaining = new Map(records.map((record) => [bytesToHex(record.laneKey), record]));
        for (const pick of deletions) {
          const victim = [...remaining.values()][pick % Math.max(1, remaining.size)];
          if (!victim) break;
          tree = tree.delete(victim.laneKey);
          remaining.delete(bytesToHex(victim.laneKey));
        }
        const expected = sortedRecords([...remaining.values()]);
        expect(tree.records()).toEqual(expected);
        expect(tree.size).toBe(expected.length);
        expect(bytesToHex(tree.root)).toBe(bytesToHex(referenceRoot(expected)));
      }),
    );
  });

  it('is persistent: updates leave the earlier tree untouched', () => {
    fc.assert(
      fc.property(recordsArb, keyArb, entryArb, (records, key, entry) => {
        const before = LanesTree.fromRecords(records);
        const root = bytesToHex(before.root);
        const updated = before.set(key, entry);
        const emptied = records.reduce((tree, record) => tree.delete(record.laneKey), before);
        expect(bytesToHex(before.root)).toBe(root);
        expect(before.records()).toEqual(sortedRecords(records));
        expect(updated.get(key)).toEqual(entry);
        expect(emptied.size).toBe(0);
        expect(bytesToHex(emptied.root)).toBe(bytesToHex(LanesTree.EMPTY.root));
      }),
    );
  });

  it('applies a block of changes and reverts them to the same root', () => {
    fc.assert(
      fc.property(recordsArb, fc.array(fc.record({ laneKey: keyArb, entry: fc.option(entryArb) }), { maxLength: 10 }), (records, edits) => {
        const tree = LanesTree.fromRecords(records);
        let current = tree;
        const changes = edits.map(({ laneKey: key, entry }) => {
          const change = { laneKey: key, before: current.get(key), after: entry };
          current = current.apply([change]);
          return change;
        });
        expect(bytesToHex(tree.apply(changes).root)).toBe(bytesToHex(current.root));
        const reverted = current.revert(changes);
        expect(bytesToHex(reverted.root)).toBe(bytesToHex(tree.root));
        expect(reverted.records()).toEqual(tree.records());
      }),
    );
  });

  it('refuses a change whose before-state is not the current one', () => {
    const key = new Uint8Array(32).fill(1);
    const entry: LaneEntry = { tip: new Uint8Array(32), blueScore: 1n };
    const tree = LanesTree.EMPTY.set(key, entry);
    expect(() => tree.apply([{ laneKey: key, before: null, after: entry }])).toThrow(LaneChangeMismatchError);
    expect(() => tree.revert([{ laneKey: key, before: null, after: { ...entry, blueScore: 2n } }])).toThrow(LaneChangeMismatchError);
  });

  it('lists exactly the lanes below a blue score', () => {
    fc.assert(
      fc.property(recordsArb, fc.bigInt({ min: 0n, max: 1001n }), (records, threshold) => {
        const tree = LanesTree.fromRecords(records);
        expect(tree.lanesBelow(threshold)).toEqual(sortedRecords(records.filter((record) => record.entry.blueScore < threshold)));
      }),
    );
  });
});

describe('lane proofs (crypto/smt/src/proof.rs)', () => {
  it('prove inclusion of every lane and non-inclusion of absent keys, through the wire format', () => {
    fc.assert(
      fc.property(recordsArb, keyArb, (records, absent) => {
        const tree = LanesTree.fromRecords(records);
        for (const { laneKey: key, entry } of records) {
          const proof = decodeSmtProof(encodeSmtProof(tree.prove(key)));
          const leaf = activeLaneLeafHash(entry.tip, entry.blueScore);
          expect(verifySmtProof(proof, key, leaf, tree.root)).toBe(true);
          expect(verifySmtProof(proof, key, activeLaneLeafHash(entry.tip, entry.blueScore + 1n), tree.root)).toBe(false);
          expect(verifySmtProof(proof, key, null, tree.root)).toBe(false);
        }
        if (!tree.get(absent)) {
          const proof = decodeSmtProof(encodeSmtProof(tree.prove(absent)));
          expect(verifySmtProof(proof, absent, null, tree.root)).toBe(true);
          expect(verifySmtProof(proof, absent, new Uint8Array(32).fill(9), tree.root)).toBe(false);
        }
      }),
    );
  });

  it('ends at a single-lane subtree with Collapsed or CollapsedOther, and at depth 256 with Full', () => {
    const key = (last: number) => Uint8Array.of(...new Uint8Array(31), last);
    const entry = { tip: new Uint8Array(32).fill(7), blueScore: 3n };
    const single = LanesTree.EMPTY.set(key(0), entry);
    expect(single.prove(key(0)).terminal).toEqual({ kind: 'Collapsed', depth: 0 });
    expect(single.prove(key(1)).terminal).toMatchObject({ kind: 'CollapsedOther', depth: 0, laneKey: key(0) });
    const pair = single.set(key(1), entry);
    const deepest = pair.prove(key(1));
    expect(deepest.terminal).toEqual({ kind: 'Full' });
    expect(deepest.siblings).toHaveLength(1);
    expect(verifySmtProof(deepest, key(1), activeLaneLeafHash(entry.tip, entry.blueScore), pair.root)).toBe(true);
    expect(LanesTree.EMPTY.prove(key(0))).toEqual({ bitmap: new Uint8Array(32).fill(0xff), siblings: [], terminal: { kind: 'Full' } });
  });

  it('rejects malformed proofs', () => {
    const proof = encodeSmtProof(LanesTree.EMPTY.set(new Uint8Array(32), { tip: new Uint8Array(32), blueScore: 0n }).set(new Uint8Array(32).fill(0xff), { tip: new Uint8Array(32), blueScore: 0n }).prove(new Uint8Array(32)));
    expect(() => decodeSmtProof(proof.subarray(0, proof.length - 1))).toThrow(SmtProofError);
    expect(() => decodeSmtProof(proof.subarray(0, 20))).toThrow(SmtProofError);
    const badTag = proof.slice();
    badTag[32] = 7;
    expect(() => decodeSmtProof(badTag)).toThrow(SmtProofError);
    const decoded = decodeSmtProof(proof);
    expect(() => smtProofRoot({ ...decoded, siblings: [] }, new Uint8Array(32), null)).toThrow(SmtProofError);
  });
});
