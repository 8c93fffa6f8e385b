import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { headerHash } from '../../kaspa/header';
import { TX_VERSION, TX_VERSION_TOCCATA } from '../../kaspa/transaction';
import type { Block } from './consensus';
import { FORK_NEVER } from './params';
import { createTestDevnet, MINER, solve, spend, testKey, type TestDevnet } from '../test-support/devnet-harness';

const ACTIVATION = 30n;
const RECIPIENT = testKey(2);
const OTHER = testKey(3);

function mineTo(net: TestDevnet, daaScore: bigint): Block[] {
  const blocks: Block[] = [];
  while (net.consensus.virtualDaaScore() < daaScore) blocks.push(net.mine());
  return blocks;
}

describe('consensus: the Toccata fork', () => {
  it('crosses the activation mid-chain: version 1 headers and v0 coinbases before, version 2 and v1 after', () => {
    const net = createTestDevnet({ toccataActivation: ACTIVATION });
    const blocks = mineTo(net, ACTIVATION + 10n);
    for (const block of blocks) {
      const active = block.header.daaScore >= ACTIVATION;
      expect(block.header.version).toBe(active ? 2 : 1);
      expect(block.transactions[0]!.version).toBe(active ? TX_VERSION_TOCCATA : TX_VERSION);
      const info = net.consensus.getBlock(headerHash(block.header))!;
      expect(info.isChainBlock).toBe(true);
      expect(info.status).toBe('utxoValid');
    }
    expect(blocks.some((block) => block.header.daaScore === ACTIVATION)).toBe(true);

    // A version 0 transaction spending a pre-fork coinbase is still accepted after the fork.
    const reward = net.consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey).find((utxo) => utxo.entry.blockDaaScore < ACTIVATION)!;
    const tx = spend(reward, MINER, RECIPIENT.scriptPublicKey);
    net.mine({ transactions: [tx] });
    net.mine();
    expect(net.consensus.getUtxo(reward.outpoint)).toBeUndefined();
    expect(net.consensus.getBalanceByScriptPublicKey(RECIPIENT.scriptPublicKey)).toBe(reward.entry.amount - 1_000_000n);
  });

  it('rejects a version 2 header before the activation and a version 1 header from it, with kaspad’s text', () => {
    const net = createTestDevnet({ toccataActivation: ACTIVATION });
    net.mine();
    const early = solve({ ...net.template(), header: { ...net.template().header, version: 2 } });
    expect(net.submit(early)).toEqual({
      type: 'reject',
      reason: 'blockInvalid',
      message: 'wrong block version: got 2 but expected 1',
    });
    mineTo(net, ACTIVATION);
    const template = net.template();
    expect(template.header.daaScore).toBeGreaterThanOrEqual(ACTIVATION);
    const late = solve({ ...template, header: { ...template.header, version: 1 } });
    expect(net.submit(late)).toEqual({
      type: 'reject',
      reason: 'blockInvalid',
      message: 'wrong block version: got 1 but expected 2',
    });
  });

  it('disqualifies from the chain a post-fork block whose first parent is not its selected parent', () => {
    const net = createTestDevnet({ toccataActivation: ACTIVATION });
    mineTo(net, ACTIVATION);
    const a = solve(net.template({ payScriptPublicKey: RECIPIENT.scriptPublicKey }));
    const b = solve(net.template({ payScriptPublicKey: OTHER.scriptPublicKey }));
    expect(net.submit(a)).toEqual({ type: 'success' });
    expect(net.submit(b)).toEqual({ type: 'success' });
    net.advance(100);

    const template = net.template();
    const [first, second] = template.header.parentsByLevel[0]!;
    expect(second).toBeDefined();
    const swapped = solve({
      ...template,
      header: { ...template.header, parentsByLevel: [[second!, first!], ...template.header.parentsByLevel.slice(1)] },
    });
    expect(net.submit(swapped)).toEqual({ type: 'success' });
    const info = net.consensus.getBlock(headerHash(swapped.header))!;
    expect(info.status).toBe('disqualifiedFromChain');
    expect(info.disqualificationReason).toBe(
      `block ${bytesToHex(headerHash(swapped.header))} first direct parent is ${bytesToHex(second!)} but selected parent is ${bytesToHex(first!)}`,
    );
    expect(info.isChainBlock).toBe(false);

    // The template's own order (selected parent first) qualifies.
    const ordered = solve(template);
    expect(net.submit(ordered)).toEqual({ type: 'success' });
    expect(net.consensus.isChainBlock(headerHash(ordered.header))).toBe(true);
  });

  it('keeps the Crescendo chain when Toccata never activates', () => {
    const net = createTestDevnet({ toccataActivation: FORK_NEVER });
    const blocks = mineTo(net, ACTIVATION + 5n);
    expect(blocks.every((block) => block.header.version === 1 && block.transactions[0]!.version === TX_VERSION)).toBe(true);
  });
});
