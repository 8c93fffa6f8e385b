import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AddressTransaction, IndexedBlock, IndexedTransaction } from '../../db';
import { addressOf, covenantOutput, hashOf, payToAddressOutput, syntheticBlock, syntheticTransaction } from '../../db/test-support/fixtures';
import { bytesToHex } from '../../kaspa/bytes';
import { addressTransactionView, blockView, exactInteger, transactionView } from './indexed-format';

const hex = (label: string) => bytesToHex(hashOf(label));

const funding = syntheticTransaction('funding', 1_700_000_000_000n, [], [payToAddressOutput('alice', 5000n)]);
const record = syntheticTransaction(
  'spend',
  1_700_000_123_456n,
  [
    { previousTransactionId: funding.transactionId, previousIndex: 0, previousOutput: funding.outputs[0]! },
    { previousTransactionId: hashOf('before history'), previousIndex: 7, previousOutput: null },
  ],
  [payToAddressOutput('bob', 3000n), payToAddressOutput('alice', 1900n)],
);

function indexed(overrides: Partial<IndexedTransaction> = {}): IndexedTransaction {
  return {
    ...record,
    payload: Uint8Array.of(0xca, 0xfe),
    blockHashes: [hashOf('block x'), hashOf('block y')],
    acceptingBlockHash: hashOf('acceptor'),
    acceptingBlockBlueScore: 5000n,
    ...overrides,
  };
}

describe('transactionView (§2.1)', () => {
  it('writes every field with the type the specification gives it', () => {
    const view = transactionView(indexed(), 5042n);
    expect(Object.keys(view)).toEqual([
      'transactionId',
      'blockTime',
      'subnetworkId',
      'hash',
      'mass',
      'blockHashes',
      'acceptingBlockHash',
      'isAccepted',
      'confirmations',
      'payload',
      'inputs',
      'outputs',
      'version',
      'storageMass',
      'computeMass',
      'gas',
    ]);
    expect(view.transactionId).toBe(hex('transaction spend'));
    expect(view.hash).toBe(hex('transaction hash spend'));
    expect(view.blockTime).toBe(1_700_000_123_456);
    expect(view.subnetworkId).toBe('0'.repeat(40));
    expect(view.mass).toBe('2036');
    expect(view.blockHashes).toEqual([hex('block x'), hex('block y')]);
    expect(view.acceptingBlockHash).toBe(hex('acceptor'));
    expect(view.isAccepted).toBe(true);
    expect(view.confirmations).toBe(42);
    expect(view.payload).toBe('0xcafe');
    expect(view).toMatchObject({ version: 0, storageMass: '2036', computeMass: '2036', gas: '0' });
  });

  it('writes the Toccata extensions: compute budgets, covenant bindings and spent covenant ids', () => {
    const covenantId = hashOf('covenant');
    const continuation = indexed({
      version: 1,
      storageMass: 2n ** 64n - 1n,
      computeMass: null,
      gas: 7n,
      inputs: [{ ...record.inputs[0]!, computeBudget: 65_535, previousOutput: { ...funding.outputs[0]!, covenantId } }],
      outputs: [covenantOutput('next state', 10n, covenantId, 0)],
    });
    const view = transactionView(continuation, 0n);
    expect(view).toMatchObject({ version: 1, storageMass: '18446744073709551615', computeMass: null, gas: '7' });
    expect(view.inputs[0]).toMatchObject({ computeBudget: 65_535, previousOutput: { covenantId: hex('covenant') } });
    expect(view.outputs[0]!.covenant).toEqual({ authorizingInput: 0, covenantId: hex('covenant') });
  });

  it('names each input by its own transaction and index and carries the spent output', () => {
    const [resolved, unresolved] = transactionView(indexed(), 5042n).inputs;
    expect(resolved).toEqual({
      transactionId: hex('transaction spend'),
      index: 0,
      signatureScript: hex('signature spend'),
      sigOpCount: 1,
      computeBudget: 0,
      previousOutput: {
        transactionId: hex('transaction funding'),
        index: 0,
        amount: '5000',
        scriptPublicKey: `20${hex('address alice')}ac`,
        scriptPublicKeyAddress: addressOf('alice'),
        scriptPublicKeyType: 'pubkey',
        covenantId: null,
      },
    });
    expect(unresolved?.index).toBe(1);
    expect(unresolved?.previousOutput).toEqual({
      transactionId: hex('before history'),
      index: 7,
      amount: null,
      scriptPublicKey: null,
      scriptPublicKeyAddress: null,
      scriptPublicKeyType: null,
      covenantId: null,
    });
  });

  it('writes outputs with decimal amounts, the bare script, the address and the script class', () => {
    const { outputs } = transactionView(indexed(), 5042n);
    expect(outputs).toEqual([
      {
        transactionId: hex('transaction spend'),
        index: 0,
        amount: '3000',
        scriptPublicKey: `20${hex('address bob')}ac`,
        scriptPublicKeyAddress: addressOf('bob'),
        scriptPublicKeyType: 'pubkey',
        covenant: null,
      },
      {
        transactionId: hex('transaction spend'),
        index: 1,
        amount: '1900',
        scriptPublicKey: `20${hex('address alice')}ac`,
        scriptPublicKeyAddress: addressOf('alice'),
        scriptPublicKeyType: 'pubkey',
        covenant: null,
      },
    ]);
  });

  it('an unaccepted transaction has no accepting block and 0 confirmations; an unrequested payload is 0x', () => {
    const view = transactionView(indexed({ acceptingBlockHash: null, acceptingBlockBlueScore: null, payload: null }), 9n);
    expect(view).toMatchObject({ acceptingBlockHash: null, isAccepted: false, confirmations: 0, payload: '0x' });
    expect(transactionView(indexed({ payload: new Uint8Array(0) }), 0n).payload).toBe('0x');
  });

  it('never writes an inexact integer', () => {
    expect(() => transactionView(indexed({ blockTime: 2n ** 53n }), 0n)).toThrow(RangeError);
    expect(exactInteger(2n ** 53n - 1n, 'x')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('amounts survive as exact decimal text up to 2^64 − 1', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (amount) => {
        const output = payToAddressOutput('carol', amount);
        const view = transactionView(indexed({ outputs: [output] }), 0n);
        expect(BigInt(view.outputs[0]!.amount)).toBe(amount);
      }),
      { numRuns: 200 },
    );
  });
});

