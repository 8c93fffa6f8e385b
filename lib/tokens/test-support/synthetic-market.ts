/**
 * Synthetic KRC-20 market history for the explain test and bench/tokens.ts: one token deployed and minted to a set of
 * parties, then `fills` list + send (fill) pairs spread evenly over `spanMs`, as real reveal transactions the engine
 * parses. Each fill is two ops (the list, then the send that fills it).
 */
import { bytesToHex } from '../../kaspa/bytes';
import { blake2b256 } from '../../kaspa/hashing';
import { transactionId } from '../../kaspa/transaction';
import type { AcceptedBlock, AcceptedTransaction } from '../engine';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR } from '../operations';
import { KAS, listingAddress, reveal, schnorrParty, sendInput, transaction, type Party } from './transactions';

export interface SyntheticMarketOptions {
  tick: string;
  parties: number;
  fills: number;
  fillsPerBlock: number;
  /** DAA score of the deploy's chain block; later blocks step by 10. */
  startDaaScore: bigint;
  /** Time of the deploy block, ms; the fills end at startMs + spanMs. */
  startMs: number;
  spanMs: number;
}

function op(signer: Party, fields: Record<string, string>, fee = 0n, outputs?: { address: string; value: bigint }[]) {
  const total = (outputs ?? [{ address: signer.address, value: KAS }]).reduce((sum, output) => sum + output.value, 0n);
  return reveal({ signer, op: { p: 'krc-20', ...fields }, inputAmount: total + fee, outputs });
}

const withId = (accepted: AcceptedTransaction): AcceptedTransaction => ({
  ...accepted,
  txId: bytesToHex(transactionId(accepted.transaction)),
});

export function* syntheticMarketBlocks(options: SyntheticMarketOptions): Generator<AcceptedBlock> {
  const { tick, fills, fillsPerBlock } = options;
  const lower = tick.toLowerCase();
  const parties = Array.from({ length: options.parties }, (_, index) => schnorrParty(100 + index));
  const blockCount = Math.ceil(fills / fillsPerBlock);
  let daaScore = options.startDaaScore;
  const block = (index: number, transactions: AcceptedTransaction[]): AcceptedBlock => {
    const block: AcceptedBlock = {
      hash: bytesToHex(blake2b256(new TextEncoder().encode(`synthetic ${tick} ${daaScore}`))),
      daaScore,
      timestamp: options.startMs + Math.floor((options.spanMs * index) / (blockCount + 1)),
      transactions,
    };
    daaScore += 10n;
    return block;
  };
  yield block(0, [
    withId(op(parties[0]!, { op: 'deploy', tick: lower, max: '1000000000000000000000000000', lim: '100000000000000000000', dec: '8' }, DEPLOY_FEE_FLOOR + KAS)),
    ...parties.map((party) => withId(op(party, { op: 'mint', tick: lower }, MINT_FEE_FLOOR + KAS))),
  ]);
  let made = 0;
  for (let index = 1; index <= blockCount; index++) {
    const transactions: AcceptedTransaction[] = [];
    for (let slot = 0; slot < fillsPerBlock && made < fills; slot++, made++) {
      const seller = parties[made % parties.length]!;
      const buyer = parties[(made + 1) % parties.length]!;
      const list = withId(
        op(seller, { op: 'list', tick: lower, amt: String(100_000_000 + (made % 97) * 1_000_000) }, 0n, [
          { address: listingAddress(seller, tick), value: KAS },
        ]),
      );
      const price = BigInt(5 + ((made * 7919) % 50)) * KAS;
      const fill = withId(
        transaction([sendInput(seller, tick, list.txId!)], [
          { address: seller.address, value: price },
          { address: buyer.address, value: KAS },
        ]),
      );
      transactions.push(list, fill);
    }
    yield block(index, transactions);
  }
}
