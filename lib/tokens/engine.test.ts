import { describe, expect, it } from 'vitest';
import { readVectors } from '../kaspa/test-support/vectors';
import {
  blackHoleAddress,
  createTokenEngine,
  supplySummary,
  tokenStatus,
  decodeOpScore,
  opScoreOf,
  type AcceptedTransaction,
  type BlockApplication,
  type OpRecord,
  type TokenEngine,
} from './engine';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR } from './operations';
import { DEVNET_PROFILE, testNetworkProfile } from './profile';
import {
  KAS,
  acceptedBlock,
  listingAddress,
  reveal,
  schnorrParty,
  sendInput,
  transaction,
  type Party,
} from './test-support/transactions';

const owner = schnorrParty(10);
const alice = schnorrParty(11);
const bob = schnorrParty(12);
const carol = schnorrParty(13);

const DEPLOY_FEE = DEPLOY_FEE_FLOOR + KAS;
const MINT_FEE = MINT_FEE_FLOOR + KAS;

/** A reveal paying `fee` to the miner (the one output returns 1 KAS to the signer). */
function op(signer: Party, fields: Record<string, string>, fee = 0n, outputs?: { address: string; value: bigint }[]) {
  const outputTotal = (outputs ?? [{ address: signer.address, value: KAS }]).reduce((sum, output) => sum + output.value, 0n);
  return reveal({ signer, op: { p: 'krc-20', ...fields }, inputAmount: outputTotal + fee, outputs });
}

const deployTest = (fields: Record<string, string> = {}) =>
  op(owner, { op: 'deploy', tick: 'test', max: '1000', lim: '300', dec: '2', pre: '100', ...fields }, DEPLOY_FEE);
const mint = (signer: Party, fee = MINT_FEE) => op(signer, { op: 'mint', tick: 'test' }, fee);
const transfer = (from: Party, to: string, amt: string, tick = 'test') => op(from, { op: 'transfer', tick, amt, to });

class Chain {
  readonly engine: TokenEngine;
  private daaScore = 100n;

  constructor(profile = DEVNET_PROFILE) {
    this.engine = createTokenEngine({ profile });
  }

  block(...transactions: AcceptedTransaction[]): BlockApplication {
    this.daaScore += 10n;
    return this.engine.applyBlock(acceptedBlock(this.daaScore, transactions));
  }

  one(tx: AcceptedTransaction): OpRecord {
    const [record] = this.block(tx).ops;
    if (!record) throw new Error('the transaction carried no op');
    return record;
  }
}

function available(engine: TokenEngine, party: Party, tick = 'TEST'): bigint | undefined {
  return engine.balance(party.address, tick)?.balance;
}

function expectFailure(chain: Chain, tx: AcceptedTransaction, opError: string): void {
  const before = chain.engine.snapshot();
  const record = chain.one(tx);
  expect(record.accepted).toBe(false);
  expect(record.opError).toBe(opError);
  expect({ ...chain.engine.snapshot(), lastDaaScore: null }).toEqual({ ...before, lastDaaScore: null });
}

describe('opScore', () => {
  it('decodes the krc20-vectors.json opScores', () => {
    interface OpScoreVector {
      opScore?: string;
      daaScore?: number;
      indexInChainBlock?: number;
    }
    const entries = readVectors<{ opScoreVectors: OpScoreVector[] }>('krc20-vectors.json').opScoreVectors;
    const scored = entries.filter((entry) => entry.opScore !== undefined);
    expect(scored.length).toBe(3);
    for (const entry of scored) {
      expect(decodeOpScore(BigInt(entry.opScore!))).toEqual({ daaScore: BigInt(entry.daaScore!), index: entry.indexInChainBlock });
      expect(opScoreOf(BigInt(entry.daaScore!), entry.indexInChainBlock!)).toBe(BigInt(entry.opScore!));
    }
  });

  it('counts only op-bearing transactions of the chain block, in acceptance order', () => {
    const chain = new Chain();
    const plain = transaction([{ signatureScript: new Uint8Array(66) }], [{ address: alice.address, value: KAS }]);
    const application = chain.block(plain, deployTest(), plain, mint(alice), mint(bob));
    expect(application.ops.map((record) => record.opScore)).toEqual([1_100_000n, 1_100_001n, 1_100_002n]);
  });

  it('drops a deploy or mint whose reveal pays no fee without using an opScore index', () => {
    const chain = new Chain();
    chain.block(deployTest());
    const application = chain.block(mint(alice, 0n), mint(bob));
    expect(application.ops.map((record) => [record.opScore, record.primary.op.from])).toEqual([[1_200_000n, bob.address]]);
  });

  it('applies a block all or nothing: more than 10000 ops throw and leave the state untouched', () => {
    const chain = new Chain();
    chain.block(deployTest());
    const before = chain.engine.snapshot();
    const tooMany = new Array<AcceptedTransaction>(10_001).fill({ ...transfer(owner, alice.address, '1'), txId: 'ab'.repeat(32) });
    expect(() => chain.block(...tooMany)).toThrow(RangeError);
    expect(chain.engine.snapshot()).toEqual(before);
    expect(chain.engine.revertibleBlocks()).toHaveLength(1);
  });

  it('refuses blocks out of DAA order, and takes a repeated DAA score (genesis and its chain child share one)', () => {
    const engine = createTokenEngine({ profile: DEVNET_PROFILE });
    engine.applyBlock(acceptedBlock(50n, []));
    expect(() => engine.applyBlock(acceptedBlock(50n, [], 'block-50-child'))).not.toThrow();
    expect(() => engine.applyBlock(acceptedBlock(49n, []))).toThrow(RangeError);
  });
});

