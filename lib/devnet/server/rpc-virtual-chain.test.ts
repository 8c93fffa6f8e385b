import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { transactionId } from '../../kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type Transaction, type TransactionOutput, type UtxoEntry } from '../../kaspa/types';
import { transactionToRpc } from '../../rpc/convert-transaction';
import { callChecked } from '../../rpc/response-schemas';
import type { GetVirtualChainFromBlockV2Response, RpcDataVerbosityLevel } from '../../rpc/virtual-chain-v2-types';
import { FORK_ALWAYS } from '../consensus/params';
import { compressParents, optionalTransactionToRpc } from './rpc-converter';
import { idHex, spend, spendV1 } from '../test-support/devnet-harness';
import { MINER_KEY, rejection, startWireDevnet, TEST_COINBASE_MATURITY, wireKey, type WireDevnet, type WireKey } from '../test-support/wire-devnet';
import { P2PK_V1_COMPUTE_BUDGET } from '../traffic/wallet';

let devnet: WireDevnet | undefined;
afterEach(async () => {
  await devnet?.close();
  devnet = undefined;
});

const OWNER = wireKey(5);
const FEE = 1_000_000n;
const LEVELS: RpcDataVerbosityLevel[] = ['None', 'Low', 'High', 'Full'];

interface Spendable {
  outpoint: Outpoint;
  entry: UtxoEntry;
  key: WireKey;
}

function v1Transaction(utxo: Spendable, outputs: TransactionOutput[], genesis = false): Transaction {
  return spendV1(utxo, outputs, { computeBudget: P2PK_V1_COMPUTE_BUDGET, genesis });
}

async function toccataDevnet(): Promise<WireDevnet> {
  devnet = await startWireDevnet({ params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation: FORK_ALWAYS } });
  return devnet;
}

/** Submits over the wire, mines the carrying block and the chain block accepting it; returns their hashes. */
async function mineTransaction(wire: WireDevnet, tx: Transaction) {
  await wire.client.call('submitTransaction', { transaction: transactionToRpc(tx), allowOrphan: false });
  const carrying = await wire.mine();
  expect(carrying.block.transactions.map(idHex)).toContain(idHex(tx));
  const accepting = await wire.mine();
  return { carrying: carrying.hash, accepting: accepting.hash };
}

/**
 * A Toccata chain holding a covenant genesis (v1, compute budget, covenant binding) and its continuation, whose input
 * spends the covenant-bound output.
 */
async function covenantChain() {
  const wire = await toccataDevnet();
  for (let i = 0; i < TEST_COINBASE_MATURITY + 2; i++) await wire.mine();
  const [reward] = wire.node.consensus
    .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
    .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
  const genesisTx = v1Transaction({ ...reward!, key: MINER_KEY }, [{ value: reward!.entry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey }], true);
  const covenantId = genesisTx.outputs[0]!.covenant!.covenantId;
  const genesis = await mineTransaction(wire, genesisTx);
  const covenantOutpoint = { transactionId: transactionId(genesisTx), index: 0 };
  const covenantEntry = wire.node.consensus.getUtxo(covenantOutpoint)!;
  const continuationTx = v1Transaction({ outpoint: covenantOutpoint, entry: covenantEntry, key: OWNER }, [
    { value: covenantEntry.amount - FEE, scriptPublicKey: OWNER.scriptPublicKey, covenant: { authorizingInput: 0, covenantId } },
  ]);
  const continuation = await mineTransaction(wire, continuationTx);
  return { wire, genesisTx, continuationTx, covenantId, covenantEntry, genesis, continuation };
}

function acceptedBy(response: GetVirtualChainFromBlockV2Response, chainBlock: string) {
  const index = response.addedChainBlockHashes.indexOf(chainBlock);
  expect(index).toBeGreaterThanOrEqual(0);
  return response.chainBlockAcceptedTransactions[index]!;
}

