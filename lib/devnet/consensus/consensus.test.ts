import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { MuHash } from '../../kaspa/muhash';
import { blockSubsidy, DEVNET_SUBSIDY_PARAMS } from '../../kaspa/subsidy';
import { PowState } from '../../kaspa/pow';
import { transactionId } from '../../kaspa/transaction';
import type { Hash, Transaction } from '../../kaspa/types';
import type { Block, Consensus, ConsensusEvents, UtxoChange } from './consensus';
import {
  createTestDevnet,
  GENESIS_TIMESTAMP,
  idHex,
  MINER,
  solve,
  spend,
  testKey,
  withTransactions,
  type TestDevnet,
} from '../test-support/devnet-harness';
import type { VirtualUtxoView } from '../mempool/mempool';
import { outpointKey } from './utxo-diff';
import { headerHash } from '../../kaspa/header';

const RECIPIENT = testKey(2);
const OTHER = testKey(3);
const THIRD = testKey(4);
const SUBSIDY = blockSubsidy(1n, DEVNET_SUBSIDY_PARAMS);

const hex = (hashes: readonly Hash[]) => hashes.map(bytesToHex);
const hashOf = (block: Block) => bytesToHex(headerHash(block.header));

function snapshot(consensus: Consensus) {
  return {
    blockCount: consensus.blockCount(),
    tips: hex(consensus.getTips()).sort(),
    sink: bytesToHex(consensus.sink()),
    virtualDaaScore: consensus.virtualDaaScore(),
    virtualParents: hex(consensus.virtualParents()),
    commitment: bytesToHex(consensus.virtualUtxoCommitment()),
    utxos: [...consensus.utxoSetSnapshot().keys()].sort(),
  };
}

function virtualSnapshot(consensus: Consensus) {
  const { sink, virtualDaaScore, virtualParents, commitment, utxos } = snapshot(consensus);
  return { sink, virtualDaaScore, virtualParents, commitment, utxos };
}

/** The UTXO set rebuilt from utxosChanged notifications alone. */
function trackUtxos(consensus: Consensus): Map<string, UtxoChange> {
  const mirror = new Map<string, UtxoChange>();
  consensus.events.on('utxosChanged', ({ added, removed }) => {
    for (const change of removed) mirror.delete(outpointKey(change.outpoint));
    for (const change of added) mirror.set(outpointKey(change.outpoint), change);
  });
  return mirror;
}

function expectIndexesConsistent(consensus: Consensus): void {
  const set = consensus.utxoSetSnapshot();
  // The commitment is kept incrementally (with cached elements); it must equal the MuHash of the whole set.
  const fromScratch = new MuHash();
  for (const [key, entry] of set) {
    const [id, index] = key.split(':');
    fromScratch.addUtxo({ transactionId: hexToBytes(id!), index: Number(index) }, entry);
  }
  expect(bytesToHex(consensus.virtualUtxoCommitment())).toBe(bytesToHex(fromScratch.finalize()));
  let total = 0n;
  for (const entry of set.values()) total += entry.amount;
  expect(consensus.coinSupply().circulatingSompi).toBe(total);
  for (const [key, entry] of set) {
    const indexed = consensus.getUtxosByScriptPublicKey(entry.scriptPublicKey).map((utxo) => outpointKey(utxo.outpoint));
    expect(indexed).toContain(key);
  }
}

function matureUtxosOf(net: TestDevnet, script = MINER.scriptPublicKey, maturity = 10n): UtxoChange[] {
  const pov = net.consensus.virtualDaaScore();
  return net.consensus
    .getUtxosByScriptPublicKey(script)
    .filter((utxo) => !utxo.entry.isCoinbase || utxo.entry.blockDaaScore + maturity <= pov);
}

function record<K extends keyof ConsensusEvents>(consensus: Consensus, event: K): ConsensusEvents[K][] {
  const seen: ConsensusEvents[K][] = [];
  consensus.events.on(event, (payload) => seen.push(payload));
  return seen;
}