describe('scenario: deploy → mints until finished → transfer → list → fill → burn', () => {
  const chain = new Chain();
  const { engine } = chain;

  it('deploys with a premine credited to the owner', () => {
    const record = chain.one(deployTest({ pre: '50' }));
    expect(record.accepted).toBe(true);
    expect(record.feeRev).toBe(DEPLOY_FEE);
    const token = engine.token('test')!;
    expect(token).toMatchObject({ tick: 'TEST', mode: 'mint', max: 1000n, lim: 300n, pre: 50n, dec: 2, minted: 50n, holderTotal: 1 });
    expect(token.opScoreAdd).toBe(record.opScore);
    expect(available(engine, owner)).toBe(50n);
  });

  it('mints lim each time, the last mint gets the remainder, then "mint finished"', () => {
    const credited = [alice, bob, alice, carol].map((party) => chain.one(mint(party)).primary.amount);
    expect(credited).toEqual([300n, 300n, 300n, 50n]);
    expect(engine.token('TEST')!.minted).toBe(1000n);
    expect(chain.one(mint(carol)).opError).toBe('mint finished');
    expect(engine.token('TEST')).toMatchObject({ mintTotal: 4, holderTotal: 4 });
    expect([available(engine, alice), available(engine, carol)]).toEqual([600n, 50n]);
  });

  it('transfers from the available balance', () => {
    const record = chain.one(transfer(alice, carol.address, '250'));
    expect(record.accepted).toBe(true);
    expect([available(engine, alice), available(engine, carol)]).toEqual([350n, 300n]);
    expect(engine.token('TEST')).toMatchObject({ transferTotal: 1, holderTotal: 4 });
    expect(record.tokenCounters).toEqual({ holderTotal: 4, mintTotal: 4, transferTotal: 1 });
  });

  let listTxId = '';

  it('lists: locks the amount and opens an order keyed by the list reveal', () => {
    const tx = op(carol, { op: 'list', tick: 'test', amt: '200' }, 0n, [{ address: listingAddress(carol, 'TEST'), value: KAS }]);
    const record = chain.one(tx);
    expect(record.accepted).toBe(true);
    listTxId = record.txId;
    expect(engine.balance(carol.address, 'TEST')).toMatchObject({ balance: 100n, locked: 200n });
    expect(engine.orders('TEST')).toEqual([
      expect.objectContaining({ seller: carol.address, uTxId: listTxId, uAddr: listingAddress(carol, 'TEST'), uAmt: KAS, amount: 200n }),
    ]);
    expect(chain.one(transfer(carol, bob.address, '160')).opError).toBe('balance insuff');
  });

  it('fills: the buyer gets the locked tokens, the price is outputs[0]', () => {
    const fill = transaction([sendInput(carol, 'TEST', listTxId)], [
      { address: carol.address, value: 30n * KAS },
      { address: owner.address, value: KAS },
    ]);
    const record = chain.one(fill);
    expect(record.accepted).toBe(true);
    expect(record.primary).toMatchObject({ amount: 200n, dec: 2, op: { op: 'send', price: 30n * KAS, to: owner.address } });
    expect(engine.balance(carol.address, 'TEST')).toMatchObject({ balance: 100n, locked: 0n });
    expect(available(engine, owner)).toBe(250n);
    expect(engine.orders('TEST')).toEqual([]);
    expect(chain.one(fill).opError).toBe('order not found');
  });

  it('burns from the owner: burned grows, the balance shrinks', () => {
    expect(chain.one(op(owner, { op: 'burn', tick: 'test', amt: '120' })).accepted).toBe(true);
    expect(engine.token('TEST')).toMatchObject({ burned: 120n, minted: 1000n });
    expect(available(engine, owner)).toBe(130n);
    const total = engine.holders('TEST').reduce((sum, holder) => sum + holder.balance + holder.locked, 0n);
    expect(total).toBe(1000n - 120n);
    expect(engine.holders('TEST', 2).map((holder) => holder.address)).toEqual([alice.address, bob.address]);
  });

  it('cancels a listing: the tokens return to the seller', () => {
    const listed = chain.one(op(alice, { op: 'list', tick: 'test', amt: '100' }, 0n, [{ address: listingAddress(alice, 'TEST'), value: KAS }]));
    expect(engine.balance(alice.address, 'TEST')).toMatchObject({ balance: 250n, locked: 100n });
    const cancel = chain.one(transaction([sendInput(alice, 'TEST', listed.txId)], [{ address: alice.address, value: KAS }]));
    expect(cancel.primary).toMatchObject({ accepted: true, amount: 100n, op: { to: alice.address, price: 0n } });
    expect(engine.balance(alice.address, 'TEST')).toMatchObject({ balance: 350n, locked: 0n });
  });
});

