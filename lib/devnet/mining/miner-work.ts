/**
 * The block template a simulated miner is hashing: its PoW input (pre-PoW hash, timestamp, bits) with the matrix
 * state, and the miner's position in the nonce space.
 *
 * Invariants: the nonce position only moves forward from a random start, so no nonce of a template is hashed twice
 * while the template is kept; the template's transactions are decoded only once a nonce solves it, since most
 * templates are superseded unsolved.
 */
import { equalBytes } from '../../kaspa/bytes';
import { PowState, type PowMatrixCache } from '../../kaspa/pow';
import type { Hash, Header, Transaction } from '../../kaspa/types';
import { transactionFromRpc } from '../../rpc/convert-transaction';
import type { RpcTransaction } from '../../rpc/types';
import type { Block } from '../consensus/genesis';

const U32 = 0x1_0000_0000;

export class MinerWork {
  private readonly pow: PowState;
  private nonceLow: number;
  private nonceHigh: number;
  private transactions: Transaction[] | undefined;

  constructor(
    readonly header: Header,
    readonly prePowHash: Hash,
    private readonly rpcTransactions: readonly RpcTransaction[],
    random: () => number,
    powMatrixCache: PowMatrixCache | undefined,
  ) {
    this.pow = new PowState({ prePowHash, timestamp: header.timestamp, bits: header.bits, matrixCache: powMatrixCache });
    this.nonceLow = Math.floor(random() * U32) >>> 0;
    this.nonceHigh = Math.floor(random() * U32) >>> 0;
  }

  /** True when a template with this header would be hashed exactly as this one: keep hashing, and the nonce position. */
  hasPowInput(header: Header, prePowHash: Hash): boolean {
    return equalBytes(this.prePowHash, prePowHash) && this.header.timestamp === header.timestamp;
  }

  /**
   * Hashes up to `count` nonces from the current position and returns how many it did, with the nonce that met the
   * target if one did (hashing stops there).
   */
  hash(count: number): { done: number; nonce?: bigint } {
    const pow = this.pow;
    let low = this.nonceLow;
    let high = this.nonceHigh;
    let done = 0;
    let nonce: bigint | undefined;
    while (done < count && nonce === undefined) {
      if (pow.checkPowWords(low, high)) nonce = (BigInt(high) << 32n) | BigInt(low);
      done++;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    this.nonceLow = low;
    this.nonceHigh = high;
    return nonce === undefined ? { done } : { done, nonce };
  }

  /** The solved block; the transactions are decoded on the first call. */
  block(nonce: bigint): Block {
    return { header: { ...this.header, nonce }, transactions: (this.transactions ??= this.rpcTransactions.map(transactionFromRpc)) };
  }
}