describe('addressTransactionView (§2.1 address item)', () => {
  it('adds amountSent, amountReceived, a signed balanceChange and the fee as decimal strings', () => {
    const item: AddressTransaction = {
      ...indexed(),
      amountSent: 5000n,
      amountReceived: 1900n,
      balanceChange: -3100n,
      fee: 100n,
    };
    const view = addressTransactionView(item, 5000n);
    expect(view).toMatchObject({
      amountSent: '5000',
      amountReceived: '1900',
      balanceChange: '-3100',
      fee: '100',
      confirmations: 0,
    });
    expect(addressTransactionView({ ...item, fee: null }, 5000n).fee).toBeNull();
  });
});

describe('blockView (§2.4)', () => {
  const parent = hashOf('block parent');
  const other = hashOf('block other parent');
  const block: IndexedBlock = {
    ...syntheticBlock({
      label: 'viewed',
      daaScore: 123_456n,
      parents: [parent, other],
      transactionIds: [record.transactionId],
      isChainBlock: true,
    }),
    mergeSetReds: [hashOf('red')],
    childrenHashes: [hashOf('child')],
  };

  it('writes every field with the type the specification gives it', () => {
    const view = blockView(block);
    expect(view).toEqual({
      hash: hex('block viewed'),
      acceptedIdMerkleRoot: hex('accepted merkle viewed'),
      difficulty: 1.5,
      isChainBlock: true,
      mergeSetBluesHashes: [bytesToHex(parent), bytesToHex(other)],
      mergeSetRedsHashes: [hex('red')],
      selectedParentHash: bytesToHex(parent),
      bits: 0x1e7fffff,
      blueScore: 123_456,
      blueWork: (123_456n * 1_000_003n).toString(16).padStart(48, '0'),
      daaScore: 123_456,
      hashMerkleRoot: hex('hash merkle viewed'),
      nonce: (123_456n * 7919n).toString(),
      parents: [bytesToHex(parent), bytesToHex(other)],
      pruningPoint: hex('pruning point'),
      timestamp: new Date(1_700_000_000_000 + 12_345_600).toISOString(),
      utxoCommitment: hex('utxo viewed'),
      version: 1,
      transactionIds: [hex('transaction spend')],
    });
    expect(view.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('takes only the level-0 parents and leaves genesis without a selected parent', () => {
    const genesis = blockView({ ...block, selectedParentHash: null, header: { ...block.header, parentsByLevel: [] } });
    expect(genesis.parents).toEqual([]);
    expect(genesis.selectedParentHash).toBeNull();
    expect(block.header.parentsByLevel[1]).toEqual([parent]);
    expect(blockView(block).parents).toEqual([bytesToHex(parent), bytesToHex(other)]);
  });

  it('writes a nonce above 2^53 exactly', () => {
    const big = blockView({ ...block, header: { ...block.header, nonce: 2n ** 64n - 1n } });
    expect(big.nonce).toBe('18446744073709551615');
  });
});