describe('opErrors (a failed op is recorded and changes nothing)', () => {
  function deployed(): Chain {
    const chain = new Chain();
    chain.block(deployTest());
    return chain;
  }

  it('tick existed', () => {
    expectFailure(deployed(), deployTest(), 'tick existed');
  });

  it('tick ignored', () => {
    expectFailure(new Chain(), deployTest({ tick: 'usdt' }), 'tick ignored');
  });

  it('tick reserved: only the listed address may deploy', () => {
    const profile = testNetworkProfile('kaspadev', { reservedTicks: new Map([['TEST', alice.address]]) });
    expectFailure(new Chain(profile), deployTest(), 'tick reserved');
    expect(new Chain(profile).one(op(alice, { op: 'deploy', tick: 'test', max: '10', lim: '1' }, DEPLOY_FEE)).accepted).toBe(true);
  });

  it('fee unknown: the spent outputs were not given', () => {
    const { transaction: tx } = deployTest();
    expectFailure(new Chain(), { transaction: tx }, 'fee unknown');
  });

  it('fee not enough: deploy below 1000 KAS, mint below 1 KAS', () => {
    expectFailure(new Chain(), op(owner, { op: 'deploy', tick: 'test', max: '10', lim: '1' }, DEPLOY_FEE_FLOOR - 1n), 'fee not enough');
    expectFailure(deployed(), mint(alice, MINT_FEE_FLOOR - 1n), 'fee not enough');
    expect(deployed().one(mint(alice, MINT_FEE_FLOOR)).accepted).toBe(true);
  });

  it('address invalid: premine to a foreign-network address, mint to one, transfer to self', () => {
    const foreign = schnorrParty(11, 'kaspa').address;
    expectFailure(new Chain(), deployTest({ to: foreign }), 'address invalid');
    expect(new Chain().one(deployTest({ to: foreign, pre: '' })).accepted).toBe(true);
    expectFailure(deployed(), op(alice, { op: 'mint', tick: 'test', to: foreign }, MINT_FEE), 'address invalid');
    expectFailure(deployed(), transfer(owner, owner.address, '1'), 'address invalid');
    expectFailure(deployed(), transfer(owner, foreign, '1'), 'address invalid');
  });

  it('tick not found', () => {
    expectFailure(new Chain(), mint(alice), 'tick not found');
    expectFailure(new Chain(), transfer(alice, bob.address, '1'), 'tick not found');
  });

  it('balance insuff: more than available, or no balance at all', () => {
    expectFailure(deployed(), transfer(owner, bob.address, '101'), 'balance insuff');
    expectFailure(deployed(), transfer(alice, bob.address, '1'), 'balance insuff');
    expectFailure(deployed(), op(owner, { op: 'burn', tick: 'test', amt: '101' }), 'balance insuff');
    expectFailure(deployed(), op(owner, { op: 'list', tick: 'test', amt: '101' }, 0n, [{ address: listingAddress(owner, 'TEST'), value: KAS }]), 'balance insuff');
  });

  it('no ownership: burn by someone other than the owner', () => {
    const chain = deployed();
    chain.block(transfer(owner, alice.address, '10'));
    expectFailure(chain, op(alice, { op: 'burn', tick: 'test', amt: '1' }), 'no ownership');
  });

  it('address invalid: list whose outputs[0] is not the seller\'s lowercase send P2SH', () => {
    expectFailure(deployed(), op(owner, { op: 'list', tick: 'test', amt: '10' }, 0n, [{ address: owner.address, value: KAS }]), 'address invalid');
    expectFailure(deployed(), op(owner, { op: 'list', tick: 'test', amt: '10' }, 0n, [{ address: listingAddress(alice, 'TEST'), value: KAS }]), 'address invalid');
  });

  it('order not found: a send spending something that is not a listing', () => {
    expectFailure(deployed(), transaction([sendInput(owner, 'TEST', '55'.repeat(32))], [{ address: owner.address, value: KAS }]), 'order not found');
  });

  it('order abnormal: the seller no longer holds the locked amount', () => {
    const chain = deployed();
    const listed = chain.one(op(owner, { op: 'list', tick: 'test', amt: '40' }, 0n, [{ address: listingAddress(owner, 'TEST'), value: KAS }]));
    const snapshot = chain.engine.snapshot();
    const broken = createTokenEngine({
      profile: DEVNET_PROFILE,
      snapshot: { ...snapshot, balances: snapshot.balances.map((balance) => ({ ...balance, locked: 39n })) },
    });
    const record = broken.applyBlock(
      acceptedBlock(10_000n, [transaction([sendInput(owner, 'TEST', listed.txId)], [{ address: owner.address, value: KAS }])]),
    ).ops[0]!;
    expect(record.opError).toBe('order abnormal');
  });

  describe('issue-mode tokens', () => {
    function issued(): { chain: Chain; ca: string } {
      const chain = new Chain();
      const record = chain.one(op(owner, { op: 'deploy', mod: 'issue', name: 'usdx', max: '1000', pre: '10' }, DEPLOY_FEE));
      expect(record.accepted).toBe(true);
      return { chain, ca: record.txId };
    }

    it('issues to an address up to max, then "issue finished"', () => {
      const { chain, ca } = issued();
      expect(chain.one(op(owner, { op: 'issue', ca, amt: '2000', to: alice.address })).primary.amount).toBe(990n);
      expect(chain.engine.token(ca)).toMatchObject({ minted: 1000n, name: 'USDX', mode: 'issue', lim: 0n });
      expectFailure(chain, op(owner, { op: 'issue', ca, amt: '1' }), 'issue finished');
    });

    it('no ownership and address invalid on issue, chown and blacklist', () => {
      const { chain, ca } = issued();
      expectFailure(chain, op(alice, { op: 'issue', ca, amt: '1' }), 'no ownership');
      expectFailure(chain, op(alice, { op: 'chown', ca, to: alice.address }), 'no ownership');
      expectFailure(chain, op(alice, { op: 'blacklist', ca, mod: 'add', to: bob.address }), 'no ownership');
      expectFailure(chain, op(owner, { op: 'chown', ca, to: owner.address }), 'address invalid');
      expectFailure(chain, op(owner, { op: 'blacklist', ca, mod: 'add', to: owner.address }), 'address invalid');
      expectFailure(chain, op(owner, { op: 'issue', ca, amt: '1', to: 'kaspadev:qq' }), 'address invalid');
    });

    it('blacklist blocks transfer and list of the listed address; "no affected" on repeats', () => {
      const { chain, ca } = issued();
      chain.block(op(owner, { op: 'issue', ca, amt: '50', to: alice.address }));
      expect(chain.one(op(owner, { op: 'blacklist', ca, mod: 'add', to: alice.address })).accepted).toBe(true);
      expect(chain.engine.isBlacklisted(ca, alice.address)).toBe(true);
      expectFailure(chain, op(owner, { op: 'blacklist', ca, mod: 'add', to: alice.address }), 'no affected');
      expectFailure(chain, op(alice, { op: 'transfer', ca, amt: '1', to: bob.address }), 'blacklist');
      expectFailure(chain, op(alice, { op: 'list', ca, amt: '1' }, 0n, [{ address: listingAddress(alice, ca), value: KAS }]), 'blacklist');
      expect(chain.one(op(owner, { op: 'transfer', ca, amt: '5', to: alice.address })).accepted).toBe(true);
      expect(chain.one(op(owner, { op: 'blacklist', ca, mod: 'remove', to: alice.address })).accepted).toBe(true);
      expectFailure(chain, op(owner, { op: 'blacklist', ca, mod: 'remove', to: alice.address }), 'no affected');
      expect(chain.one(op(alice, { op: 'transfer', ca, amt: '1', to: bob.address })).accepted).toBe(true);
    });

    it('chown moves ownership: the new owner burns, the old one no longer can', () => {
      const { chain, ca } = issued();
      chain.block(op(owner, { op: 'transfer', ca, amt: '10', to: alice.address }));
      expect(chain.one(op(owner, { op: 'chown', ca, to: alice.address })).accepted).toBe(true);
      expect(chain.engine.token(ca)?.to).toBe(alice.address);
      expect(chain.one(op(alice, { op: 'burn', ca, amt: '4' })).accepted).toBe(true);
      expect(chain.engine.token(ca)?.burned).toBe(4n);
    });

    it('issue-mode listings accept the ca form of the send envelope', () => {
      const { chain, ca } = issued();
      const record = chain.one(op(owner, { op: 'list', ca, amt: '3' }, 0n, [{ address: listingAddress(owner, ca), value: KAS }]));
      expect(record.accepted).toBe(true);
      expect(chain.engine.orders(ca)).toHaveLength(1);
    });
  });
});

