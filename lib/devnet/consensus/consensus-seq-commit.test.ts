import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { ZERO_HASH } from '../../kaspa/hashing';
import { headerHash } from '../../kaspa/header';
import { LanesTree } from '../../kaspa/lanes-tree';
import { laneKey } from '../../kaspa/seq-commit';
import { computeSeqCommitBlock, inactivityShortcutTargetBlueScore } from '../../kaspa/seq-commit-block';
import { verifySeqCommitLaneProof } from '../../kaspa/smt-proof';
import { SUBNETWORK_ID_COINBASE, SUBNETWORK_ID_NATIVE, type Hash } from '../../kaspa/types';
import { ConsensusQueryError, type Block, type Consensus } from './consensus';
import { createTestDevnet, MINER, spend, testKey, type TestDevnet } from '../test-support/devnet-harness';
import type { UtxoChange } from './consensus';

const ACTIVATION = 12n;
const FINALITY_DEPTH = 8;
const RECIPIENT = testKey(2);

/** The selected chain from genesis to the sink, oldest first. */
function selectedChain(consensus: Consensus): string[] {
  const chain: string[] = [];
  let current = bytesToHex(consensus.sink());
  const genesis = bytesToHex(consensus.genesisHash());
  while (current !== genesis) {
    chain.push(current);
    current = consensus.getBlock(hexToBytes(current))!.ghostdag.selectedParent;
  }
  return [genesis, ...chain.reverse()];
}

/**
 * Every post-activation chain block's accepted-id root recomputed from scratch along the selected chain: lanes from
 * empty at the activation, accepted transactions and mergeset from the node's acceptance data, the shortcut from the
 * chain itself. Returns the lanes after the sink.
 */
function expectSeqCommitsAlongChain(consensus: Consensus, finalityDepth = FINALITY_DEPTH): LanesTree {
  const chain = selectedChain(consensus).map((hash) => consensus.getBlock(hexToBytes(hash))!);
  let lanes = LanesTree.EMPTY;
  let checked = 0;
  chain.forEach((block, index) => {
    if (index === 0 || block.header.daaScore < ACTIVATION) return;
    const parent = chain[index - 1]!;
    const acceptance = consensus.getAcceptanceData(block.hash)!;
    const acceptedTransactions = acceptance.flatMap((merged) => {
      const mergedBlock = consensus.getBlock(hexToBytes(merged.blockHash))!;
      const byId = new Map(mergedBlock.transactionIds.map((id, position) => [bytesToHex(id), mergedBlock.transactions[position]!]));
      return merged.acceptedTransactionIds.map((id) => {
        const tx = byId.get(bytesToHex(id)) ?? parent.transactions[0]!;
        return { id, version: tx.version, subnetworkId: tx.subnetworkId };
      });
    });
    const mergeset = acceptance.map((merged) => {
      const mergedBlock = consensus.getBlock(hexToBytes(merged.blockHash))!;
      return { hash: mergedBlock.hash, blueWork: mergedBlock.ghostdag.blueWork, coinbasePayload: mergedBlock.transactions[0]!.payload };
    });
    const target = inactivityShortcutTargetBlueScore(block.header.blueScore, BigInt(finalityDepth));
    const shortcut = target === null ? chain[0]! : chain.slice(0, index).filter((candidate) => candidate.header.blueScore <= target).at(-1)!;
    const result = computeSeqCommitBlock({
      parentSeqCommit: parent.header.acceptedIdMerkleRoot,
      lanes,
      context: { timestamp: parent.header.timestamp, daaScore: block.header.daaScore, blueScore: block.header.blueScore },
      acceptedTransactions,
      mergeset,
      inactivityShortcut: shortcut.header.daaScore >= ACTIVATION ? shortcut.header.acceptedIdMerkleRoot : ZERO_HASH,
      finalityDepth: BigInt(finalityDepth),
    });
    expect(bytesToHex(block.header.acceptedIdMerkleRoot)).toBe(bytesToHex(result.seqCommit));
    lanes = result.lanes;
    checked++;
  });
  expect(checked).toBeGreaterThan(0);
  return lanes;
}

function mineTo(net: TestDevnet, daaScore: bigint): void {
  while (net.consensus.virtualDaaScore() < daaScore) net.mine();
}

function matureUtxo(net: TestDevnet): UtxoChange {
  const pov = net.consensus.virtualDaaScore();
  return net.consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey).find((utxo) => utxo.entry.blockDaaScore + 1n <= pov)!;
}

