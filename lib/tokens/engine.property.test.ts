import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenEngine, type AcceptedTransaction, type TokenEngine } from './engine';
import { buildRedeemScript, buildRevealSignatureScript, decodeOpJson, envelopeSenderAddress, parseEnvelopeInput } from './envelope';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR } from './operations';
import { DEVNET_PROFILE } from './profile';
import {
  KAS,
  PLACEHOLDER_SIGNATURE,
  acceptedBlock,
  listingAddress,
  reveal,
  schnorrParty,
  sendInput,
  transaction,
  type Party,
} from './test-support/transactions';

const parties = [schnorrParty(30), schnorrParty(31), schnorrParty(32), schnorrParty(33)];
const owner = parties[0]!;

type Action =
  | { kind: 'mint'; who: number; paid: boolean }
  | { kind: 'transfer'; from: number; to: number; amount: number }
  | { kind: 'burn'; who: number; amount: number }
  | { kind: 'list'; who: number; amount: number }
  | { kind: 'send'; order: number; fill: boolean; buyer: number; price: number };

const party = fc.integer({ min: 0, max: parties.length - 1 });
const amount = fc.integer({ min: 1, max: 400 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('mint' as const), who: party, paid: fc.boolean() }),
  fc.record({ kind: fc.constant('transfer' as const), from: party, to: party, amount }),
  fc.record({ kind: fc.constant('burn' as const), who: party, amount }),
  fc.record({ kind: fc.constant('list' as const), who: party, amount }),
  fc.record({
    kind: fc.constant('send' as const),
    order: fc.nat(),
    fill: fc.boolean(),
    buyer: party,
    price: fc.integer({ min: 1, max: 1000 }),
  }),
);
const blocks = fc.array(fc.array(action, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 });

function op(signer: Party, fields: Record<string, string>, fee: bigint, outputs = [{ address: signer.address, value: KAS }]) {
  const total = outputs.reduce((sum, output) => sum + output.value, 0n);
  return reveal({ signer, op: { p: 'krc-20', ...fields }, inputAmount: total + fee, outputs });
}

/** Transactions are built when the block is applied, so a send can target an order that is open then. */
function toTransaction(engine: TokenEngine, next: Action): AcceptedTransaction | null {
  switch (next.kind) {
    case 'mint':
      return op(parties[next.who]!, { op: 'mint', tick: 'prop' }, next.paid ? MINT_FEE_FLOOR : MINT_FEE_FLOOR - 1n);
    case 'transfer':
      return op(parties[next.from]!, { op: 'transfer', tick: 'prop', amt: String(next.amount), to: parties[next.to]!.address }, 0n);
    case 'burn':
      return op(parties[next.who]!, { op: 'burn', tick: 'prop', amt: String(next.amount) }, 0n);
    case 'list': {
      const seller = parties[next.who]!;
      return op(seller, { op: 'list', tick: 'prop', amt: String(next.amount) }, 0n, [
        { address: listingAddress(seller, 'PROP'), value: KAS },
      ]);
    }
    case 'send': {
      const open = engine.orders('PROP');
      const order = open[next.order % Math.max(1, open.length)];
      if (!order) return null;
      const seller = parties.find((candidate) => candidate.address === order.seller)!;
      const outputs = [{ address: seller.address, value: BigInt(next.price) * KAS }];
      if (next.fill) outputs.push({ address: parties[next.buyer]!.address, value: KAS });
      return transaction([sendInput(seller, 'PROP', order.uTxId)], outputs);
    }
  }
}

function checkInvariants(engine: TokenEngine): void {
  const token = engine.token('PROP')!;
  const holders = engine.holders('PROP', Number.MAX_SAFE_INTEGER);
  let supply = 0n;
  for (const holder of holders) {
    expect(holder.balance >= 0n && holder.locked >= 0n).toBe(true);
    expect(holder.balance + holder.locked > 0n).toBe(true);
    supply += holder.balance + holder.locked;
  }
  expect(supply).toBe(token.minted - token.burned);
  expect(token.minted <= token.max).toBe(true);
  expect(token.holderTotal).toBe(holders.length);
  const lockedByOrders = new Map<string, bigint>();
  for (const order of engine.orders('PROP')) {
    lockedByOrders.set(order.seller, (lockedByOrders.get(order.seller) ?? 0n) + order.amount);
  }
  for (const holder of holders) expect(holder.locked).toBe(lockedByOrders.get(holder.address) ?? 0n);
}

