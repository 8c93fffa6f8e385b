import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTransactions, migrate, type Db } from '../db';
import { hashOf, payToAddressOutput, syntheticTransaction } from '../db/test-support/fixtures';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { bytesToHex } from '../kaspa/bytes';
import { computeMass } from '../kaspa/mass';
import { RpcRejectedError } from '../rpc/errors';
import { readSubmitTx, submitTxToTransaction } from './submit-model';
import { harness } from './test-support/rest-harness';

const funding = syntheticTransaction('funding', 40_000n, [], [payToAddressOutput('alice', 5000n), payToAddressOutput('bob', 7000n)]);
const fundingId = bytesToHex(funding.transactionId);
const script = bytesToHex(payToAddressOutput('carol', 1n).scriptPublicKey.script);

/** kaspa-rest-server's SubmitTxModel spending funding's first output (5,000 sompi) into one of `amount`. */
function spendModel(amount: number) {
  return {
    version: 0,
    inputs: [{ previousOutpoint: { transactionId: fundingId, index: 0 }, signatureScript: `41${'ab'.repeat(65)}`, sequence: 0, sigOpCount: 1 }],
    outputs: [{ amount, scriptPublicKey: { version: 0, scriptPublicKey: script } }],
    lockTime: 0,
    subnetworkId: '0000000000000000000000000000000000000000',
  };
}

