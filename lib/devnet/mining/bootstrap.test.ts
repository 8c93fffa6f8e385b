import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { payToPublicKeyScript } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';
import { EMPTY_MUHASH, MuHash } from '../../kaspa/muhash';
import { schnorrPublicKey } from '../../kaspa/signing';
import type { Transaction } from '../../kaspa/types';
import { transactionToRpc } from '../../rpc/convert-transaction';
import { blockFromRpc, blockToRpcSubmission } from '../../rpc/convert-block';
import {
  BOOTSTRAP_OUTPUT_AMOUNT,
  BOOTSTRAP_OUTPUTS_PER_WALLET,
  bootstrapOutputsFor,
  bootstrapTransaction,
  createDevnetBootstrap,
} from './bootstrap';
import { createConsensus } from '../consensus/consensus';
import { createDevnetGenesis } from '../consensus/genesis';
import { createDevnetNode, type DevnetNode, type DevnetNodeOptions } from '../node';
import { CRESCENDO_PARAMS } from '../consensus/params';
import { deriveWalletPrivateKey } from '../traffic/wallet';
import { EASY_BITS, GENESIS_TIMESTAMP, MINER, solve, spend, testKey, type TestKey } from '../test-support/devnet-harness';
import { settle } from '../test-support/wire-devnet';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ALICE = testKey(7);
const BOB = testKey(8);
/** Kaspa's maturity: a spend of a mined reward would wait 1000 DAA; a bootstrap output waits none. */
const KASPA_MATURITY = { ...CRESCENDO_PARAMS, coinbaseMaturity: 1000 };

function bootstrapConsensus(now: { ms: bigint }) {
  const bootstrap = createDevnetBootstrap(bootstrapOutputsFor([ALICE.scriptPublicKey, BOB.scriptPublicKey]));
  const genesis = createDevnetGenesis({ timestamp: now.ms, bits: EASY_BITS, utxoCommitment: bootstrap.utxoCommitment });
  const consensus = createConsensus({
    params: KASPA_MATURITY,
    genesis,
    clock: () => Number(now.ms),
    random: () => 0,
    genesisUtxoSet: bootstrap.utxos,
  });
  const mine = (transactions: Transaction[] = []) => {
    const block = solve(consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey, transactions }).block);
    const result = consensus.validateAndInsertBlock(block, { allowNonDaaBlocks: false });
    if (result.type !== 'success') throw new Error(`mined block rejected: ${result.message}`);
    now.ms += BigInt(KASPA_MATURITY.targetTimePerBlock);
    return block;
  };
  return { bootstrap, genesis, consensus, mine };
}

