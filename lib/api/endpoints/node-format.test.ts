import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transactionToRpcOutput } from '../../rpc/convert-block';
import { transactionFromRpc, transactionToRpc } from '../../rpc/convert-transaction';
import { bytesToHex } from '../../kaspa/bytes';
import { toccata } from '../../kaspa/test-support/toccata-vectors';
import { transactionFromVector } from '../../kaspa/test-support/vectors';
import { transactionId } from '../../kaspa/transaction';
import type { Transaction } from '../../kaspa/types';
import { parseJson, stringifyJson } from '../../rpc/json';
import { U64_FIELD_NAMES } from '../../rpc/protocol';
import type {
  GetBlockDagInfoResponse,
  GetBlockResponse,
  GetBlockTemplateResponse,
  GetFeeEstimateResponse,
  GetMempoolEntryResponse,
  GetUtxosByAddressesResponse,
} from '../../rpc/types';
import {
  blockToNode,
  dagInfoToNode,
  feeEstimateToNode,
  mempoolEntryToNode,
  SUBMISSION_BIGINT_KEYS,
  submissionBlockSchema,
  submissionBlockToRpc,
  submissionToRpc,
  submissionTransactionSchema,
  submitBlockReportToNode,
  transactionToNode,
  transactionToSubmission,
  utxoEntryToNode,
} from './node-format';

/** Parses kaspad's wire text exactly as lib/rpc's client does (u64 fields as bigint). */
function wire<T>(text: string): T {
  return parseJson(text, { bigintKeys: U64_FIELD_NAMES }) as T;
}

/** A submission body as the API's endpoint wrapper parses it. */
function submitted(text: string): unknown {
  return parseJson(text, { bigintKeys: SUBMISSION_BIGINT_KEYS });
}

const H = (digit: string) => digit.repeat(64);
const XONLY_SCRIPT = `20${'ab'.repeat(32)}ac`;
const ADDRESS = 'kaspadev:qz4tt2at4ttnx4ttk4dt62tnx4tp42vz0tnwjvtvf4wxqn95vr4uxlwzxvgy6';

const TX_JSON = `{
  "version": 0,
  "inputs": [{
    "previousOutpoint": {"transactionId": "${H('1')}", "index": 4294967295},
    "signatureScript": "41${'cd'.repeat(65)}",
    "sequence": 18446744073709551615,
    "sigOpCount": 1,
    "computeBudget": 0,
    "verboseData": null
  }],
  "outputs": [{
    "value": 18446744073709551614,
    "scriptPublicKey": "0000${XONLY_SCRIPT}",
    "verboseData": {"scriptPublicKeyType": "PubKey", "scriptPublicKeyAddress": "${ADDRESS}"},
    "covenant": null
  }, {
    "value": 1,
    "scriptPublicKey": "0000aa",
    "verboseData": null,
    "covenant": null
  }],
  "lockTime": 9007199254740993,
  "subnetworkId": "0000000000000000000000000000000000000000",
  "gas": 0,
  "payload": "",
  "storageMass": 2036,
  "mass": 2036,
  "verboseData": {
    "transactionId": "${H('2')}",
    "hash": "${H('3')}",
    "computeMass": 1653,
    "blockHash": "${H('4')}",
    "blockTime": 1763812800123
  }
}`;

const HEADER_JSON = `{
  "hash": "${H('4')}",
  "version": 1,
  "parentsByLevel": [["${H('5')}", "${H('6')}"], ["${H('5')}"]],
  "hashMerkleRoot": "${H('7')}",
  "acceptedIdMerkleRoot": "${H('8')}",
  "utxoCommitment": "${H('9')}",
  "timestamp": 1763812800123,
  "bits": 486722099,
  "nonce": 18446744073709551615,
  "daaScore": 123456789,
  "blueWork": "00000000000000000000000000000000000000000001e240",
  "blueScore": 123456000,
  "pruningPoint": "${H('a')}"
}`;

const BLOCK_RESPONSE = `{"block": {
  "header": ${HEADER_JSON},
  "transactions": [${TX_JSON}],
  "verboseData": {
    "hash": "${H('4')}",
    "difficulty": 1234.5,
    "selectedParentHash": "${H('5')}",
    "transactionIds": ["${H('2')}"],
    "isHeaderOnly": false,
    "blueScore": 123456000,
    "childrenHashes": ["${H('b')}"],
    "mergeSetBluesHashes": ["${H('5')}"],
    "mergeSetRedsHashes": ["${H('6')}"],
    "isChainBlock": true
  }
}}`;