describe('consensus: chain growth', () => {
  it('extends the selected chain block by block and notifies each step', () => {
    const net = createTestDevnet();
    const added = record(net.consensus, 'blockAdded');
    const chain = record(net.consensus, 'virtualChainChanged');
    const blueScores = record(net.consensus, 'sinkBlueScoreChanged');
    const daaScores = record(net.consensus, 'virtualDaaScoreChanged');
    const mirror = trackUtxos(net.consensus);

    const blocks = [net.mine(), net.mine(), net.mine()];
    expect(added.map(({ hash }) => bytesToHex(hash))).toEqual(blocks.map(hashOf));
    expect(chain.map((change) => hex(change.addedChainBlockHashes))).toEqual(blocks.map((block) => [hashOf(block)]));
    expect(chain.every((change) => change.removedChainBlockHashes.length === 0)).toBe(true);
    expect(blueScores.map((event) => event.sinkBlueScore)).toEqual([1n, 2n, 3n]);
    expect(daaScores.map((event) => event.virtualDaaScore)).toEqual([1n, 2n, 3n]);

    // The chain block accepts its selected parent's coinbase first.
    const [, second] = chain;
    expect(hex(second!.acceptedTransactionIds[0]!.acceptedTransactionIds)).toEqual([idHex(blocks[0]!.transactions[0]!)]);
    expect(bytesToHex(second!.acceptedTransactionIds[0]!.acceptingBlockHash)).toBe(hashOf(blocks[1]!));

    const sink = net.consensus.getBlock(net.consensus.sink())!;
    expect(sink.isChainBlock).toBe(true);
    expect(sink.status).toBe('utxoValid');
    expect(sink.ghostdag.blueScore).toBe(3n);
    expect(net.consensus.blockCount()).toBe(4);
    expect(hex(net.consensus.getTips())).toEqual([hashOf(blocks[2]!)]);
    expect(hex(net.consensus.getBlock(net.genesis.hash)!.children)).toEqual([hashOf(blocks[0]!)]);
    expect(new Map([...mirror].map(([key, change]) => [key, change.entry]))).toEqual(net.consensus.utxoSetSnapshot());
    expectIndexesConsistent(net.consensus);

    const view: VirtualUtxoView = net.consensus;
    for (const change of mirror.values()) expect(view.getUtxo(change.outpoint)).toEqual(change.entry);
    expect(view.getUtxo({ transactionId: new Uint8Array(32), index: 0 })).toBeUndefined();
    expect(view.virtualDaaScore()).toBe(3n);
  });

  it('pays each block reward to its template pay script, spendable once mature', () => {
    const net = createTestDevnet({ coinbaseMaturity: 10 });
    for (let i = 0; i < 3; i++) net.mine();
    // Block 1 merges only genesis (non-DAA, no reward); blocks 2 and 3 pay blocks 1 and 2, and the virtual accepts 3.
    const rewards = net.consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey);
    expect(rewards.map((utxo) => utxo.entry.amount)).toEqual([SUBSIDY, SUBSIDY]);
    expect(rewards.every((utxo) => utxo.entry.isCoinbase)).toBe(true);
    expect(net.consensus.getBalanceByScriptPublicKey(MINER.scriptPublicKey)).toBe(2n * SUBSIDY);

    const tx = spend(rewards[0]!, MINER, RECIPIENT.scriptPublicKey);
    const early = net.consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey, transactions: [tx] });
    expect(early.block.transactions).toHaveLength(1);
    expect(early.rejectedTransactions[0]!.message).toMatch(/coinbase maturity period/);

    while (matureUtxosOf(net).length === 0) net.mine();
    const included = net.mine({ transactions: [tx] });
    expect(included.transactions.map(idHex)).toContain(idHex(tx));
    // The virtual accepts the sink's transactions: the reward moved to the recipient.
    expect(net.consensus.getUtxo(rewards[0]!.outpoint)).toBeUndefined();
    const received = net.consensus.getUtxosByScriptPublicKey(RECIPIENT.scriptPublicKey);
    expect(received.map((utxo) => utxo.entry.amount)).toEqual([SUBSIDY - 1_000_000n]);
    expect(received[0]!.entry.blockDaaScore).toBe(net.consensus.virtualDaaScore());

    // The next chain block accepts it and pays the including block's miner its subsidy plus the fee.
    const chain = record(net.consensus, 'virtualChainChanged');
    const next = net.mine({ payScriptPublicKey: OTHER.scriptPublicKey });
    expect(next.transactions[0]!.outputs).toEqual([{ value: SUBSIDY + 1_000_000n, scriptPublicKey: MINER.scriptPublicKey }]);
    const accepted = chain[0]!.acceptedTransactionIds[0]!.acceptedTransactionIds;
    expect(hex(accepted)).toEqual([idHex(included.transactions[0]!), idHex(tx)]);
    expect(net.consensus.getAcceptanceData(net.consensus.sink())!.map((data) => hex(data.acceptedTransactionIds))).toEqual([
      [idHex(included.transactions[0]!), idHex(tx)],
    ]);
    expectIndexesConsistent(net.consensus);
  });
});