/** Walks a parsed frame by keys and indices. */
function member(value: unknown, ...path: (string | number)[]): Record<string, unknown> {
  return path.reduce<unknown>((current, key) => (current as Record<string | number, unknown>)[key], value) as Record<string, unknown>;
}

const nonNullKeys = (value: object) =>
  Object.entries(value)
    .filter(([, field]) => field !== null)
    .map(([key]) => key);

/** rpc/core/src/convert/verbosity.rs: the fields each level adds (signable-transaction path of the converter). */
const HEADER_FIELDS: Record<RpcDataVerbosityLevel, string[]> = {
  None: ['hash'],
  Low: ['hash', 'version', 'timestamp', 'bits', 'nonce', 'daaScore', 'blueWork', 'blueScore'],
  High: ['hash', 'version', 'parentsByLevel', 'hashMerkleRoot', 'acceptedIdMerkleRoot', 'timestamp', 'bits', 'nonce', 'daaScore', 'blueWork', 'blueScore'],
  Full: [
    'hash',
    'version',
    'parentsByLevel',
    'hashMerkleRoot',
    'acceptedIdMerkleRoot',
    'utxoCommitment',
    'timestamp',
    'bits',
    'nonce',
    'daaScore',
    'blueWork',
    'blueScore',
    'pruningPoint',
  ],
};
const ALWAYS_TRANSACTION_FIELDS = ['inputs', 'outputs', 'subnetworkId', 'gas', 'payload', 'storageMass', 'mass', 'verboseData'];
const TRANSACTION_FIELDS: Record<RpcDataVerbosityLevel, string[]> = {
  None: ALWAYS_TRANSACTION_FIELDS,
  Low: ALWAYS_TRANSACTION_FIELDS,
  High: ALWAYS_TRANSACTION_FIELDS,
  Full: ['version', 'inputs', 'outputs', 'lockTime', 'subnetworkId', 'gas', 'payload', 'storageMass', 'mass', 'verboseData'],
};
const TRANSACTION_VERBOSE_FIELDS: Record<RpcDataVerbosityLevel, string[]> = {
  None: [],
  Low: ['transactionId', 'hash', 'blockHash', 'blockTime'],
  High: ['transactionId', 'hash', 'computeMass', 'blockHash', 'blockTime'],
  Full: ['transactionId', 'hash', 'computeMass', 'blockHash', 'blockTime'],
};
const INPUT_FIELDS: Record<RpcDataVerbosityLevel, string[]> = {
  None: ['verboseData'],
  Low: ['signatureScript', 'verboseData'],
  High: ['previousOutpoint', 'signatureScript', 'sequence', 'sigOpCount', 'computeBudget', 'verboseData'],
  Full: ['previousOutpoint', 'signatureScript', 'sequence', 'sigOpCount', 'computeBudget', 'verboseData'],
};
const UTXO_ENTRY_FIELDS: Record<RpcDataVerbosityLevel, string[]> = {
  None: ['verboseData', 'covenantId'],
  Low: ['verboseData', 'covenantId'],
  High: ['amount', 'scriptPublicKey', 'isCoinbase', 'verboseData', 'covenantId'],
  Full: ['amount', 'scriptPublicKey', 'blockDaaScore', 'isCoinbase', 'verboseData', 'covenantId'],
};
const OUTPUT_FIELDS: Record<RpcDataVerbosityLevel, string[]> = {
  None: ['verboseData'],
  Low: ['value', 'scriptPublicKey', 'verboseData', 'covenant'],
  High: ['value', 'scriptPublicKey', 'verboseData', 'covenant'],
  Full: ['value', 'scriptPublicKey', 'verboseData', 'covenant'],
};
const SCRIPT_VERBOSE_FIELDS: Record<RpcDataVerbosityLevel, string[]> = {
  None: [],
  Low: ['scriptPublicKeyType', 'scriptPublicKeyAddress'],
  High: ['scriptPublicKeyType', 'scriptPublicKeyAddress'],
  Full: ['scriptPublicKeyType', 'scriptPublicKeyAddress'],
};