describe('mode invalid (unreachable from well-formed ops: mint names a tick, issue and blacklist a ca)', () => {
  function withTokenKey(chain: Chain, key: string): TokenEngine {
    const snapshot = chain.engine.snapshot();
    const tokens = snapshot.tokens.map((token) => ({ ...token, tick: key }));
    return createTokenEngine({ profile: DEVNET_PROFILE, snapshot: { ...snapshot, tokens } });
  }

  it('mint on an issue-mode token', () => {
    const chain = new Chain();
    chain.block(op(owner, { op: 'deploy', mod: 'issue', name: 'usdx', max: '0' }, DEPLOY_FEE));
    const engine = withTokenKey(chain, 'USDX');
    const record = engine.applyBlock(acceptedBlock(10_000n, [op(alice, { op: 'mint', tick: 'usdx' }, MINT_FEE)])).ops[0]!;
    expect(record.opError).toBe('mode invalid');
  });

  it('issue and blacklist on a mint-mode token', () => {
    const chain = new Chain();
    chain.block(deployTest());
    const ca = 'ab'.repeat(32);
    const engine = withTokenKey(chain, ca);
    const records = engine.applyBlock(
      acceptedBlock(10_000n, [
        op(owner, { op: 'issue', ca, amt: '1' }),
        op(owner, { op: 'blacklist', ca, mod: 'add', to: alice.address }),
      ]),
    ).ops;
    expect(records.map((record) => record.opError)).toEqual(['mode invalid', 'mode invalid']);
  });
});

