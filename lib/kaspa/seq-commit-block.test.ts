import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, compareBytes, hexToBytes } from './bytes';
import { ZERO_HASH } from './hashing';
import { LanesTree } from './lanes-tree';
import { laneKey } from './seq-commit';
import {
  computeSeqCommitBlock,
  inactivityShortcutOf,
  inactivityShortcutTargetBlueScore,
  type AcceptedTransaction,
  type MergedBlock,
  type SeqCommitBlockInput,
} from './seq-commit-block';
import { toccata, type AcceptedTxVector, type MergedBlockVector } from './test-support/toccata-vectors';
import { SUBNETWORK_ID_COINBASE, SUBNETWORK_ID_NATIVE, type Hash } from './types';

const { exampleBlock, derivedChain } = toccata.seqCommit;

const acceptedFrom = (txs: readonly AcceptedTxVector[]): AcceptedTransaction[] =>
  txs.map((tx) => ({ id: hexToBytes(tx.id), version: tx.version, subnetworkId: hexToBytes(tx.subnetworkId) }));
const mergesetFrom = (blocks: readonly MergedBlockVector[]): MergedBlock[] =>
  blocks.map((block) => ({ hash: hexToBytes(block.hash), blueWork: BigInt(block.blueWork), coinbasePayload: hexToBytes(block.coinbasePayload) }));
const byLaneId = <T extends { laneId: string }>(lanes: T[]) => [...lanes].sort((a, b) => compareBytes(hexToBytes(a.laneId), hexToBytes(b.laneId)));

describe('a block’s seq commit (consensus/seq-commit/tests/example_block.rs, derived)', () => {
  const { input, expected } = exampleBlock;
  const lanes = LanesTree.fromRecords(
    input.activeLanesBefore.map((lane) => ({
      laneKey: laneKey(hexToBytes(lane.laneId)),
      entry: { tip: hexToBytes(lane.tip), blueScore: BigInt(lane.blueScore) },
    })),
  );
  const blockInput: SeqCommitBlockInput = {
    parentSeqCommit: hexToBytes(input.parentSeqCommit),
    lanes,
    context: { timestamp: BigInt(input.context.timestamp), daaScore: BigInt(input.context.daaScore), blueScore: BigInt(input.context.blueScore) },
    acceptedTransactions: acceptedFrom(input.acceptedTxs),
    mergeset: mergesetFrom(input.mergeset),
    inactivityShortcut: hexToBytes(input.inactivityShortcut),
    finalityDepth: BigInt(input.finalityDepth),
  };
  const result = computeSeqCommitBlock(blockInput);

  it('computes every component and the commitment', () => {
    expect({
      contextHash: bytesToHex(result.contextHash),
      laneTips: result.touchedLanes.map((lane) => ({
        laneId: bytesToHex(lane.laneId),
        isNew: lane.isNew,
        activityDigest: bytesToHex(lane.activityDigest),
        tip: bytesToHex(lane.tip),
      })),
      lanesRoot: bytesToHex(result.lanesRoot),
      payloadRoot: bytesToHex(result.payloadRoot),
      payloadAndContextDigest: bytesToHex(result.payloadAndContextDigest),
      activityRoot: bytesToHex(result.activityRoot),
      stateRoot: bytesToHex(result.stateRoot),
      seqCommit: bytesToHex(result.seqCommit),
    }).toEqual({ ...expected, laneTips: byLaneId(expected.laneTips) });
  });

  it('reports changes that take the parent’s lanes to the block’s and back, leaving the input untouched', () => {
    expect(bytesToHex(lanes.apply(result.changes).root)).toBe(bytesToHex(result.lanesRoot));
    expect(bytesToHex(result.lanes.revert(result.changes).root)).toBe(bytesToHex(lanes.root));
    expect(lanes.size).toBe(input.activeLanesBefore.length);
    expect(result.changes.map((change) => [bytesToHex(change.laneKey), change.before !== null])).toEqual(
      result.touchedLanes.map((lane) => [bytesToHex(lane.laneKey), !lane.isNew]),
    );
  });

  it('depends on acceptance order, not just the set of transactions', () => {
    const reordered = computeSeqCommitBlock({ ...blockInput, acceptedTransactions: [...blockInput.acceptedTransactions].reverse() });
    expect(bytesToHex(reordered.seqCommit)).not.toBe(bytesToHex(result.seqCommit));
  });
});