describe('consensus: KIP-21 sequencing commitments', () => {
  it('commits every post-fork chain block to its lanes, expiring the native lane after the finality depth', () => {
    const net = createTestDevnet({ toccataActivation: ACTIVATION, coinbaseMaturity: 1, finalityDepth: FINALITY_DEPTH });
    mineTo(net, ACTIVATION + 2n);
    net.mine({ transactions: [spend(matureUtxo(net), MINER, RECIPIENT.scriptPublicKey)] });
    net.mine();
    const nativeLane = laneKey(SUBNETWORK_ID_NATIVE);
    expect(expectSeqCommitsAlongChain(net.consensus).get(nativeLane)).not.toBeNull();
    for (let i = 0; i < FINALITY_DEPTH + 3; i++) net.mine();
    expect(expectSeqCommitsAlongChain(net.consensus).get(nativeLane)).toBeNull();
    expectLaneProof(net.consensus, net.consensus.sink(), nativeLane, false);
  });

  it('keeps the Crescendo accepted-id root before the activation', () => {
    const net = createTestDevnet({ toccataActivation: ACTIVATION, coinbaseMaturity: 1, finalityDepth: FINALITY_DEPTH });
    const blocks: Block[] = [];
    while (net.consensus.virtualDaaScore() < ACTIVATION + 3n) blocks.push(net.mine());
    const never = createTestDevnet({ coinbaseMaturity: 1, finalityDepth: FINALITY_DEPTH });
    const crescendo: Block[] = blocks.map(() => never.mine());
    blocks.forEach((block, index) => {
      const same = block.header.daaScore < ACTIVATION;
      expect(bytesToHex(block.header.acceptedIdMerkleRoot) === bytesToHex(crescendo[index]!.header.acceptedIdMerkleRoot)).toBe(same);
    });
  });

  it('recomputes the lanes of the new chain after a reorganisation', () => {
    const net = createTestDevnet({ toccataActivation: ACTIVATION, coinbaseMaturity: 1, finalityDepth: 100 });
    mineTo(net, ACTIVATION + 1n);
    const fork = headerHash(net.mine().header);
    net.mine({ transactions: [spend(matureUtxo(net), MINER, RECIPIENT.scriptPublicKey)] });
    net.mine();
    let parent: Hash = fork;
    for (let i = 0; i < 4; i++) parent = headerHash(net.mine({ parents: [parent] }).header);
    expect(bytesToHex(net.consensus.sink())).toBe(bytesToHex(parent));
    const lanes = expectSeqCommitsAlongChain(net.consensus, 100);
    expect(lanes.get(laneKey(SUBNETWORK_ID_NATIVE))).toBeNull();
    expectLaneProof(net.consensus, net.consensus.sink(), laneKey(SUBNETWORK_ID_NATIVE), false);
    expectLaneProof(net.consensus, net.consensus.sink(), laneKey(SUBNETWORK_ID_COINBASE), true);
  });

  it('proves lanes only for selected-chain blocks under Toccata, with kaspad’s errors otherwise', () => {
    const net = createTestDevnet({ toccataActivation: ACTIVATION, coinbaseMaturity: 1, finalityDepth: FINALITY_DEPTH });
    const early = net.mine();
    mineTo(net, ACTIVATION + 2n);
    net.mine({ transactions: [spend(matureUtxo(net), MINER, RECIPIENT.scriptPublicKey)] });
    const withTx = net.mine();
    const key = laneKey(SUBNETWORK_ID_NATIVE);
    expectLaneProof(net.consensus, headerHash(withTx.header), key, true);
    const prove = (hash: Hash) => () => net.consensus.seqCommitLaneProof(hash, key);
    const genesis = net.consensus.genesisHash();
    expect(prove(genesis)).toThrow(new ConsensusQueryError(`block ${bytesToHex(genesis)} is genesis and has no selected parent`));
    expect(prove(headerHash(early.header))).toThrow(`toccata is not active at block ${bytesToHex(headerHash(early.header))}`);
    const unknown = new Uint8Array(32).fill(7);
    expect(prove(unknown)).toThrow(`cannot find full block ${bytesToHex(unknown)}`);
    const side = net.mine({ parents: [headerHash(early.header)] });
    expect(prove(headerHash(side.header))).toThrow(`block ${bytesToHex(headerHash(side.header))} is not in the selected parent chain`);
  });
});

function expectLaneProof(consensus: Consensus, blockHash: Hash, key: Hash, present: boolean): void {
  const proof = consensus.seqCommitLaneProof(blockHash, key);
  const block = consensus.getBlock(blockHash)!;
  const parent = consensus.getBlock(hexToBytes(block.ghostdag.selectedParent))!;
  expect(proof.lane !== null).toBe(present);
  const verdict = verifySeqCommitLaneProof(key, proof, block.header.acceptedIdMerkleRoot, parent.header.acceptedIdMerkleRoot);
  expect(verdict.valid).toBe(true);
  // A proof for the wrong block's commitment does not verify.
  expect(verifySeqCommitLaneProof(key, proof, parent.header.acceptedIdMerkleRoot).valid).toBe(false);
}