describe('multiple ops in one transaction', () => {
  it('a send on input 1 is a cancel; the record is the first accepted script', () => {
    const chain = new Chain();
    chain.block(deployTest());
    chain.block(transfer(owner, alice.address, '40'));
    const listed = chain.one(op(alice, { op: 'list', tick: 'test', amt: '40' }, 0n, [{ address: listingAddress(alice, 'TEST'), value: KAS }]));
    const tx = transaction(
      [sendInput(bob, 'TEST', '66'.repeat(32)), sendInput(alice, 'TEST', listed.txId)],
      [
        { address: bob.address, value: KAS },
        { address: carol.address, value: KAS },
      ],
    );
    const record = chain.one(tx);
    expect(record.scripts.map((script) => [script.inputIndex, script.opError])).toEqual([
      [0, 'order not found'],
      [1, null],
    ]);
    expect(record.accepted).toBe(true);
    expect(record.primary.inputIndex).toBe(1);
    expect(record.primary.op).toMatchObject({ to: alice.address, price: 0n });
    expect(chain.engine.balance(alice.address, 'TEST')).toMatchObject({ balance: 40n, locked: 0n });
  });
});

describe('undo log', () => {
  function busyChain(): { chain: Chain; blocks: AcceptedTransaction[][] } {
    const chain = new Chain();
    chain.block(deployTest());
    chain.block(mint(alice), mint(bob));
    const blocks = [
      [transfer(alice, carol.address, '100'), mint(carol), op(owner, { op: 'burn', tick: 'test', amt: '30' })],
      [op(carol, { op: 'list', tick: 'test', amt: '60' }, 0n, [{ address: listingAddress(carol, 'TEST'), value: KAS }])],
    ];
    return { chain, blocks };
  }

  it('revertBlock restores the exact previous state; reapplying gives identical state and records', () => {
    const { chain, blocks } = busyChain();
    const { engine } = chain;
    const before = engine.snapshot();
    const first = engine.applyBlock(acceptedBlock(500n, blocks[0]!, 'x1'));
    const second = engine.applyBlock(acceptedBlock(510n, blocks[1]!, 'x2'));
    const after = engine.snapshot();
    expect(engine.orders('TEST')).toHaveLength(1);
    expect(engine.revertBlock('x2')).toBe(second);
    expect(engine.revertBlock('x1')).toBe(first);
    expect(engine.snapshot()).toEqual(before);
    expect(engine.orders('TEST')).toEqual([]);
    expect(engine.holders('TEST').map((holder) => holder.address).sort()).toEqual([alice.address, bob.address, owner.address].sort());
    const again = engine.applyBlock(acceptedBlock(500n, blocks[0]!, 'x1'));
    engine.applyBlock(acceptedBlock(510n, blocks[1]!, 'x2'));
    expect(engine.snapshot()).toEqual(after);
    expect(again.ops).toEqual(first.ops);
  });

  it('records one change per touched key with its value before and after the block', () => {
    const { chain, blocks } = busyChain();
    const application = chain.engine.applyBlock(acceptedBlock(500n, blocks[0]!, 'x1'));
    const carolRow = application.changes.find((change) => change.table === 'balance' && change.key.startsWith(carol.address));
    expect(carolRow).toMatchObject({ before: null, after: { balance: 100n + 300n } });
    const ids = application.changes.map((change) => `${change.table}:${change.key}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('only the newest block can be reverted, and pruned blocks not at all', () => {
    const { chain, blocks } = busyChain();
    chain.engine.applyBlock(acceptedBlock(500n, blocks[0]!, 'x1'));
    chain.engine.applyBlock(acceptedBlock(510n, blocks[1]!, 'x2'));
    expect(() => chain.engine.revertBlock('x1')).toThrow();
    chain.engine.pruneUndo(1);
    expect(chain.engine.revertibleBlocks()).toEqual([{ hash: 'x2', daaScore: 510n }]);
    chain.engine.revertBlock('x2');
    expect(() => chain.engine.revertBlock('x1')).toThrow();
  });

  it('after a revert, a competing block with a lower DAA score than the reverted one applies', () => {
    const { chain, blocks } = busyChain();
    chain.engine.applyBlock(acceptedBlock(500n, blocks[0]!, 'x1'));
    chain.engine.revertBlock('x1');
    expect(() => chain.engine.applyBlock(acceptedBlock(495n, blocks[1]!, 'y1'))).not.toThrow();
  });

  it('a snapshot restores into an engine with the same state', () => {
    const { chain, blocks } = busyChain();
    chain.engine.applyBlock(acceptedBlock(500n, blocks[0]!, 'x1'));
    const copy = createTokenEngine({ profile: DEVNET_PROFILE, snapshot: chain.engine.snapshot() });
    expect(copy.snapshot()).toEqual(chain.engine.snapshot());
    expect(copy.holders('TEST')).toEqual(chain.engine.holders('TEST'));
    expect(copy.balancesOf(carol.address)).toEqual(chain.engine.balancesOf(carol.address));
  });
});

describe('derived token fields', () => {
  it('status is finished once a capped token is fully minted; unlimited tokens never finish', () => {
    expect(tokenStatus({ max: 10n, minted: 9n })).toBe('deployed');
    expect(tokenStatus({ max: 10n, minted: 10n })).toBe('finished');
    expect(tokenStatus({ max: 0n, minted: 10n ** 30n })).toBe('deployed');
  });

  it('the black-hole address is the all-zero version 0 payload', () => {
    expect(blackHoleAddress('kaspa')).toBe('kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e');
    expect(blackHoleAddress('kaspatest')).toMatch(/^kaspatest:q{50,}.*hqrxplya$/);
  });

  it('supply: burned ops plus the black-hole holding count as burned', () => {
    expect(supplySummary({ max: 1000n, minted: 800n, burned: 50n }, 25n)).toEqual({ maxSupply: 925n, totalSupply: 725n, totalBurned: 75n });
    expect(supplySummary({ max: 0n, minted: 800n, burned: 0n }, 0n).maxSupply).toBeNull();
  });
});