describe('transactionToNode (read form, §2.2)', () => {
  const tx = transactionToNode(wire<GetBlockResponse>(BLOCK_RESPONSE).block.transactions[0]!);

  it('writes every u64 quantity as an exact decimal string and keeps integers as numbers', () => {
    expect(tx.version).toBe(0);
    expect(tx.lockTime).toBe('9007199254740993');
    expect(tx.gas).toBe('0');
    expect(tx.mass).toBe('2036');
    expect(tx.subnetworkId).toBe('0000000000000000000000000000000000000000');
    expect(tx.inputs).toEqual([
      {
        previousOutpoint: { transactionId: H('1'), index: 4294967295 },
        signatureScript: `41${'cd'.repeat(65)}`,
        sequence: '18446744073709551615',
        sigOpCount: 1,
      },
    ]);
  });

  it('writes outputs with string values, string script public keys and script classes as display names', () => {
    expect(tx.outputs[0]).toEqual({
      value: '18446744073709551614',
      scriptPublicKey: `0000${XONLY_SCRIPT}`,
      verboseData: { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: ADDRESS },
    });
    expect(tx.outputs[1]).toEqual({ value: '1', scriptPublicKey: '0000aa' });
    expect('verboseData' in tx.outputs[1]!).toBe(false);
  });

  it('writes the empty payload as 0x and the verbose data with string mass and time', () => {
    expect(tx.payload).toBe('0x');
    expect(tx.verboseData).toEqual({
      transactionId: H('2'),
      hash: H('3'),
      computeMass: '1653',
      blockHash: H('4'),
      blockTime: '1763812800123',
    });
  });

  it('emits the fields the specification lists, plus storageMass (= mass); a version 0 input has no compute budget', () => {
    expect(Object.keys(tx)).toEqual([
      'version',
      'inputs',
      'outputs',
      'lockTime',
      'subnetworkId',
      'gas',
      'payload',
      'mass',
      'storageMass',
      'verboseData',
    ]);
    expect(tx.storageMass).toBe(tx.mass);
    expect(Object.keys(tx.inputs[0]!)).toEqual(['previousOutpoint', 'signatureScript', 'sequence', 'sigOpCount']);
    expect(tx.outputs.every((output) => !('covenant' in output))).toBe(true);
  });

  it('prefixes a non-empty payload with 0x', () => {
    const raw = wire<GetBlockResponse>(BLOCK_RESPONSE).block.transactions[0]!;
    expect(transactionToNode({ ...raw, payload: 'beef' }).payload).toBe('0xbeef');
  });
});

describe('blockToNode (§2.3)', () => {
  const block = blockToNode(wire<GetBlockResponse>(BLOCK_RESPONSE).block);

  it('writes the header with the hash, decimal strings for u64 fields and integer bits', () => {
    expect(block.header).toEqual({
      hash: H('4'),
      version: 1,
      parentsByLevel: [[H('5'), H('6')], [H('5')]],
      hashMerkleRoot: H('7'),
      acceptedIdMerkleRoot: H('8'),
      utxoCommitment: H('9'),
      timestamp: '1763812800123',
      bits: 486722099,
      nonce: '18446744073709551615',
      daaScore: '123456789',
      blueWork: '00000000000000000000000000000000000000000001e240',
      blueScore: '123456000',
      pruningPoint: H('a'),
    });
  });

  it('writes verbose data with a number difficulty and an integer blue score', () => {
    expect(block.verboseData).toEqual({
      hash: H('4'),
      difficulty: 1234.5,
      selectedParentHash: H('5'),
      transactionIds: [H('2')],
      isHeaderOnly: false,
      blueScore: 123456000,
      childrenHashes: [H('b')],
      mergeSetBluesHashes: [H('5')],
      mergeSetRedsHashes: [H('6')],
      isChainBlock: true,
    });
    expect(typeof block.verboseData!.blueScore).toBe('number');
  });

  it('serialises to JSON with every string field quoted', () => {
    const text = stringifyJson(block);
    expect(text).toContain('"nonce":"18446744073709551615"');
    expect(text).toContain('"sequence":"18446744073709551615"');
    expect(text).toContain('"blueScore":123456000');
  });

  it('writes a template without header hash and transactions without verbose data', () => {
    const template = wire<GetBlockTemplateResponse>(`{"block": {
      "header": ${HEADER_JSON.replace(`"hash": "${H('4')}",`, '')},
      "transactions": [${TX_JSON.replace(/"verboseData": \{\s*"transactionId"[^}]*\}/, '"verboseData": null')}]
    }, "isSynced": true}`);
    const node = blockToNode(template.block);
    expect('hash' in node.header).toBe(false);
    expect(Object.keys(node)).toEqual(['header', 'transactions']);
    expect('verboseData' in node.transactions[0]!).toBe(false);
    expect(node.transactions[0]!.mass).toBe('2036');
  });
});

