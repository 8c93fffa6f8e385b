import { afterEach, describe, expect, it } from 'vitest';
import { decodeCoinbasePayload } from '../../kaspa/coinbase';
import { transactionFromRpc, transactionToRpc } from '../../rpc/convert-transaction';
import { idHex, spend } from '../test-support/devnet-harness';
import { MINER_KEY, startWireDevnet, TEST_COINBASE_MATURITY, wireKey, type WireDevnet } from '../test-support/wire-devnet';
import { TEMPLATE_CACHE_LIFETIME_MS } from '../server/rpc-handlers';

const OTHER = wireKey(5);
let devnet: WireDevnet | undefined;

afterEach(async () => {
  await devnet?.close();
  devnet = undefined;
});

describe('getBlockTemplate cache (kaspad mining/src/cache.rs)', () => {
  it('shares one template per virtual state for a second, swapping only the coinbase per miner', async () => {
    const net = (devnet = await startWireDevnet());
    for (let i = 0; i < TEST_COINBASE_MATURITY + 3; i++) await net.mine();
    const pov = net.node.consensus.virtualDaaScore();
    const utxo = net.node.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .find((change) => change.entry.blockDaaScore + BigInt(TEST_COINBASE_MATURITY) <= pov)!;
    const template = async (address: string) =>
      (await net.client.call('getBlockTemplate', { payAddress: address, extraData: [] })).block;

    const first = await template(MINER_KEY.address);
    const tx = spend(utxo, MINER_KEY, OTHER.scriptPublicKey);
    await net.client.call('submitTransaction', { transaction: transactionToRpc(tx), allowOrphan: false });
    net.advance(TEMPLATE_CACHE_LIFETIME_MS - 1);

    const second = await template(OTHER.address);
    expect(second.transactions.slice(1)).toEqual(first.transactions.slice(1));
    expect(second.transactions.map((rpc) => idHex(transactionFromRpc(rpc)))).not.toContain(idHex(tx));
    const payScript = (rpc: (typeof second.transactions)[number]) => decodeCoinbasePayload(transactionFromRpc(rpc).payload).scriptPublicKey;
    expect(payScript(first.transactions[0]!)).toEqual(MINER_KEY.scriptPublicKey);
    expect(payScript(second.transactions[0]!)).toEqual(OTHER.scriptPublicKey);
    expect(second.header.parentsByLevel).toEqual(first.header.parentsByLevel);
    expect(second.header.utxoCommitment).toBe(first.header.utxoCommitment);
    expect(second.header.hashMerkleRoot).not.toBe(first.header.hashMerkleRoot);
    expect(second.header.timestamp).toBe(first.header.timestamp + BigInt(TEMPLATE_CACHE_LIFETIME_MS - 1));
    expect(await net.submit(await net.template(OTHER.address))).toEqual({ type: 'success' });

    // The accepted block changed the virtual: the next template is built afresh and carries the new transaction.
    const rebuilt = await template(MINER_KEY.address);
    expect(rebuilt.header.parentsByLevel).not.toEqual(first.header.parentsByLevel);
    expect(rebuilt.transactions.map((rpc) => idHex(transactionFromRpc(rpc)))).toContain(idHex(tx));
  });

  it('expires after a second on an unchanged virtual', async () => {
    const net = (devnet = await startWireDevnet());
    for (let i = 0; i < TEST_COINBASE_MATURITY + 3; i++) await net.mine();
    const pov = net.node.consensus.virtualDaaScore();
    const utxo = net.node.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .find((change) => change.entry.blockDaaScore + BigInt(TEST_COINBASE_MATURITY) <= pov)!;
    const ids = async () =>
      (await net.client.call('getBlockTemplate', { payAddress: MINER_KEY.address, extraData: [] })).block.transactions.map((rpc) =>
        idHex(transactionFromRpc(rpc)),
      );

    await ids();
    const tx = spend(utxo, MINER_KEY, OTHER.scriptPublicKey);
    await net.client.call('submitTransaction', { transaction: transactionToRpc(tx), allowOrphan: false });
    expect(await ids()).not.toContain(idHex(tx));
    net.advance(TEMPLATE_CACHE_LIFETIME_MS);
    expect(await ids()).toContain(idHex(tx));
  });
});