describe('consensus: template modification', () => {
  it('swaps only the coinbase and merkle root for other miner data, as a fresh template would have them', () => {
    const net = createTestDevnet({ coinbaseMaturity: 10 });
    while (matureUtxosOf(net).length === 0) net.mine();
    const tx = spend(matureUtxosOf(net)[0]!, MINER, RECIPIENT.scriptPublicKey);
    const extraData = Uint8Array.of(1, 2, 3);
    const shared = net.consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey, transactions: [tx] });
    expect(net.consensus.isTemplateCurrent(shared)).toBe(true);

    net.advance(40);
    const modified = net.consensus.modifyBlockTemplate(shared, { payScriptPublicKey: OTHER.scriptPublicKey, extraData });
    const fresh = net.consensus.buildBlockTemplate({ payScriptPublicKey: OTHER.scriptPublicKey, extraData, transactions: [tx] });
    expect(modified.block).toEqual(fresh.block);
    expect(modified.block.transactions.slice(1)).toEqual(shared.block.transactions.slice(1));
    expect(modified.block.header.hashMerkleRoot).not.toEqual(shared.block.header.hashMerkleRoot);
    expect(modified.block.header.timestamp).toBe(shared.block.header.timestamp + 40n);
    expect(net.submit(solve(modified.block))).toEqual({ type: 'success' });

    expect(net.consensus.isTemplateCurrent(shared)).toBe(false);
    expect(net.consensus.isTemplateCurrent(modified)).toBe(false);
    expect(() => net.consensus.modifyBlockTemplate(fresh.block as never, { payScriptPublicKey: OTHER.scriptPublicKey })).toThrow(
      /not a template/,
    );
  });
});