const UTXOS_RESPONSE = `{"entries": [{
  "address": "${ADDRESS}",
  "outpoint": {"transactionId": "${H('2')}", "index": 1},
  "utxoEntry": {"amount": 18446744073709551615, "scriptPublicKey": "0000${XONLY_SCRIPT}",
                "blockDaaScore": 77, "isCoinbase": true, "covenantId": null}
}]}`;

describe('the other node-format reads', () => {
  it('mempool entry (§2.5): decimal fee, node transaction, camelCase isOrphan', () => {
    const { mempoolEntry } = wire<GetMempoolEntryResponse>(
      `{"mempoolEntry": {"fee": 20360, "transaction": ${TX_JSON}, "is_orphan": true}}`,
    );
    const entry = mempoolEntryToNode(mempoolEntry);
    expect(Object.keys(entry)).toEqual(['fee', 'transaction', 'isOrphan']);
    expect(entry.fee).toBe('20360');
    expect(entry.isOrphan).toBe(true);
    expect(entry.transaction.mass).toBe('2036');
    expect(entry.transaction.verboseData?.computeMass).toBe('1653');
  });

  it('UTXO entry (§2.6): flattened, amount and DAA score as strings, script public key as an object', () => {
    const { entries } = wire<GetUtxosByAddressesResponse>(UTXOS_RESPONSE);
    expect(utxoEntryToNode(entries[0]!)).toEqual({
      address: ADDRESS,
      outpoint: { transactionId: H('2'), index: 1 },
      amount: '18446744073709551615',
      scriptPublicKey: { version: 0, script: XONLY_SCRIPT },
      blockDaaScore: '77',
      isCoinbase: true,
    });
  });

  it('fee estimate (§2.7): number feerates and seconds in the three bucket groups', () => {
    const { estimate } = wire<GetFeeEstimateResponse>(`{"estimate": {
      "priorityBucket": {"feerate": 1.5, "estimatedSeconds": 0.004},
      "normalBuckets": [{"feerate": 1, "estimatedSeconds": 0.1}],
      "lowBuckets": [{"feerate": 1, "estimatedSeconds": 3600}, {"feerate": 1, "estimatedSeconds": 7200}]
    }}`);
    expect(feeEstimateToNode(estimate)).toEqual({
      priorityBucket: { feerate: 1.5, estimatedSeconds: 0.004 },
      normalBuckets: [{ feerate: 1, estimatedSeconds: 0.1 }],
      lowBuckets: [
        { feerate: 1, estimatedSeconds: 3600 },
        { feerate: 1, estimatedSeconds: 7200 },
      ],
    });
  });

  it('DAG information (§2.8): every field, u64 counts and times as strings', () => {
    const info = wire<GetBlockDagInfoResponse>(`{
      "network": "devnet", "blockCount": 9007199254740993, "headerCount": 12, "tipHashes": ["${H('b')}"],
      "difficulty": 2.25, "pastMedianTime": 1763812800000, "virtualParentHashes": ["${H('b')}", "${H('c')}"],
      "pruningPointHash": "${H('a')}", "virtualDaaScore": 99, "sink": "${H('b')}"
    }`);
    expect(dagInfoToNode(info)).toEqual({
      network: 'devnet',
      blockCount: '9007199254740993',
      headerCount: '12',
      tipHashes: [H('b')],
      difficulty: 2.25,
      pastMedianTime: '1763812800000',
      virtualParentHashes: [H('b'), H('c')],
      pruningPointHash: H('a'),
      virtualDaaScore: '99',
      sink: H('b'),
    });
  });

  it('submit block report (§2.11): type and reason are always strings', () => {
    expect(submitBlockReportToNode({ type: 'success' })).toEqual({ type: 'success', reason: 'none' });
    expect(submitBlockReportToNode({ type: 'reject', reason: 'blockInvalid' })).toEqual({
      type: 'reject',
      reason: 'blockInvalid',
    });
  });
});

