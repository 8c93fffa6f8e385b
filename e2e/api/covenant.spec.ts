import { expect, test, type APIRequestContext } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { payToPublicKeyScript, schnorrAddressFromPublicKey, scriptPublicKeyToAddress } from '../../lib/kaspa/address';
import { bytesToHex, hexToBytes } from '../../lib/kaspa/bytes';
import {
  buildCovenantContinuation,
  buildCovenantGenesis,
  counterTemplate,
  covenantScriptPublicKey,
  type CovenantUtxo,
} from '../../lib/kaspa/covenant-templates';
import { schnorrPublicKey } from '../../lib/kaspa/signing';
import { transactionId } from '../../lib/kaspa/transaction';
import type { Transaction } from '../../lib/kaspa/types';
import { transactionToRpc } from '../../lib/rpc/convert-transaction';
import { stringifyJson } from '../../lib/rpc/json';
import { COINBASE_MATURITY, FEE, spend, walletAddress, type Utxo } from '../devnet-wallet';
import { dagInfo, json, keyed, post } from './support';

type Json = Record<string, unknown>;

async function submit(request: APIRequestContext, tx: Transaction) {
  return request.post('/v1/rpc/submitTransaction', {
    headers: { ...keyed, 'content-type': 'application/json' },
    data: stringifyJson({ transaction: transactionToRpc(tx), allowOrphan: false }),
  });
}

async function utxosOf(request: APIRequestContext, address: string): Promise<(Utxo & { covenantId?: string | null })[]> {
  return (await json<{ entries: (Utxo & { covenantId?: string | null })[] }>(await post(request, '/v1/rpc/getUtxosByAddresses', { addresses: [address] })))
    .entries;
}

async function indexedTransaction(request: APIRequestContext, id: string): Promise<Json | undefined> {
  const response = await request.get(`/v1/transactions/${id}`, { headers: keyed });
  return response.status() === 200 ? (await json<{ transaction: Json }>(response)).transaction : undefined;
}

async function untilAccepted(request: APIRequestContext, id: string): Promise<Json> {
  await expect
    .poll(async () => (await indexedTransaction(request, id))?.isAccepted, { timeout: 60_000, intervals: [500] })
    .toBe(true);
  return (await indexedTransaction(request, id))!;
}

test.describe.configure({ mode: 'serial' });

test.describe('a KIP-20 covenant on the live devnet (Toccata from genesis)', () => {
  test('a key made here funds a counter covenant, whose genesis and two continuations go through POST /v1/rpc/submitTransaction and are accepted', async ({
    request,
  }) => {
    test.setTimeout(300_000);
    const ownerKey = randomBytes(32);
    const owner = schnorrPublicKey(ownerKey);
    const ownerAddress = schnorrAddressFromPublicKey(owner, 'kaspadev');

    // Fund the owner from the e2e wallet; the traffic generator spends that wallet too, so a few outputs are tried.
    const mature = async () => {
      const { virtualDaaScore } = await dagInfo(request);
      return (await utxosOf(request, walletAddress)).filter(
        (utxo) => BigInt(utxo.blockDaaScore) + COINBASE_MATURITY + 20n <= BigInt(virtualDaaScore),
      );
    };
    await expect.poll(async () => (await mature()).length, { timeout: 200_000, intervals: [2_000] }).toBeGreaterThan(3);
    let fundingId: string | undefined;
    for (const utxo of (await mature()).sort(() => Math.random() - 0.5).slice(0, 6)) {
      const payment = spend(utxo, FEE, payToPublicKeyScript(owner));
      if ((await submit(request, payment)).status() === 200) {
        fundingId = bytesToHex(transactionId(payment));
        break;
      }
    }
    expect(fundingId, 'a payment to the test key went through').toBeDefined();
    await expect.poll(async () => (await utxosOf(request, ownerAddress)).length, { timeout: 60_000 }).toBe(1);
    const [funding] = await utxosOf(request, ownerAddress);

    const template = counterTemplate(owner, { maxFee: FEE });
    const genesis = buildCovenantGenesis({
      template,
      funding: {
        outpoint: { transactionId: hexToBytes(funding!.outpoint.transactionId), index: funding!.outpoint.index },
        entry: {
          amount: BigInt(funding!.amount),
          scriptPublicKey: payToPublicKeyScript(owner),
          blockDaaScore: BigInt(funding!.blockDaaScore),
          isCoinbase: false,
        },
      },
      amount: 10n * 100_000_000n,
      fee: FEE,
      privateKey: ownerKey,
    });
    expect(genesis.tx.version).toBe(1);
    expect(genesis.tx.outputs[0]!.covenant).toBeDefined();
    const covenantId = bytesToHex(genesis.covenantId);

    let utxo: CovenantUtxo = genesis.utxo;
    const lineage = [genesis.tx];
    for (let step = 0; step < 2; step++) {
      const { tx, utxos } = buildCovenantContinuation({ template, utxo, fee: FEE, privateKey: ownerKey });
      lineage.push(tx);
      utxo = utxos[0]!;
    }

    for (const tx of lineage) {
      const id = bytesToHex(transactionId(tx));
      const response = await submit(request, tx);
      expect(response.status(), await response.text()).toBe(200);
      expect(await json(response)).toEqual({ transactionId: id });
      const indexed = await untilAccepted(request, id);
      // The node format of the block that holds it carries the Toccata fields.
      const { block } = await json<{ block: { transactions: Json[] } }>(
        await post(request, '/v1/rpc/getBlock', { hash: (indexed.blockHashes as string[])[0], includeTransactions: true }),
      );
      const read = block.transactions.find((candidate) => (candidate.verboseData as Json).transactionId === id)!;
      expect(read.version).toBe(1);
      expect((read.inputs as Json[])[0]!.computeBudget).toBe(tx.inputs[0]!.computeBudget);
      expect((read.outputs as Json[])[0]!.covenant).toEqual({ authorizingInput: 0, covenantId });
    }

    // The node's UTXO set holds the latest state only, bound to the covenant.
    const lastId = bytesToHex(transactionId(lineage.at(-1)!));
    const stateAddress = scriptPublicKeyToAddress(covenantScriptPublicKey(template, 2), 'kaspadev')!;
    expect(await utxosOf(request, stateAddress)).toEqual([
      expect.objectContaining({ outpoint: { transactionId: lastId, index: 0 }, covenantId, isCoinbase: false }),
    ]);
    expect(await utxosOf(request, scriptPublicKeyToAddress(covenantScriptPublicKey(template, 1), 'kaspadev')!)).toEqual([]);
  });
});