describe('devnet bootstrap UTXO set', () => {
  it('commits ordinary outputs at DAA score 0 whose MuHash is the genesis utxoCommitment', () => {
    const outputs = bootstrapOutputsFor([ALICE.scriptPublicKey, BOB.scriptPublicKey]);
    const bootstrap = createDevnetBootstrap(outputs);
    expect(bootstrap.utxos).toHaveLength(2 * BOOTSTRAP_OUTPUTS_PER_WALLET);
    expect(bootstrap.totalSompi).toBe(2n * BigInt(BOOTSTRAP_OUTPUTS_PER_WALLET) * BOOTSTRAP_OUTPUT_AMOUNT);
    for (const { outpoint, entry } of bootstrap.utxos) {
      expect(entry).toMatchObject({ isCoinbase: false, blockDaaScore: 0n, amount: BOOTSTRAP_OUTPUT_AMOUNT });
      expect(outpoint.transactionId).toEqual(bootstrap.transactionId);
    }
    const oneByOne = new MuHash();
    for (const { outpoint, entry } of [...bootstrap.utxos].reverse()) oneByOne.addUtxo(outpoint, entry);
    expect(bytesToHex(bootstrap.utxoCommitment)).toBe(bytesToHex(oneByOne.finalize()));
    expect(bytesToHex(bootstrap.utxoCommitment)).not.toBe(bytesToHex(EMPTY_MUHASH));
    expect(bootstrapTransaction(outputs).inputs).toHaveLength(0);
    expect(createDevnetBootstrap([]).utxoCommitment).toEqual(EMPTY_MUHASH);
  });

  it('changes the genesis hash only through the utxoCommitment it commits', () => {
    const plain = createDevnetGenesis({ timestamp: GENESIS_TIMESTAMP, bits: EASY_BITS });
    const bootstrap = createDevnetBootstrap(bootstrapOutputsFor([ALICE.scriptPublicKey]));
    const funded = createDevnetGenesis({ timestamp: GENESIS_TIMESTAMP, bits: EASY_BITS, utxoCommitment: bootstrap.utxoCommitment });
    expect(funded.header).toEqual({ ...plain.header, utxoCommitment: bootstrap.utxoCommitment });
    expect(bytesToHex(funded.hash)).not.toBe(bytesToHex(plain.hash));
  });

  it('refuses a genesis UTXO set that differs from the header commitment', () => {
    const bootstrap = createDevnetBootstrap(bootstrapOutputsFor([ALICE.scriptPublicKey]));
    const genesis = createDevnetGenesis({ timestamp: GENESIS_TIMESTAMP, bits: EASY_BITS, utxoCommitment: bootstrap.utxoCommitment });
    const options = { params: KASPA_MATURITY, genesis, clock: () => Number(GENESIS_TIMESTAMP) };
    expect(() => createConsensus({ ...options, genesisUtxoSet: bootstrap.utxos.slice(1) })).toThrow(/does not match the genesis header's utxoCommitment/);
    expect(() => createConsensus(options)).toThrow(/does not match/);
  });
});

describe('consensus on a bootstrapped genesis', () => {
  it('accepts spends of bootstrap outputs in the first block while mined rewards still wait the coinbase maturity', () => {
    const now = { ms: GENESIS_TIMESTAMP };
    const { bootstrap, consensus, mine } = bootstrapConsensus(now);
    expect(consensus.coinSupply().circulatingSompi).toBe(bootstrap.totalSompi);
    expect(consensus.getUtxosByScriptPublicKey(ALICE.scriptPublicKey)).toHaveLength(BOOTSTRAP_OUTPUTS_PER_WALLET);

    const aliceUtxo = consensus.getUtxosByScriptPublicKey(ALICE.scriptPublicKey)[0]!;
    const payment = spend(aliceUtxo, ALICE, BOB.scriptPublicKey);
    mine([payment]);
    const carrier = mine();
    expect(consensus.getUtxo(aliceUtxo.outpoint)).toBeUndefined();
    expect(consensus.getUtxosByScriptPublicKey(BOB.scriptPublicKey)).toHaveLength(BOOTSTRAP_OUTPUTS_PER_WALLET + 1);
    expect(bytesToHex(consensus.getBlock(consensus.sink())!.header.utxoCommitment)).toBe(bytesToHex(carrier.header.utxoCommitment));

    const [reward] = consensus.getUtxosByScriptPublicKey(MINER.scriptPublicKey);
    expect(reward?.entry.isCoinbase).toBe(true);
    const early = consensus.buildBlockTemplate({
      payScriptPublicKey: MINER.scriptPublicKey,
      transactions: [spend(reward!, MINER, ALICE.scriptPublicKey)],
    });
    expect(early.block.transactions).toHaveLength(1);
  });
});

function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dagboard-bootstrap-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function walletKey(seed: string, index: number): TestKey {
  const privateKey = deriveWalletPrivateKey(seed, index);
  return { privateKey, scriptPublicKey: payToPublicKeyScript(schnorrPublicKey(privateKey)) };
}

async function mineInProcess(node: DevnetNode, clock: { now: number }): Promise<void> {
  const { block } = await node.rpc.call('getBlockTemplate', { payAddress: node.wallets.wallets[0]!.address, extraData: [] });
  const { report } = await node.rpc.call('submitBlock', { block: blockToRpcSubmission(solve(blockFromRpc(block))), allowNonDaaBlocks: false });
  if (report.type !== 'success') throw new Error(`block rejected: ${JSON.stringify(report)}`);
  await settle();
  clock.now += 100;
}

describe('a persisted bootstrapped devnet', () => {
  const seed = 'bootstrap-persist';
  const options = (dir: string, clock: { now: number }, overrides: Partial<DevnetNodeOptions> = {}): DevnetNodeOptions => ({
    seed,
    miners: 0,
    hashesPerSecond: 20,
    persistence: { dir },
    clock: () => clock.now,
    params: { coinbaseMaturity: 1000 },
    partitions: null,
    ...overrides,
  });

  it('restarts to the same genesis and UTXO set, its bootstrap spends included', async () => {
    const dir = temporaryDir();
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const first = createDevnetNode(options(dir, clock));
    const wallet = walletKey(seed, 0);
    const [funding] = first.consensus.getUtxosByScriptPublicKey(wallet.scriptPublicKey);
    expect(funding?.entry.isCoinbase).toBe(false);
    const payment = spend(funding!, wallet, BOB.scriptPublicKey);
    await first.rpc.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
    await mineInProcess(first, clock);
    await mineInProcess(first, clock);
    expect(first.consensus.getUtxosByScriptPublicKey(BOB.scriptPublicKey)).toHaveLength(1);
    const before = {
      genesis: bytesToHex(first.genesisHash),
      commitment: bytesToHex(first.consensus.virtualUtxoCommitment()),
      supply: first.consensus.coinSupply().circulatingSompi,
    };
    await first.stop();

    const second = createDevnetNode(options(dir, clock, { bootstrap: false }));
    cleanups.push(() => second.stop());
    expect({
      genesis: bytesToHex(second.genesisHash),
      commitment: bytesToHex(second.consensus.virtualUtxoCommitment()),
      supply: second.consensus.coinSupply().circulatingSompi,
    }).toEqual(before);
    expect(second.consensus.getUtxosByScriptPublicKey(BOB.scriptPublicKey)).toHaveLength(1);
  });

  it('replays a chain recorded before the bootstrap existed with an empty genesis UTXO set', async () => {
    const dir = temporaryDir();
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const old = createDevnetNode(options(dir, clock, { bootstrap: false }));
    await mineInProcess(old, clock);
    const genesis = bytesToHex(old.genesisHash);
    await old.stop();
    const recordPath = join(dir, 'genesis.json');
    const record = readFileSync(recordPath, 'utf8');
    expect(record).toContain('"bootstrap":[]');
    writeFileSync(recordPath, record.replace(',"bootstrap":[]', ''));

    const events: string[] = [];
    const restarted = createDevnetNode(options(dir, clock, { onEvent: (event) => events.push(event.type) }));
    cleanups.push(() => restarted.stop());
    expect(bytesToHex(restarted.genesisHash)).toBe(genesis);
    expect(events).toEqual(['replayed']);
    expect(restarted.consensus.getUtxosByScriptPublicKey(walletKey(seed, 0).scriptPublicKey).every(({ entry }) => entry.isCoinbase)).toBe(true);
  });
});