const SUBMISSION_JSON = `{
  "version": 0,
  "inputs": [{
    "previousOutpoint": {"transactionId": "${H('1')}", "index": 0},
    "signatureScript": "41${'cd'.repeat(65)}",
    "sequence": 18446744073709551615,
    "sigOpCount": 1
  }],
  "outputs": [{"value": "18446744073709551614", "scriptPublicKey": {"version": 0, "script": "${XONLY_SCRIPT}"}}],
  "lockTime": 9007199254740993,
  "subnetworkId": "0000000000000000000000000000000000000000",
  "gas": "0",
  "payload": ""
}`;

describe('submission form (§2.2)', () => {
  it('accepts the form exactly as the specification writes it and yields kaspad input form', () => {
    const parsed = submissionTransactionSchema.parse(submitted(SUBMISSION_JSON));
    expect(submissionToRpc(parsed)).toEqual({
      version: 0,
      inputs: [
        {
          previousOutpoint: { transactionId: H('1'), index: 0 },
          signatureScript: `41${'cd'.repeat(65)}`,
          sequence: 18446744073709551615n,
          sigOpCount: 1,
        },
      ],
      outputs: [{ value: 18446744073709551614n, scriptPublicKey: { version: 0, script: XONLY_SCRIPT } }],
      lockTime: 9007199254740993n,
      subnetworkId: '0000000000000000000000000000000000000000',
      gas: 0n,
      payload: '',
      storageMass: 0n,
    });
  });

  it('keeps a given mass as the storage mass (template transactions must keep theirs)', () => {
    const body = submitted(SUBMISSION_JSON.replace('"payload": ""', '"payload": "", "mass": "2036"'));
    expect(submissionToRpc(submissionTransactionSchema.parse(body)).storageMass).toBe(2036n);
  });

  it.each([
    ['a negative sequence', (text: string) => text.replace('"sequence": 18446744073709551615', '"sequence": -1')],
    ['a sequence above u64', (text: string) => text.replace('"sequence": 18446744073709551615', '"sequence": 18446744073709551616')],
    ['a fractional value', (text: string) => text.replace('"18446744073709551614"', '"1.5"')],
    ['odd-length payload hex', (text: string) => text.replace('"payload": ""', '"payload": "abc"')],
    ['a short subnetwork id', (text: string) => text.replace('"0000000000000000000000000000000000000000"', '"00"')],
    ['a missing lockTime', (text: string) => text.replace('"lockTime": 9007199254740993,', '')],
    ['a sigOpCount above u8', (text: string) => text.replace('"sigOpCount": 1', '"sigOpCount": 256')],
  ])('refuses %s', (_label, mutate) => {
    expect(submissionTransactionSchema.safeParse(submitted(mutate(SUBMISSION_JSON))).success).toBe(false);
  });

  it('matches lib/devnet’s submission form for any transaction, through the read and submission forms', () => {
    const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
    const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    const transaction = fc.record({
      version: fc.constant(0),
      inputs: fc.array(
        fc.record({
          previousOutpoint: fc.record({ transactionId: hash, index: fc.nat({ max: 0xffffffff }) }),
          signatureScript: fc.uint8Array({ maxLength: 70 }),
          sequence: u64,
          sigOpCount: fc.nat({ max: 255 }),
        }),
        { maxLength: 3 },
      ),
      outputs: fc.array(
        fc.record({
          value: u64,
          scriptPublicKey: fc.record({ version: fc.nat({ max: 0xffff }), script: fc.uint8Array({ maxLength: 40 }) }),
        }),
        { maxLength: 3 },
      ),
      lockTime: u64,
      subnetworkId: fc.uint8Array({ minLength: 20, maxLength: 20 }),
      gas: u64,
      payload: fc.uint8Array({ maxLength: 40 }),
      storageMass: u64,
    }) as fc.Arbitrary<Transaction>;
    fc.assert(
      fc.property(transaction, (tx) => {
        const submission = transactionToSubmission(transactionToRpcOutput(tx));
        const reparsed = submissionTransactionSchema.parse(submitted(stringifyJson(submission)));
        expect(submissionToRpc(reparsed)).toEqual({ ...transactionToRpc(tx), storageMass: 0n });
      }),
      { numRuns: 100 },
    );
  });

  it('accepts a block whose header is in the read form (decimal strings) and converts its transactions', () => {
    const template = wire<GetBlockTemplateResponse>(`{"block": {"header": ${HEADER_JSON}, "transactions": []}, "isSynced": true}`);
    const headerAsRead = blockToNode(template.block).header;
    const body = submitted(stringifyJson({ header: headerAsRead, transactions: [submitted(SUBMISSION_JSON)] }));
    const rpc = submissionBlockToRpc(submissionBlockSchema.parse(body));
    expect(rpc.header).toEqual({
      version: 1,
      parentsByLevel: [[H('5'), H('6')], [H('5')]],
      hashMerkleRoot: H('7'),
      acceptedIdMerkleRoot: H('8'),
      utxoCommitment: H('9'),
      timestamp: 1763812800123n,
      bits: 486722099,
      nonce: 18446744073709551615n,
      daaScore: 123456789n,
      blueWork: '00000000000000000000000000000000000000000001e240',
      blueScore: 123456000n,
      pruningPoint: H('a'),
    });
    expect(rpc.transactions[0]!.lockTime).toBe(9007199254740993n);
  });
});