describe('consensus: parallel blocks', () => {
  function mineParallel(net: TestDevnet, first: Transaction[] = [], second: Transaction[] = []): [Block, Block] {
    const a = solve(net.template({ payScriptPublicKey: RECIPIENT.scriptPublicKey, transactions: first }));
    const b = solve(net.template({ payScriptPublicKey: OTHER.scriptPublicKey, transactions: second }));
    expect(net.submit(a)).toEqual({ type: 'success' });
    expect(net.submit(b)).toEqual({ type: 'success' });
    net.advance(100);
    return [a, b];
  }

  it('merges both as blues and pays each its own reward when k allows', () => {
    const net = createTestDevnet();
    net.mine();
    const [a, b] = mineParallel(net);
    expect(net.consensus.getTips()).toHaveLength(2);
    expect(net.consensus.virtualParents()).toHaveLength(2);
    const merging = net.mine({ payScriptPublicKey: THIRD.scriptPublicKey });
    const data = net.consensus.getBlock(headerHash(merging.header))!.ghostdag;
    expect(data.mergesetBlues.map((id) => id).sort()).toEqual([hashOf(a), hashOf(b)].sort());
    expect(data.mergesetReds).toEqual([]);
    const scripts = merging.transactions[0]!.outputs.map((output) => bytesToHex(output.scriptPublicKey.script));
    const selectedFirst = data.selectedParent === hashOf(a) ? [RECIPIENT, OTHER] : [OTHER, RECIPIENT];
    expect(scripts).toEqual(selectedFirst.map((key) => bytesToHex(key.scriptPublicKey.script)));
    expect(merging.transactions[0]!.outputs.every((output) => output.value === SUBSIDY)).toBe(true);
    expect(net.consensus.sinkBlueScore()).toBe(4n);
  });

  it('colours the merged block red when k = 0 and pays its reward to the merging miner', () => {
    const net = createTestDevnet({ ghostdagK: 0 });
    net.mine();
    const [a, b] = mineParallel(net);
    const merging = net.mine({ payScriptPublicKey: THIRD.scriptPublicKey });
    const data = net.consensus.getBlock(headerHash(merging.header))!.ghostdag;
    const red = data.selectedParent === hashOf(a) ? b : a;
    const blue = red === a ? b : a;
    expect(data.mergesetBlues).toEqual([hashOf(blue)]);
    expect(data.mergesetReds).toEqual([hashOf(red)]);
    expect(data.blueScore).toBe(3n);
    const payload = (block: Block) => block.transactions[0]!.payload;
    expect(merging.transactions[0]!.outputs).toEqual([
      { value: SUBSIDY, scriptPublicKey: (blue === a ? RECIPIENT : OTHER).scriptPublicKey },
      { value: SUBSIDY, scriptPublicKey: THIRD.scriptPublicKey },
    ]);
    expect(payload(red)).not.toEqual(payload(blue));
  });

  it('accepts only one of two conflicting spends mined in parallel, the selected parent’s', () => {
    const net = createTestDevnet({ coinbaseMaturity: 1 });
    for (let i = 0; i < 3; i++) net.mine();
    const utxo = matureUtxosOf(net, MINER.scriptPublicKey, 1n)[0]!;
    const toRecipient = spend(utxo, MINER, RECIPIENT.scriptPublicKey);
    const toOther = spend(utxo, MINER, OTHER.scriptPublicKey);
    const [a, b] = mineParallel(net, [toRecipient], [toOther]);
    net.mine();
    const sink = net.consensus.getBlock(net.consensus.sink())!;
    expect([hashOf(a), hashOf(b)]).toContain(sink.ghostdag.selectedParent);
    const winner = sink.ghostdag.selectedParent === hashOf(a) ? toRecipient : toOther;
    const loser = winner === toRecipient ? toOther : toRecipient;
    const accepted = net.consensus.getAcceptanceData(net.consensus.sink())!.flatMap((data) => hex(data.acceptedTransactionIds));
    expect(accepted).toContain(idHex(winner));
    expect(accepted).not.toContain(idHex(loser));
    const winnerKey = winner === toRecipient ? RECIPIENT : OTHER;
    const loserKey = winner === toRecipient ? OTHER : RECIPIENT;
    expect(net.consensus.getBalanceByScriptPublicKey(winnerKey.scriptPublicKey)).toBeGreaterThanOrEqual(SUBSIDY - 1_000_000n);
    expect(
      net.consensus
        .getUtxosByScriptPublicKey(loserKey.scriptPublicKey)
        .some((change) => bytesToHex(change.outpoint.transactionId) === idHex(loser)),
    ).toBe(false);
    expectIndexesConsistent(net.consensus);
  });
});

