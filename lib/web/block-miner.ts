/**
 * A block's miner and subsidy, read from its coinbase payload (the blue score, the subsidy, the miner's script public
 * key and its extra data, as kaspad writes them). The coinbase's outputs pay the blocks the block merges, not the
 * block itself, so its own miner is known only from the payload. The address prefix is the network's, taken from an
 * output address of the block.
 */
import type { NodeBlock } from '../api/endpoints/node-format';
import { hexToBytes } from '../kaspa/bytes';
import { decodeCoinbasePayload } from '../kaspa/coinbase';
import { isAddressPrefix, scriptPublicKeyToAddress } from '../kaspa/address';

const COINBASE_SUBNETWORK = '0100000000000000000000000000000000000000';

export interface BlockMiner {
  /** Null when the script pays no standard address. */
  address: string | null;
  subsidy: bigint;
  /** The extra data as text where it is printable UTF-8 (a miner's or pool's tag), else as hex. */
  extraData: string;
  /** What the coinbase pays out: the merged blue blocks' subsidies and fees, to their miners. */
  coinbasePays: bigint;
}

function printable(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return /^[\p{L}\p{N}\p{P}\p{S} ]*$/u.test(text) && !text.includes('\uFFFD') ? text : Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function networkPrefix(block: NodeBlock): string | null {
  for (const transaction of block.transactions ?? []) {
    for (const output of transaction.outputs) {
      const address = output.verboseData?.scriptPublicKeyAddress;
      if (address !== undefined && address.includes(':')) return address.slice(0, address.indexOf(':'));
    }
  }
  return null;
}

export function blockMiner(block: NodeBlock): BlockMiner | null {
  const coinbase = block.transactions?.[0];
  if (coinbase === undefined || coinbase.subnetworkId !== COINBASE_SUBNETWORK) return null;
  let data;
  try {
    data = decodeCoinbasePayload(hexToBytes(coinbase.payload.replace(/^0x/, '')));
  } catch {
    return null;
  }
  const prefix = networkPrefix(block);
  return {
    address: prefix !== null && isAddressPrefix(prefix) ? scriptPublicKeyToAddress(data.scriptPublicKey, prefix) : null,
    subsidy: data.subsidy,
    extraData: printable(data.extraData),
    coinbasePays: coinbase.outputs.reduce((sum, output) => sum + BigInt(output.value), 0n),
  };
}