describe('getVirtualChainFromBlockV2 over wRPC', () => {
  it('answers Full by default with the Toccata fields: compute budgets, covenant bindings and the spent entry’s covenant id', async () => {
    const { wire, genesisTx, continuationTx, covenantId, covenantEntry, genesis, continuation } = await covenantChain();
    const startHash = bytesToHex(wire.node.genesisHash);
    const answer = await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash });
    expect(await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: 'Full' })).toEqual(answer);
    const v1 = await wire.client.call('getVirtualChainFromBlock', { startHash, includeAcceptedTransactionIds: true });
    expect(answer.addedChainBlockHashes).toEqual(v1.addedChainBlockHashes);
    expect(answer.removedChainBlockHashes).toEqual([]);
    expect(answer.chainBlockAcceptedTransactions.map((chain) => chain.chainBlockHeader.hash)).toEqual(answer.addedChainBlockHashes);
    expect(answer.chainBlockAcceptedTransactions.map((chain) => chain.acceptedTransactions.map((tx) => tx.verboseData!.transactionId))).toEqual(
      v1.acceptedTransactionIds.map((accepted) => accepted.acceptedTransactionIds),
    );

    const accepting = acceptedBy(answer, genesis.accepting);
    const header = wire.node.consensus.getBlock(hexToBytes(genesis.accepting))!.header;
    expect(accepting.chainBlockHeader).toMatchObject({
      version: 2,
      daaScore: header.daaScore,
      utxoCommitment: bytesToHex(header.utxoCommitment),
      acceptedIdMerkleRoot: bytesToHex(header.acceptedIdMerkleRoot),
      parentsByLevel: compressParents(header.parentsByLevel),
    });
    const genesisRpc = accepting.acceptedTransactions.find((tx) => tx.verboseData!.transactionId === idHex(genesisTx))!;
    const carrying = wire.node.consensus.getBlock(hexToBytes(genesis.carrying))!;
    expect(genesisRpc).toMatchObject({
      version: 1,
      inputs: [{ sigOpCount: 0, computeBudget: P2PK_V1_COMPUTE_BUDGET, verboseData: { utxoEntry: { isCoinbase: true, covenantId: null } } }],
      outputs: [{ value: genesisTx.outputs[0]!.value, covenant: { authorizingInput: 0, covenantId: bytesToHex(covenantId) } }],
      storageMass: genesisTx.storageMass,
      mass: genesisTx.storageMass,
      verboseData: { blockHash: genesis.carrying, blockTime: carrying.header.timestamp },
    });
    expect(genesisRpc.outputs[0]!.verboseData).toEqual({ scriptPublicKeyType: 'PubKey', scriptPublicKeyAddress: OWNER.address });

    const continuationRpc = acceptedBy(answer, continuation.accepting).acceptedTransactions.find(
      (tx) => tx.verboseData!.transactionId === idHex(continuationTx),
    )!;
    expect(continuationRpc.inputs[0]!.verboseData!.utxoEntry).toEqual({
      amount: covenantEntry.amount,
      scriptPublicKey: '0000' + bytesToHex(OWNER.scriptPublicKey.script),
      blockDaaScore: covenantEntry.blockDaaScore,
      isCoinbase: false,
      verboseData: { scriptPublicKeyType: 'PubKey', scriptPublicKeyAddress: OWNER.address },
      covenantId: bytesToHex(covenantId),
    });
    expect(continuationRpc.outputs[0]!.covenant).toEqual({ authorizingInput: 0, covenantId: bytesToHex(covenantId) });
  });

  it('on a Crescendo chain writes version 0 inputs with their sig-op count and a compute budget of 0', async () => {
    const wire = await startWireDevnet();
    for (let i = 0; i < TEST_COINBASE_MATURITY + 2; i++) await wire.mine();
    const [reward] = wire.node.consensus.getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey);
    const payment = spend(reward!, MINER_KEY, OWNER.scriptPublicKey);
    const { accepting } = await mineTransaction(wire, payment);
    const startHash = bytesToHex(wire.node.genesisHash);
    const high = await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: 'High' });
    const chain = acceptedBy(high, accepting);
    expect(chain.chainBlockHeader.version).toBe(1);
    const rpc = chain.acceptedTransactions.find((tx) => tx.verboseData!.transactionId === idHex(payment))!;
    expect(rpc.version).toBeNull();
    expect(rpc.inputs[0]).toMatchObject({ sigOpCount: 1, computeBudget: 0, sequence: 0n });
    expect(rpc.inputs[0]!.verboseData!.utxoEntry).toMatchObject({ amount: reward!.entry.amount, isCoinbase: true, blockDaaScore: null, covenantId: null });
    expect(rpc.outputs[0]!.covenant).toBeNull();
  });

  it('writes every field at every level, null where the level leaves it out, in kaspad’s order', async () => {
    const { wire, continuation } = await covenantChain();
    const startHash = bytesToHex(wire.node.genesisHash);
    for (const level of LEVELS) {
      const frame = await wire.raw('getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: level });
      const params = frame.params as { addedChainBlockHashes: string[]; chainBlockAcceptedTransactions: { chainBlockHeader: object; acceptedTransactions: Record<string, unknown>[] }[] };
      expect(Object.keys(params)).toEqual(['removedChainBlockHashes', 'addedChainBlockHashes', 'chainBlockAcceptedTransactions']);
      const chain = params.chainBlockAcceptedTransactions[params.addedChainBlockHashes.indexOf(continuation.accepting)]!;
      expect(Object.keys(chain)).toEqual(['chainBlockHeader', 'acceptedTransactions']);
      expect(Object.keys(chain.chainBlockHeader)).toEqual(HEADER_FIELDS.Full);
      expect(nonNullKeys(chain.chainBlockHeader), level).toEqual(HEADER_FIELDS[level]);
      // The selected parent's coinbase, then the continuation.
      expect(chain.acceptedTransactions).toHaveLength(2);
      const tx = chain.acceptedTransactions[1]!;
      expect(Object.keys(tx)).toEqual(TRANSACTION_FIELDS.Full);
      expect(nonNullKeys(tx), level).toEqual(TRANSACTION_FIELDS[level]);
      expect(nonNullKeys(member(tx, 'verboseData')), level).toEqual(TRANSACTION_VERBOSE_FIELDS[level]);
      const input = member(tx, 'inputs', 0);
      expect(Object.keys(input)).toEqual(INPUT_FIELDS.Full);
      expect(nonNullKeys(input), level).toEqual(INPUT_FIELDS[level]);
      const entry = member(input, 'verboseData', 'utxoEntry');
      expect(Object.keys(entry)).toEqual(UTXO_ENTRY_FIELDS.Full);
      expect(nonNullKeys(entry), level).toEqual(UTXO_ENTRY_FIELDS[level]);
      expect(nonNullKeys(member(entry, 'verboseData')), level).toEqual(SCRIPT_VERBOSE_FIELDS[level]);
      const output = member(tx, 'outputs', 0);
      expect(Object.keys(output)).toEqual(OUTPUT_FIELDS.Full);
      expect(nonNullKeys(output), level).toEqual(OUTPUT_FIELDS[level]);
      expect(nonNullKeys(member(output, 'verboseData')), level).toEqual(SCRIPT_VERBOSE_FIELDS[level]);
      expect(await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: level })).toBeDefined();
    }
  });

  it('strips chain blocks without more than minConfirmationCount confirmations, as v1 does', async () => {
    const wire = await toccataDevnet();
    for (let i = 0; i < 8; i++) await wire.mine();
    const startHash = bytesToHex(wire.node.genesisHash);
    const { blueScore: sinkBlueScore } = await wire.client.call('getSinkBlueScore', {});
    const all = await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: 'Low' });
    const stripped = await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: 'Low', minConfirmationCount: 3n });
    // Distances 0 to 3 are not more than 3: the sink and the three chain blocks below it go.
    expect(stripped.addedChainBlockHashes).toEqual(all.addedChainBlockHashes.slice(0, -4));
    for (const chain of stripped.chainBlockAcceptedTransactions) expect(sinkBlueScore - chain.chainBlockHeader.blueScore!).toBeGreaterThan(3n);
    expect(stripped.chainBlockAcceptedTransactions).toEqual(all.chainBlockAcceptedTransactions.slice(0, -4));
    const v1 = await wire.client.call('getVirtualChainFromBlock', { startHash, includeAcceptedTransactionIds: false, minConfirmationCount: 3n });
    expect(stripped.addedChainBlockHashes).toEqual(v1.addedChainBlockHashes);
    const none = await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash, minConfirmationCount: sinkBlueScore });
    expect(none).toEqual({ removedChainBlockHashes: [], addedChainBlockHashes: [], chainBlockAcceptedTransactions: [] });
    expect(await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: 'Low', minConfirmationCount: 0n })).toEqual(all);
  });

  it('reports the chain blocks a reorganisation removed and the new chain’s acceptance', async () => {
    const wire = await toccataDevnet();
    for (let i = 0; i < 6; i++) await wire.mine();
    const oldSink = bytesToHex(wire.node.consensus.sink());
    const reorg = wire.node.forceReorg({ depth: 3 });
    const answer = await callChecked(wire.client, 'getVirtualChainFromBlockV2', { startHash: oldSink, dataVerbosityLevel: 'High' });
    expect(answer.removedChainBlockHashes).toEqual(reorg.change.removedChainBlockHashes.map(bytesToHex));
    expect(answer.removedChainBlockHashes[0]).toBe(oldSink);
    expect(answer.addedChainBlockHashes).toEqual(reorg.blocks.map(bytesToHex));
    expect(answer.chainBlockAcceptedTransactions.map((chain) => chain.chainBlockHeader.hash)).toEqual(answer.addedChainBlockHashes);
    const v1 = await wire.client.call('getVirtualChainFromBlock', { startHash: oldSink, includeAcceptedTransactionIds: true });
    expect(answer.removedChainBlockHashes).toEqual(v1.removedChainBlockHashes);
    expect(answer.chainBlockAcceptedTransactions.map((chain) => chain.acceptedTransactions.map((tx) => tx.verboseData!.transactionId))).toEqual(
      v1.acceptedTransactionIds.map((accepted) => accepted.acceptedTransactionIds),
    );
  });

  it('answers kaspad’s errors for an unknown start block and for verbosity levels serde refuses', async () => {
    const wire = await toccataDevnet();
    await wire.mine();
    const missing = 'ab'.repeat(32);
    expect(await rejection(wire.client.call('getVirtualChainFromBlockV2', { startHash: missing }))).toBe(`cannot find header ${missing}`);
    const startHash = bytesToHex(wire.node.genesisHash);
    for (const dataVerbosityLevel of [3, 'full', 'Medium']) {
      expect(await wire.raw('getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel })).toMatchObject({
        error: { code: 0, message: 'request deserialization error', data: null },
      });
    }
    expect(await wire.raw('getVirtualChainFromBlockV2', { dataVerbosityLevel: 'Full' })).toMatchObject({
      error: { message: 'request deserialization error' },
    });
    expect((await wire.raw('getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: null, minConfirmationCount: null })).error).toBeUndefined();
  });

  it('cuts the added chain at mergeset_size_limit × 10 chain blocks', async () => {
    devnet = await startWireDevnet({ params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation: FORK_ALWAYS, mergesetSizeLimit: 2 } });
    for (let i = 0; i < 23; i++) await devnet.mine();
    const startHash = bytesToHex(devnet.node.genesisHash);
    const answer = await callChecked(devnet.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: 'None' });
    const v1 = await devnet.client.call('getVirtualChainFromBlock', { startHash, includeAcceptedTransactionIds: false });
    expect(v1.addedChainBlockHashes).toHaveLength(20);
    expect(answer.addedChainBlockHashes).toEqual(v1.addedChainBlockHashes);
    expect(answer.chainBlockAcceptedTransactions).toHaveLength(20);
  });

  it('cuts the added chain before the chain block whose mergeset takes the merged-block total past the batch size', async () => {
    devnet = await startWireDevnet({ params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation: FORK_ALWAYS, mergesetSizeLimit: 2 } });
    for (let round = 0; round < 8; round++) {
      const parallel = await devnet.template(wireKey(3).address);
      await devnet.mine();
      expect((await devnet.submit(parallel)).type).toBe('success');
    }
    for (let i = 0; i < 12; i++) await devnet.mine();
    const startHash = bytesToHex(devnet.node.genesisHash);
    const answer = await callChecked(devnet.client, 'getVirtualChainFromBlockV2', { startHash, dataVerbosityLevel: 'None' });
    const chain = (await devnet.client.call('getVirtualChainFromBlock', { startHash, includeAcceptedTransactionIds: false })).addedChainBlockHashes;
    const merged = chain.map((hash) => devnet!.node.consensus.getAcceptanceData(hexToBytes(hash))!.length);
    expect(merged.filter((count) => count === 2).length).toBeGreaterThan(0);
    const returned = answer.addedChainBlockHashes.length;
    expect(answer.addedChainBlockHashes).toEqual(chain.slice(0, returned));
    expect(returned).toBeLessThan(20);
    const total = merged.slice(0, returned).reduce((sum, count) => sum + count, 0);
    expect(total).toBeLessThanOrEqual(20);
    expect(total + merged[returned]!).toBeGreaterThan(20);
    expect(answer.chainBlockAcceptedTransactions).toHaveLength(returned);
    const v1 = await devnet.client.call('getVirtualChainFromBlock', { startHash, includeAcceptedTransactionIds: true });
    expect(v1.addedChainBlockHashes).toEqual(answer.addedChainBlockHashes);
  });
});