describe('consensus: rejections', () => {
  function prepared() {
    const net = createTestDevnet({ coinbaseMaturity: 10 });
    for (let i = 0; i < 3; i++) net.mine();
    return net;
  }

  function resolvedWith(net: TestDevnet, change: (block: Block) => Block): Block {
    return solve(change(net.template()));
  }

  const cases: [string, (net: TestDevnet) => Block, RegExp][] = [
    [
      'bad proof of work',
      (net) => {
        const block = net.template();
        const state = PowState.fromHeader(block.header);
        let nonce = 0n;
        while (state.checkPow(nonce)) nonce++;
        return { ...block, header: { ...block.header, nonce } };
      },
      /proof of work/,
    ],
    [
      'unknown parent',
      (net) => resolvedWith(net, (block) => ({ ...block, header: { ...block.header, parentsByLevel: [[new Uint8Array(32).fill(9)]] } })),
      /missing parents/,
    ],
    [
      'wrong merkle root',
      (net) => resolvedWith(net, (block) => ({ ...block, header: { ...block.header, hashMerkleRoot: new Uint8Array(32) } })),
      /merkle root/,
    ],
    ['wrong bits', (net) => resolvedWith(net, (block) => ({ ...block, header: { ...block.header, bits: 0x2000ffff } })), /bits/],
    [
      'wrong blue score',
      (net) => resolvedWith(net, (block) => ({ ...block, header: { ...block.header, blueScore: block.header.blueScore + 1n } })),
      /blue score/,
    ],
    [
      'timestamp not after the past median time',
      (net) => resolvedWith(net, (block) => ({ ...block, header: { ...block.header, timestamp: net.consensus.pastMedianTime() } })),
      /past median time/,
    ],
    [
      'timestamp too far in the future',
      (net) => resolvedWith(net, (block) => ({ ...block, header: { ...block.header, timestamp: net.now() + 133_000n } })),
      /future/,
    ],
    ['wrong version', (net) => resolvedWith(net, (block) => ({ ...block, header: { ...block.header, version: 0 } })), /version/],
    [
      'no coinbase',
      (net) =>
        resolvedWith(net, (block) => {
          const tx = spend(net.consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey)[0]!, MINER, OTHER.scriptPublicKey);
          return withTransactions(block, [tx]);
        }),
      /coinbase/,
    ],
    [
      'wrong subsidy in the coinbase payload',
      (net) =>
        resolvedWith(net, (block) => {
          const coinbase = block.transactions[0]!;
          const payload = coinbase.payload.slice();
          payload[8] = payload[8]! ^ 1;
          return withTransactions(block, [{ ...coinbase, payload }]);
        }),
      /subsidy/,
    ],
  ];

  it.each(cases)('rejects a block with %s and changes nothing', (_name, build, message) => {
    const net = prepared();
    const notified = record(net.consensus, 'blockAdded');
    const before = snapshot(net.consensus);
    const block = build(net);
    const result = net.submit(block);
    expect(result.type).toBe('reject');
    expect(result.type === 'reject' && result.message).toMatch(message);
    expect(snapshot(net.consensus)).toEqual(before);
    expect(notified).toEqual([]);
    expect(net.consensus.hasBlock(headerHash(block.header))).toBe(false);
  });

  it('remembers post-PoW failures as known invalid but lets a block with a bad merkle root be resubmitted whole', () => {
    const net = prepared();
    const badScore = solve({ ...net.template(), header: { ...net.template().header, blueScore: 99n } });
    net.submit(badScore);
    const again = net.submit(badScore);
    expect(again.type === 'reject' && again.message).toMatch(/known to be invalid/);

    const valid = solve(net.template());
    const wrongRoot = { ...valid, header: { ...valid.header, hashMerkleRoot: new Uint8Array(32) } };
    expect(net.submit(wrongRoot).type).toBe('reject');
    expect(net.submit(valid)).toEqual({ type: 'success' });
    expect(net.submit(valid)).toEqual({ type: 'success' });
  });

  it.each([
    ['a bad signature', 'signature'],
    ['an immature coinbase spend', 'coinbase maturity'],
  ])('stores a block with %s but disqualifies it from the chain, leaving the virtual untouched', (_name, reason) => {
    const net = prepared();
    while (reason === 'signature' && matureUtxosOf(net).length === 0) net.mine();
    const utxo = reason === 'signature' ? matureUtxosOf(net)[0]! : net.consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey).at(-1)!;
    const signed = spend(utxo, MINER, RECIPIENT.scriptPublicKey);
    const script = signed.inputs[0]!.signatureScript.slice();
    if (reason === 'signature') script[10] = script[10]! ^ 0xff;
    const tx = { ...signed, inputs: [{ ...signed.inputs[0]!, signatureScript: script }] };
    const before = virtualSnapshot(net.consensus);
    const template = net.template();
    const block = solve(withTransactions(template, [template.transactions[0]!, tx]));
    expect(net.submit(block)).toEqual({ type: 'success' });
    const stored = net.consensus.getBlock(headerHash(block.header))!;
    expect(stored.status).toBe('disqualifiedFromChain');
    expect(stored.disqualificationReason).toMatch(reason);
    expect(stored.isChainBlock).toBe(false);
    expect(virtualSnapshot(net.consensus)).toEqual(before);
    // Mining continues on the old sink.
    net.mine();
    expect(net.consensus.getBlock(headerHash(block.header))!.isChainBlock).toBe(false);
  });
});

