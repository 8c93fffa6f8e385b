import { describe, expect, it } from 'vitest';
import type { NodeBlock, NodeTransaction } from '../api/endpoints/node-format';
import { payToPublicKeyScript, schnorrAddressFromPublicKey } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { encodeCoinbasePayload } from '../kaspa/coinbase';
import { blockMiner } from './block-miner';

const minerKey = new Uint8Array(32).fill(7);
const otherKey = new Uint8Array(32).fill(8);

function coinbase(payload: Uint8Array, outputs: { value: string; key: Uint8Array }[]): NodeTransaction {
  return {
    version: 1,
    inputs: [],
    outputs: outputs.map(({ value, key }) => ({
      value,
      scriptPublicKey: `0000${bytesToHex(payToPublicKeyScript(key).script)}`,
      verboseData: { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: schnorrAddressFromPublicKey(key, 'kaspadev') },
    })),
    lockTime: '0',
    subnetworkId: '0100000000000000000000000000000000000000',
    gas: '0',
    payload: `0x${bytesToHex(payload)}`,
  } as unknown as NodeTransaction;
}

const block = (transactions: NodeTransaction[]) => ({ transactions }) as unknown as NodeBlock;

describe('blockMiner', () => {
  const payload = encodeCoinbasePayload({
    blueScore: 1234n,
    subsidy: 4_400_000_000n,
    scriptPublicKey: payToPublicKeyScript(minerKey),
    extraData: new TextEncoder().encode('dagboard-devnet/2.0.1'),
  });

  it("names the block's own miner from the payload, not the merged blocks' miners the outputs pay", () => {
    const miner = blockMiner(block([coinbase(payload, [{ value: '4400000100', key: otherKey }, { value: '4400000000', key: otherKey }])]));
    expect(miner).toEqual({
      address: schnorrAddressFromPublicKey(minerKey, 'kaspadev'),
      subsidy: 4_400_000_000n,
      extraData: 'dagboard-devnet/2.0.1',
      coinbasePays: 8_800_000_100n,
    });
  });

  it('shows binary extra data as hex, and no address where no output tells the network', () => {
    const binary = encodeCoinbasePayload({ blueScore: 1n, subsidy: 1n, scriptPublicKey: payToPublicKeyScript(minerKey), extraData: new Uint8Array([0, 255]) });
    expect(blockMiner(block([coinbase(binary, [])]))).toEqual({ address: null, subsidy: 1n, extraData: '00ff', coinbasePays: 0n });
  });

  it('answers null without a coinbase or with a malformed payload', () => {
    expect(blockMiner(block([]))).toBeNull();
    expect(blockMiner(block([{ ...coinbase(payload, []), subnetworkId: '00'.repeat(20) }]))).toBeNull();
    expect(blockMiner(block([{ ...coinbase(payload, []), payload: '0x0102' }]))).toBeNull();
  });
});