describe('compressParents', () => {
  it('runs identical levels together with cumulative counts, as CompressedParents does', () => {
    const [a, b, c] = [1, 2, 3].map((byte) => new Uint8Array(32).fill(byte));
    const hex = (hash: Uint8Array) => bytesToHex(hash);
    expect(compressParents([[a!, b!], [a!, b!], [a!, b!], [c!], [c!]])).toEqual([
      [3, [hex(a!), hex(b!)]],
      [5, [hex(c!)]],
    ]);
    expect(compressParents([[a!], [b!], [a!]])).toEqual([
      [1, [hex(a!)]],
      [2, [hex(b!)]],
      [3, [hex(a!)]],
    ]);
    expect(compressParents([])).toEqual([]);
  });
});

describe('optionalTransactionToRpc', () => {
  it('fails from Low up on a script without an address, as kaspad’s converter does, and writes it at None', () => {
    const tx: Transaction = {
      version: 0,
      inputs: [],
      outputs: [{ value: 5n, scriptPublicKey: { version: 0, script: Uint8Array.of(0x6a) } }],
      lockTime: 0n,
      subnetworkId: SUBNETWORK_ID_NATIVE,
      gas: 0n,
      payload: new Uint8Array(0),
      storageMass: 0n,
    };
    const populated = { tx, entries: [], block: { hash: new Uint8Array(32), timestamp: 7n } };
    expect(optionalTransactionToRpc(populated, 'kaspadev', 'None').outputs).toEqual([
      { value: null, scriptPublicKey: null, verboseData: { scriptPublicKeyType: null, scriptPublicKeyAddress: null }, covenant: null },
    ]);
    for (const level of ['Low', 'High', 'Full'] as const) {
      expect(() => optionalTransactionToRpc(populated, 'kaspadev', level)).toThrow('The address is invalid');
    }
  });
});