describe('a derived chain with lane expiry, re-activation and the inactivity shortcut (derived)', () => {
  const finalityDepth = BigInt(derivedChain.finalityDepth);
  const genesis = derivedChain.genesis;

  it('reproduces every block', () => {
    const chain: { hash: string; blueScore: bigint; seqCommit: Hash; toccataActive: boolean }[] = [
      { hash: genesis.hash, blueScore: BigInt(genesis.blueScore), seqCommit: hexToBytes(genesis.acceptedIdMerkleRoot), toccataActive: genesis.version >= 2 },
    ];
    let lanes = LanesTree.EMPTY;
    for (const block of derivedChain.blocks) {
      const parent = chain[chain.length - 1]!;
      expect(block.selectedParent).toBe(parent.hash);
      const blueScore = BigInt(block.blueScore);
      const target = inactivityShortcutTargetBlueScore(blueScore, finalityDepth);
      const shortcutBlock = target === null ? chain[0]! : chain.filter((ancestor) => ancestor.blueScore <= target).at(-1)!;
      const inactivityShortcut = inactivityShortcutOf({ acceptedIdMerkleRoot: shortcutBlock.seqCommit, toccataActive: shortcutBlock.toccataActive });
      const result = computeSeqCommitBlock({
        parentSeqCommit: parent.seqCommit,
        lanes,
        context: { timestamp: BigInt(block.parentTimestamp), daaScore: BigInt(block.daaScore), blueScore },
        acceptedTransactions: acceptedFrom(block.acceptedTxs),
        mergeset: mergesetFrom(block.mergeset),
        inactivityShortcut,
        finalityDepth,
      });
      expect({
        inactivityShortcut: bytesToHex(inactivityShortcut),
        touched: result.touchedLanes.map((lane) => ({ laneId: bytesToHex(lane.laneId), isNew: lane.isNew })),
        expired: result.expiredLaneKeys.map(bytesToHex),
        lanesRoot: bytesToHex(result.lanesRoot),
        seqCommit: bytesToHex(result.seqCommit),
      }).toEqual({ ...block.expected, touched: byLaneId(block.expected.touched), expired: [...block.expected.expired].sort() });
      lanes = result.lanes;
      chain.push({ hash: block.hash, blueScore, seqCommit: result.seqCommit, toccataActive: true });
    }
  });
});

describe('lane activity window', () => {
  const tip = (byte: number) => new Uint8Array(32).fill(byte);
  const base = (blueScore: bigint, lanes: LanesTree): SeqCommitBlockInput => ({
    parentSeqCommit: tip(0xaa),
    lanes,
    context: { timestamp: 1n, daaScore: blueScore, blueScore },
    acceptedTransactions: [{ id: tip(1), version: 1, subnetworkId: SUBNETWORK_ID_NATIVE }],
    mergeset: [],
    inactivityShortcut: ZERO_HASH,
    finalityDepth: 10n,
  });

  it('continues a lane touched at exactly bs − F and restarts one touched at bs − F − 1', () => {
    const native = laneKey(SUBNETWORK_ID_NATIVE);
    const coinbase = laneKey(SUBNETWORK_ID_COINBASE);
    const lanes = LanesTree.EMPTY.set(native, { tip: tip(2), blueScore: 90n }).set(coinbase, { tip: tip(3), blueScore: 89n });
    const result = computeSeqCommitBlock(base(100n, lanes));
    expect(result.touchedLanes.map((lane) => lane.isNew)).toEqual([false]);
    expect(result.expiredLaneKeys).toEqual([coinbase]);
    const restarted = computeSeqCommitBlock(base(101n, lanes));
    expect(restarted.touchedLanes.map((lane) => lane.isNew)).toEqual([true]);
    expect(restarted.changes.find((change) => bytesToHex(change.laneKey) === bytesToHex(native))?.before?.blueScore).toBe(90n);
    expect(restarted.lanes.size).toBe(1);
  });

  it('the shortcut block is genesis below F + 1 and then trails the block by F + 1 blue score', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10_000n }), fc.bigInt({ min: 0n, max: 1000n }), (blueScore, depth) => {
        const target = inactivityShortcutTargetBlueScore(blueScore, depth);
        expect(target === null).toBe(blueScore <= depth);
        if (target !== null) expect(target).toBe(blueScore - depth - 1n);
      }),
    );
    expect(inactivityShortcutOf({ acceptedIdMerkleRoot: tip(5), toccataActive: false })).toEqual(ZERO_HASH);
  });
});