describe('Toccata extensions (toccata-vectors transactionsV1)', () => {
  const vectors = toccata.transactionsV1.vectors
    .map((vector) => ({ name: vector.name, tx: transactionFromVector(vector.tx), expectedId: vector.expectedId }))
    .filter(({ tx }) => tx.version === 1 && tx.inputs.every((input) => input.sigOpCount === 0))
    .map(({ name, tx, expectedId }) => {
      const outputs: Transaction['outputs'] = tx.outputs.map(({ covenant, ...output }) => (covenant ? { ...output, covenant } : output));
      return { name, expectedId, tx: { ...tx, outputs } };
    });

  it('has version 1 vectors with compute budgets and covenant bindings', () => {
    expect(vectors.some(({ tx }) => tx.inputs.some((input) => (input.computeBudget ?? 0) > 0))).toBe(true);
    expect(vectors.some(({ tx }) => tx.outputs.some((output) => output.covenant))).toBe(true);
  });

  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    '%s reads with computeBudget and covenant, and submits back through the §2.2 form to the same id',
    (_name, { tx, expectedId }) => {
      const read = transactionToNode(transactionToRpcOutput(tx));
      read.inputs.forEach((input, index) => expect(input.computeBudget).toBe(tx.inputs[index]!.computeBudget ?? 0));
      read.outputs.forEach((output, index) => {
        const covenant = tx.outputs[index]!.covenant;
        expect(output.covenant).toEqual(
          covenant ? { authorizingInput: covenant.authorizingInput, covenantId: bytesToHex(covenant.covenantId) } : undefined,
        );
      });
      const body = submitted(stringifyJson({ ...transactionToSubmission(transactionToRpcOutput(tx)), storageMass: tx.storageMass }));
      const back = transactionFromRpc(submissionToRpc(submissionTransactionSchema.parse(body)));
      expect(bytesToHex(transactionId(back))).toBe(expectedId);
    },
  );

  it('refuses a submission whose mass and storageMass disagree, and takes either alone', () => {
    const base = submitted(SUBMISSION_JSON) as Record<string, unknown>;
    expect(submissionTransactionSchema.safeParse({ ...base, mass: 5n, storageMass: 6n }).success).toBe(false);
    expect(submissionToRpc(submissionTransactionSchema.parse({ ...base, mass: undefined, storageMass: 7n })).storageMass).toBe(7n);
    expect(submissionToRpc(submissionTransactionSchema.parse({ ...base, mass: 7n, storageMass: 7n })).storageMass).toBe(7n);
  });

  it('marks a UTXO entry bound to a covenant with its covenant id and leaves unbound ones as the specification writes them', () => {
    const [entry] = wire<GetUtxosByAddressesResponse>(UTXOS_RESPONSE).entries;
    expect('covenantId' in utxoEntryToNode(entry!)).toBe(false);
    const bound = utxoEntryToNode({ ...entry!, utxoEntry: { ...entry!.utxoEntry, covenantId: H('c') } });
    expect(bound.covenantId).toBe(H('c'));
  });
});