describe('consensus: parent rules', () => {
  function parallel(net: TestDevnet, count: number): Block[] {
    const blocks = [OTHER, RECIPIENT, THIRD, MINER]
      .slice(0, count)
      .map((key) => solve(net.template({ payScriptPublicKey: key.scriptPublicKey })));
    for (const block of blocks) expect(net.submit(block)).toEqual({ type: 'success' });
    net.advance(100);
    return blocks;
  }

  const rejected = (net: TestDevnet, block: Block) => {
    const result = net.submit(block);
    return result.type === 'reject' ? result.message : 'accepted';
  };

  it('rejects more direct parents than the limit', () => {
    const net = createTestDevnet({ maxBlockParents: 2 });
    net.mine();
    const blocks = parallel(net, 3);
    expect(net.consensus.virtualParents()).toHaveLength(2);
    const block = solve(net.template({ parents: blocks.map((b) => headerHash(b.header)) }));
    expect(rejected(net, block)).toMatch(/3 parents, above the limit of 2/);
  });

  it('rejects duplicate parents and a parent that is an ancestor of another', () => {
    const net = createTestDevnet();
    const first = net.mine();
    const second = net.mine();
    const template = net.template();
    const duplicated = solve({ ...template, header: { ...template.header, parentsByLevel: [[headerHash(second.header), headerHash(second.header)]] } });
    expect(rejected(net, duplicated)).toMatch(/duplicate parents/);
    const related = solve(net.template({ parents: [headerHash(second.header), headerHash(first.header)] }));
    expect(rejected(net, related)).toMatch(/is an ancestor of parent/);
  });

  it('rejects a mergeset above the limit, while the virtual keeps within it', () => {
    const net = createTestDevnet({ mergesetSizeLimit: 2 });
    net.mine();
    const blocks = parallel(net, 3);
    expect(net.consensus.virtualParents()).toHaveLength(2);
    const block = solve(net.template({ parents: blocks.map((b) => headerHash(b.header)) }));
    expect(rejected(net, block)).toMatch(/mergeset size 3 is above the limit 2/);
    net.mine();
    expect(net.consensus.getTips()).toHaveLength(2);
  });

  it('refuses stale templates below the DAA window unless non-DAA blocks are allowed', () => {
    const net = createTestDevnet({ difficultyWindowSize: 5, difficultySampleRate: 1 });
    net.mine();
    const stale = solve(net.template({ payScriptPublicKey: OTHER.scriptPublicKey }));
    for (let i = 0; i < 8; i++) net.mine();
    expect(net.consensus.validateAndInsertBlock(stale, { allowNonDaaBlocks: false }).type).toBe('reject');
    expect(net.consensus.validateAndInsertBlock(stale, { allowNonDaaBlocks: true })).toEqual({ type: 'success' });
    expect(net.consensus.getBlock(headerHash(stale.header))!.isChainBlock).toBe(false);
  });
});

describe('consensus: depth rules', () => {
  it('keeps blocks beyond the merge depth out of the virtual and rejects blocks that merge them as reds', () => {
    const net = createTestDevnet({ ghostdagK: 0, mergeDepth: 3 });
    net.mine();
    const side = solve(net.template({ payScriptPublicKey: OTHER.scriptPublicKey }));
    const main = Array.from({ length: 6 }, () => net.mine());
    expect(net.submit(side)).toEqual({ type: 'success' });
    expect(net.consensus.getTips()).toHaveLength(2);
    expect(hex(net.consensus.virtualParents())).toEqual([hashOf(main.at(-1)!)]);
    const merging = solve(net.template({ parents: [headerHash(main.at(-1)!.header), headerHash(side.header)] }));
    const result = net.submit(merging);
    expect(result.type === 'reject' && result.message).toMatch(/merge depth/);
  });

  it('never moves the sink to a heavier branch that forks below the finality point', () => {
    const net = createTestDevnet({ finalityDepth: 4 });
    const fork = net.mine();
    const main = Array.from({ length: 8 }, () => net.mine());
    const changes = record(net.consensus, 'virtualChainChanged');
    let parent = headerHash(fork.header);
    for (let i = 0; i < 10; i++) parent = headerHash(net.mine({ parents: [parent], payScriptPublicKey: OTHER.scriptPublicKey }).header);
    const sideTip = net.consensus.getBlock(parent)!;
    expect(sideTip.ghostdag.blueWork).toBeGreaterThan(net.consensus.getBlock(net.consensus.sink())!.ghostdag.blueWork);
    expect(bytesToHex(net.consensus.sink())).toBe(hashOf(main.at(-1)!));
    expect(changes).toEqual([]);
    expect(hex(net.consensus.virtualParents())).toEqual([hashOf(main.at(-1)!)]);
  });
});

