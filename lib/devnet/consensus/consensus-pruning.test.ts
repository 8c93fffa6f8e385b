import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { headerHash } from '../../kaspa/header';
import { createConsensus, type Block } from './consensus';
import { decodeSnapshot, encodeSnapshot, SnapshotError } from './consensus-snapshot';
import { createTestDevnet, MINER, PRUNING_TEST_PARAMS, solve, spend, testKey, type TestDevnet } from '../test-support/devnet-harness';

const RECIPIENT = testKey(7);

/** Mines `count` rounds: mostly one block, every fifth round two parallel ones, spending matured coinbase outputs. */
function mineDag(devnet: TestDevnet, count: number, mined: Block[]): void {
  const spent = new Set<string>();
  for (let round = 0; round < count; round++) {
    const spendable = devnet.consensus
      .getUtxosByScriptPublicKey(MINER.scriptPublicKey)
      .filter(({ entry, outpoint }) => entry.blockDaaScore + 10n < devnet.consensus.virtualDaaScore() && !spent.has(bytesToHex(outpoint.transactionId)));
    const transactions = round % 3 === 0 && spendable.length > 0 ? [spend(spendable[0]!, MINER, RECIPIENT.scriptPublicKey)] : [];
    for (const tx of transactions) spent.add(bytesToHex(tx.inputs[0]!.previousOutpoint.transactionId));
    if (round % 5 === 4) {
      const first = solve(devnet.template({ transactions }));
      const second = solve(devnet.template({ extraData: new Uint8Array([round & 0xff]) }));
      for (const block of [first, second]) {
        expect(devnet.submit(block)).toEqual({ type: 'success' });
        mined.push(block);
      }
      devnet.advance(100);
    } else {
      mined.push(devnet.mine({ transactions }));
    }
  }
}

function virtualState(devnet: Pick<TestDevnet, 'consensus'>['consensus']) {
  return {
    tips: devnet.getTips().map(bytesToHex).sort(),
    sink: bytesToHex(devnet.sink()),
    pruningPoint: bytesToHex(devnet.pruningPoint()),
    utxoCommitment: bytesToHex(devnet.virtualUtxoCommitment()),
    daaScore: devnet.virtualDaaScore(),
    blueScore: devnet.virtualBlueScore(),
    supply: devnet.coinSupply().circulatingSompi,
  };
}

describe('devnet pruning', () => {
  it('prunes several times and restarts from the snapshot to the same virtual state', () => {
    const devnet = createTestDevnet(PRUNING_TEST_PARAMS);
    const moves: string[] = [];
    devnet.consensus.events.on('pruningPointMoved', ({ pruningPoint }) => moves.push(bytesToHex(pruningPoint)));
    const mined: Block[] = [];
    mineDag(devnet, 180, mined);
    expect(moves.length).toBeGreaterThanOrEqual(4);
    expect(bytesToHex(devnet.consensus.pruningPoint())).toBe(moves.at(-1));

    const pruningPoint = devnet.consensus.getBlock(devnet.consensus.pruningPoint())!;
    const snapshot = decodeSnapshot(encodeSnapshot(devnet.consensus.snapshot(), pruningPoint.ghostdag.blueScore));
    expect(snapshot.blocks.length).toBeLessThan(mined.length / 2);

    const restarted = createConsensus({
      params: devnet.consensus.params,
      genesis: devnet.genesis,
      clock: () => Number(devnet.now()),
      random: () => 0,
      snapshot,
    });
    const tail = mined.filter((block) => block.header.blueScore > pruningPoint.ghostdag.blueScore);
    for (const block of tail) expect(restarted.validateAndInsertBlock(block, { allowNonDaaBlocks: true, trusted: true })).toEqual({ type: 'success' });
    expect(virtualState(restarted)).toEqual(virtualState(devnet.consensus));
    expect(restarted.utxoSetSnapshot()).toEqual(devnet.consensus.utxoSetSnapshot());

    // Both keep going on the same rules: a block mined by one is accepted by the other.
    const next = devnet.mine();
    expect(restarted.validateAndInsertBlock(next)).toEqual({ type: 'success' });
    expect(virtualState(restarted)).toEqual(virtualState(devnet.consensus));
  });

  it('answers for pruned blocks as a pruned kaspad does', () => {
    const devnet = createTestDevnet(PRUNING_TEST_PARAMS);
    const mined: Block[] = [];
    mineDag(devnet, 160, mined);
    const { consensus } = devnet;
    const pruningPoint = consensus.pruningPoint();
    expect(bytesToHex(pruningPoint)).not.toBe(bytesToHex(devnet.genesis.hash));
    const old = headerHash(mined[3]!.header);
    expect(consensus.hasBlock(old)).toBe(false);
    expect(consensus.getBlock(old)).toBeUndefined();
    expect(consensus.getBlock(devnet.genesis.hash)).toBeUndefined();
    expect(consensus.getBlocks()[0]).toEqual(pruningPoint);
    expect(consensus.getBlock(pruningPoint)?.transactions.length).toBeGreaterThan(0);
    expect(consensus.blockCount()).toBeLessThan(mined.length / 2);
    const resubmitted = consensus.validateAndInsertBlock(mined[3]!);
    expect(resubmitted.type).toBe('reject');
  });

  it('rejects a torn or altered snapshot', () => {
    const devnet = createTestDevnet(PRUNING_TEST_PARAMS);
    mineDag(devnet, 120, []);
    const text = encodeSnapshot(devnet.consensus.snapshot(), 1n);
    expect(() => decodeSnapshot(text.slice(0, text.length - 100))).toThrow(SnapshotError);
    expect(() => decodeSnapshot(text.replace('"status":"utxoValid"', '"status":"utxoValiD"'))).toThrow(/checksum/);
  });
});