describe('engine properties', () => {
  it('balances never go negative, transfers conserve supply, holders and locks stay consistent; undo∘apply = identity', () => {
    fc.assert(
      fc.property(blocks, fc.integer({ min: 1, max: 300 }), (script, lim) => {
        const engine = createTokenEngine({ profile: DEVNET_PROFILE });
        engine.applyBlock(
          acceptedBlock(100n, [op(owner, { op: 'deploy', tick: 'prop', max: '3000', lim: String(lim), pre: '500' }, DEPLOY_FEE_FLOOR)]),
        );
        checkInvariants(engine);
        let daaScore = 100n;
        for (const actions of script) {
          daaScore += 1n;
          const txs = actions.flatMap((next) => toTransaction(engine, next) ?? []);
          const block = acceptedBlock(daaScore, txs, `b${daaScore}`);
          const before = engine.snapshot();
          const applied = engine.applyBlock(block);
          const after = engine.snapshot();
          engine.revertBlock(block.hash);
          expect(engine.snapshot()).toEqual(before);
          const again = engine.applyBlock(block);
          expect(again.ops).toEqual(applied.ops);
          expect(engine.snapshot()).toEqual(after);
          checkInvariants(engine);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('reverting a whole chain of blocks newest first restores the deploy-only state', () => {
    fc.assert(
      fc.property(blocks, (script) => {
        const engine = createTokenEngine({ profile: DEVNET_PROFILE });
        engine.applyBlock(
          acceptedBlock(100n, [op(owner, { op: 'deploy', tick: 'prop', max: '3000', lim: '200', pre: '500' }, DEPLOY_FEE_FLOOR)]),
        );
        const initial = engine.snapshot();
        const hashes: string[] = [];
        script.forEach((actions, index) => {
          const hash = `c${index}`;
          const txs = actions.flatMap((next) => toTransaction(engine, next) ?? []);
          engine.applyBlock(acceptedBlock(101n + BigInt(index), txs, hash));
          hashes.push(hash);
        });
        for (const hash of hashes.reverse()) engine.revertBlock(hash);
        expect(engine.snapshot()).toEqual(initial);
      }),
      { numRuns: 25 },
    );
  });
});

describe('envelope properties', () => {
  const fieldValue = fc.string({ maxLength: 12 });

  it('builder and parser round-trip any string-valued op and its sender', () => {
    fc.assert(
      fc.property(
        fc.record({ tick: fieldValue, amt: fieldValue, to: fieldValue, memo: fieldValue }),
        fc.integer({ min: 30, max: 33 }),
        (fields, seed) => {
          const signer = parties[seed - 30]!;
          const op = { p: 'krc-20', op: 'transfer', ...fields };
          const redeem = buildRedeemScript(signer.publicKey, op);
          const envelope = parseEnvelopeInput(buildRevealSignatureScript(PLACEHOLDER_SIGNATURE, redeem))!;
          expect(envelopeSenderAddress(envelope, 'kaspadev')).toBe(signer.address);
          const decoded = decodeOpJson(envelope.content)!;
          expect([decoded.p, decoded.op, decoded.tick, decoded.amt, decoded.to, decoded.memo]).toEqual([
            'krc-20',
            'transfer',
            fields.tick,
            fields.amt,
            fields.to,
            fields.memo,
          ]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('decodeOpJson agrees with JSON.parse on objects of distinct lower-case string keys', () => {
    const keys = fc.constantFrom('p', 'op', 'tick', 'amt', 'to', 'max', 'lim', 'dec', 'other');
    fc.assert(
      fc.property(fc.dictionary(keys, fc.string({ maxLength: 8 })), (object) => {
        const decoded = decodeOpJson(JSON.stringify(object))!;
        for (const [key, value] of Object.entries(object)) {
          if (key !== 'other') expect(decoded[key as 'p']).toBe(value);
        }
      }),
      { numRuns: 200 },
    );
  });
});