describe('consensus: reorganisation', () => {
  it('switches to a heavier side branch, reports the chain change and ends in the replayed state', () => {
    const net = createTestDevnet({ coinbaseMaturity: 1 });
    const mirror = trackUtxos(net.consensus);
    const base = [net.mine(), net.mine(), net.mine()];
    const fork = base.at(-1)!;
    const utxo = matureUtxosOf(net, MINER.scriptPublicKey, 1n)[0]!;
    const tx = spend(utxo, MINER, RECIPIENT.scriptPublicKey);
    const main = [net.mine({ transactions: [tx] }), net.mine(), net.mine()];
    expect(bytesToHex(net.consensus.sink())).toBe(hashOf(main[2]!));

    const changes = record(net.consensus, 'virtualChainChanged');
    const side: Block[] = [];
    let parent = headerHash(fork.header);
    for (let i = 0; i < 5; i++) {
      const block = net.mine({ parents: [parent], payScriptPublicKey: OTHER.scriptPublicKey });
      side.push(block);
      parent = headerHash(block.header);
    }
    expect(bytesToHex(net.consensus.sink())).toBe(hashOf(side.at(-1)!));
    const reorg = changes.find((change) => change.removedChainBlockHashes.length > 0)!;
    expect(hex(reorg.removedChainBlockHashes)).toEqual(main.map(hashOf).reverse());
    const addedCount = reorg.addedChainBlockHashes.length;
    expect(hex(reorg.addedChainBlockHashes)).toEqual(side.slice(0, addedCount).map(hashOf));
    expect(reorg.acceptedTransactionIds.map((entry) => bytesToHex(entry.acceptingBlockHash))).toEqual(
      side.slice(0, addedCount).map(hashOf),
    );
    reorg.acceptedTransactionIds.forEach((entry) => {
      const stored = net.consensus.getAcceptanceData(entry.acceptingBlockHash)!.flatMap((data) => hex(data.acceptedTransactionIds));
      expect(hex(entry.acceptedTransactionIds)).toEqual(stored);
    });
    expect(main.every((block) => !net.consensus.isChainBlock(headerHash(block.header)))).toBe(true);

    const replay = createTestDevnet({ coinbaseMaturity: 1 });
    replay.advance(Number(net.now() - GENESIS_TIMESTAMP));
    for (const block of [...base, ...side, ...main]) expect(replay.submit(block)).toEqual({ type: 'success' });
    expect(virtualSnapshot(net.consensus)).toEqual(virtualSnapshot(replay.consensus));
    expect(net.consensus.utxoSetSnapshot()).toEqual(replay.consensus.utxoSetSnapshot());
    expect(new Map([...mirror].map(([key, change]) => [key, change.entry]))).toEqual(net.consensus.utxoSetSnapshot());
    expectIndexesConsistent(net.consensus);

    const fromRemoved = net.consensus.getVirtualChainFromBlock(headerHash(main[1]!.header), true);
    expect(hex(fromRemoved.removedChainBlockHashes)).toEqual([hashOf(main[1]!), hashOf(main[0]!)]);
    expect(hex(fromRemoved.addedChainBlockHashes)).toEqual(side.map(hashOf));
    expect(fromRemoved.acceptedTransactionIds).toHaveLength(side.length);
    expect(net.consensus.getVirtualChainFromBlock(headerHash(fork.header), false).acceptedTransactionIds).toEqual([]);
  });
});

describe('consensus: queries', () => {
  it('lists blocks from a low hash in consensus order, ending with the sink and its anticone', () => {
    const net = createTestDevnet();
    const first = net.mine();
    const a = solve(net.template({ payScriptPublicKey: RECIPIENT.scriptPublicKey }));
    const b = solve(net.template({ payScriptPublicKey: OTHER.scriptPublicKey }));
    net.submit(a);
    net.submit(b);
    const all = hex(net.consensus.getBlocks());
    expect(all[0]).toBe(bytesToHex(net.genesis.hash));
    expect(all).toHaveLength(4);
    expect(new Set(all)).toEqual(new Set([bytesToHex(net.genesis.hash), hashOf(first), hashOf(a), hashOf(b)]));
    expect(all[2]).toBe(bytesToHex(net.consensus.sink()));
    expect(hex(net.consensus.getBlocks(headerHash(first.header)))).toEqual([hashOf(first), ...all.slice(2)]);
    expect(transactionId(first.transactions[0]!)).toEqual(net.consensus.getBlock(headerHash(first.header))!.transactionIds[0]);
  });
});