describe.each(testBackends())('kaspa-rest node routes on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    await db.transaction((tx) => insertTransactions(tx, [funding]));
  }, 180_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('POST /transactions hands the model to the node in its submission form and answers its id', async () => {
    const asked: { method: string; request: unknown }[] = [];
    const { request } = await harness(db, undefined, {
      submitTransaction: (body) => (asked.push({ method: 'submitTransaction', request: body }), { transactionId: 'ab'.repeat(32) }),
      submitTransactionReplacement: (body) => (
        asked.push({ method: 'submitTransactionReplacement', request: body }),
        { transactionId: 'cd'.repeat(32), replacedTransaction: null as never }
      ),
    });
    const submitted = await request('/transactions', { body: { transaction: spendModel(4000), allowOrphan: true } });
    expect(submitted).toMatchObject({ status: 200, body: { transactionId: 'ab'.repeat(32) } });
    expect(submitted.headers.get('cache-control')).toBe('no-store');
    expect(asked[0]).toEqual({
      method: 'submitTransaction',
      request: {
        allowOrphan: true,
        transaction: {
          version: 0,
          inputs: [{ previousOutpoint: { transactionId: fundingId, index: 0 }, signatureScript: `41${'ab'.repeat(65)}`, sequence: 0n, sigOpCount: 1 }],
          outputs: [{ value: 4000n, scriptPublicKey: { version: 0, script } }],
          lockTime: 0n,
          subnetworkId: '0000000000000000000000000000000000000000',
          gas: 0n,
          payload: '',
          storageMass: 0n,
        },
      },
    });
    const replaced = await request('/transactions?replaceByFee=true', { body: { transaction: spendModel(3000) } });
    expect(replaced).toMatchObject({ status: 200, body: { transactionId: 'cd'.repeat(32) } });
    expect(asked[1]?.method).toBe('submitTransactionReplacement');
  });

  it("a refusal is kaspa-rest-server's 400 {error}; a malformed model is a 422 naming each field", async () => {
    const reason = 'Rejected transaction ab: transaction input #0 is already spent';
    const { request } = await harness(db, undefined, {
      submitTransaction: () => {
        throw new RpcRejectedError('submitTransaction', reason);
      },
    });
    expect(await request('/transactions', { body: { transaction: spendModel(4000) } })).toMatchObject({ status: 400, body: { error: reason } });
    const malformed = await request('/transactions', {
      body: { transaction: { ...spendModel(4000), inputs: [{ previousOutpoint: { transactionId: 'zz', index: -1 }, sequence: 'x', sigOpCount: 1 }] } },
    });
    expect(malformed.status).toBe(422);
    expect((malformed.body as { detail: { loc: unknown[]; type: string }[] }).detail.map((item) => [item.loc.join('.'), item.type])).toEqual([
      ['body.transaction.inputs.0.previousOutpoint.transactionId', 'value_error.hex'],
      ['body.transaction.inputs.0.previousOutpoint.index', 'value_error.number.not_in_range'],
      ['body.transaction.inputs.0.signatureScript', 'value_error.missing'],
      ['body.transaction.inputs.0.sequence', 'type_error.integer'],
    ]);
    expect(await request('/transactions', { body: {} })).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'transaction'], type: 'value_error.missing' }] } });
    expect(await request('/transactions?replace=true', { body: { transaction: spendModel(4000) } })).toMatchObject({ status: 422 });
  });

  it('POST /transactions/mass: storage mass from the indexed amount spent (KIP-9), compute mass of the model', async () => {
    const { request } = await harness(db);
    const reply = await request('/transactions/mass', { body: spendModel(4000) });
    // C = 10^12: C/4,000 out − 1 × C/5,000 in.
    const storage = 250_000_000 - 200_000_000;
    const compute = Number(computeMass(submitTxToTransaction(readSubmitTx(spendModel(4000), ['body']))));
    expect(reply).toMatchObject({ status: 200, body: { mass: Math.max(storage, compute), storage_mass: storage, compute_mass: compute } });
    expect((reply.body as { transient_mass: number }).transient_mass).toBeGreaterThan(0);
    const unknown = { ...spendModel(4000), inputs: [{ ...spendModel(4000).inputs[0]!, previousOutpoint: { transactionId: bytesToHex(hashOf('none')), index: 0 } }] };
    expect(await request('/transactions/mass', { body: unknown })).toMatchObject({ status: 404, body: { detail: 'Previous outpoint(s) not found in database.' } });
    const pastLast = { ...spendModel(4000), inputs: [{ ...spendModel(4000).inputs[0]!, previousOutpoint: { transactionId: fundingId, index: 2 } }] };
    expect(await request('/transactions/mass', { body: pastLast })).toMatchObject({ status: 404 });
    const coinbase = { ...spendModel(4000), subnetworkId: '0100000000000000000000000000000000000000' };
    expect((await request('/transactions/mass', { body: coinbase })).body).toEqual({ mass: 0, storage_mass: 0, compute_mass: 0, transient_mass: 0 });
    expect(await request('/transactions/mass', { body: { ...spendModel(4000), outputs: 'none' } })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'outputs'], type: 'type_error.list' }] },
    });
  });

  it("GET /info/get-vscp-from-block: the node's chain from the block; an unknown block 400, a malformed one 422", async () => {
    const start = 'aa'.repeat(32);
    const asked: unknown[] = [];
    const { request } = await harness(db, undefined, {
      getVirtualChainFromBlock: (body) => {
        asked.push(body);
        if ((body as { startHash: string }).startHash !== start) throw new RpcRejectedError('getVirtualChainFromBlock', 'cannot find header bb');
        return {
          removedChainBlockHashes: [],
          addedChainBlockHashes: ['cc'.repeat(32)],
          acceptedTransactionIds: [{ acceptingBlockHash: 'cc'.repeat(32), acceptedTransactionIds: ['dd'.repeat(32)] }],
        };
      },
    });
    expect(await request(`/info/get-vscp-from-block?startHash=${start}`)).toMatchObject({
      status: 200,
      body: {
        removedChainBlockHashes: [],
        addedChainBlockHashes: ['cc'.repeat(32)],
        acceptedTransactionIds: [{ acceptingBlockHash: 'cc'.repeat(32), acceptedTransactionIds: ['dd'.repeat(32)] }],
      },
    });
    await request(`/info/get-vscp-from-block?startHash=${start}&includeAcceptedTransactionIds=false`);
    expect(asked).toEqual([
      { startHash: start, includeAcceptedTransactionIds: true },
      { startHash: start, includeAcceptedTransactionIds: false },
    ]);
    expect(await request(`/info/get-vscp-from-block?startHash=${'bb'.repeat(32)}`)).toMatchObject({ status: 400, body: { detail: 'cannot find header bb' } });
    expect(await request('/info/get-vscp-from-block?startHash=xyz')).toMatchObject({ status: 422, body: { detail: [{ loc: ['query', 'startHash'] }] } });
    expect(await request('/info/get-vscp-from-block')).toMatchObject({ status: 422, body: { detail: [{ loc: ['query', 'startHash'], type: 'value_error.missing' }] } });
  });
});
