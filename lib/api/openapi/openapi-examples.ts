/**
 * Example values for the OpenAPI document: mainnet-shaped, internally consistent (the same transaction id in the
 * request and the answer), and checked against the request and response schemas by openapi.test.ts. Hashes are
 * SHA-256 digests of labels, so they look like real ones without being made up digit by digit.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { AddressVersion, encodeAddress } from '../../kaspa/address';
import { bytesToHex } from '../../kaspa/bytes';

const digest = (label: string) => sha256(new TextEncoder().encode(label));
export const exampleHash = (label: string) => bytesToHex(digest(label));

const PUBLIC_KEY = digest('example public key');
export const EXAMPLE_ADDRESS = encodeAddress({ prefix: 'kaspa', version: AddressVersion.PubKey, payload: PUBLIC_KEY });
export const EXAMPLE_OTHER_ADDRESS = encodeAddress({
  prefix: 'kaspa',
  version: AddressVersion.PubKey,
  payload: digest('example recipient'),
});
const SCRIPT = `20${bytesToHex(PUBLIC_KEY)}ac`;
const OTHER_SCRIPT = `20${exampleHash('example recipient')}ac`;
const SIGNATURE_SCRIPT = `41${exampleHash('signature r')}${exampleHash('signature s')}01`;
const NATIVE_SUBNETWORK = '0'.repeat(40);

export const EXAMPLE_TRANSACTION_ID = exampleHash('example transaction');
export const EXAMPLE_COVENANT_ID = exampleHash('example covenant');
const PREVIOUS_TRANSACTION_ID = exampleHash('example funding transaction');
export const EXAMPLE_BLOCK_HASH = exampleHash('example block');
const PARENT_HASH = exampleHash('example parent block');
const BLOCK_TIME = 1_763_812_800_000;

export const exampleNodeTransaction = {
  version: 0,
  inputs: [
    {
      previousOutpoint: { transactionId: PREVIOUS_TRANSACTION_ID, index: 1 },
      signatureScript: SIGNATURE_SCRIPT,
      sequence: '0',
      sigOpCount: 1,
    },
  ],
  outputs: [
    {
      value: '150000000',
      scriptPublicKey: `0000${OTHER_SCRIPT}`,
      verboseData: { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: EXAMPLE_OTHER_ADDRESS },
    },
    {
      value: '849997964',
      scriptPublicKey: `0000${SCRIPT}`,
      verboseData: { scriptPublicKeyType: 'pubkey', scriptPublicKeyAddress: EXAMPLE_ADDRESS },
    },
  ],
  lockTime: '0',
  subnetworkId: NATIVE_SUBNETWORK,
  gas: '0',
  payload: '0x',
  mass: '2036',
  storageMass: '2036',
  verboseData: {
    transactionId: EXAMPLE_TRANSACTION_ID,
    hash: exampleHash('example transaction hash'),
    computeMass: '2036',
    blockHash: EXAMPLE_BLOCK_HASH,
    blockTime: String(BLOCK_TIME),
  },
};

/** The submission form of the same transaction (what a wallet posts). */
export const exampleSubmissionTransaction = {
  version: 0,
  inputs: [
    {
      previousOutpoint: { transactionId: PREVIOUS_TRANSACTION_ID, index: 1 },
      signatureScript: SIGNATURE_SCRIPT,
      sequence: 0,
      sigOpCount: 1,
    },
  ],
  outputs: [
    { value: '150000000', scriptPublicKey: { version: 0, script: OTHER_SCRIPT } },
    { value: '849997964', scriptPublicKey: { version: 0, script: SCRIPT } },
  ],
  lockTime: 0,
  subnetworkId: NATIVE_SUBNETWORK,
  gas: '0',
  payload: '',
};

const exampleHeader = {
  version: 1,
  parentsByLevel: [[PARENT_HASH, exampleHash('example merged block')], [PARENT_HASH]],
  hashMerkleRoot: exampleHash('example merkle root'),
  acceptedIdMerkleRoot: exampleHash('example accepted id merkle root'),
  utxoCommitment: exampleHash('example utxo commitment'),
  timestamp: String(BLOCK_TIME),
  bits: 453_392_416,
  nonce: '11520309628710485871',
  daaScore: '308441937',
  blueWork: '2b5e9d7a41c3f0e18b2',
  blueScore: '291055312',
  pruningPoint: exampleHash('example pruning point'),
};

export const exampleNodeBlock = {
  header: { hash: EXAMPLE_BLOCK_HASH, ...exampleHeader },
  transactions: [exampleNodeTransaction],
  verboseData: {
    hash: EXAMPLE_BLOCK_HASH,
    difficulty: 2.415e15,
    selectedParentHash: PARENT_HASH,
    transactionIds: [EXAMPLE_TRANSACTION_ID],
    isHeaderOnly: false,
    blueScore: 291_055_312,
    childrenHashes: [exampleHash('example child block')],
    mergeSetBluesHashes: [PARENT_HASH],
    mergeSetRedsHashes: [],
    isChainBlock: true,
  },
};

/** A template: the header has no hash, the coinbase no verbose data yet. */
export const exampleTemplateBlock = {
  header: exampleHeader,
  transactions: [
    {
      version: 0,
      inputs: [],
      outputs: [{ value: '3271247420', scriptPublicKey: `0000${SCRIPT}` }],
      lockTime: '0',
      subnetworkId: `01${'0'.repeat(38)}`,
      gas: '0',
      payload: '0xd11e6012000000000000',
      mass: '0',
      storageMass: '0',
    },
  ],
};

export const exampleMempoolEntry = { fee: '2036', transaction: exampleNodeTransaction, isOrphan: false };

export const exampleUtxoEntry = {
  address: EXAMPLE_ADDRESS,
  outpoint: { transactionId: EXAMPLE_TRANSACTION_ID, index: 1 },
  amount: '849997964',
  scriptPublicKey: { version: 0, script: SCRIPT },
  blockDaaScore: '308441937',
  isCoinbase: false,
};

export const exampleFeeEstimate = {
  priorityBucket: { feerate: 1.25, estimatedSeconds: 1 },
  normalBuckets: [{ feerate: 1, estimatedSeconds: 3.2 }],
  lowBuckets: [{ feerate: 1, estimatedSeconds: 60 }],
};

export const exampleDagInfo = {
  network: 'kaspa-mainnet',
  blockCount: '1304617',
  headerCount: '1304617',
  tipHashes: [EXAMPLE_BLOCK_HASH],
  difficulty: 2.415e15,
  pastMedianTime: String(BLOCK_TIME - 3_000),
  virtualParentHashes: [EXAMPLE_BLOCK_HASH],
  pruningPointHash: exampleHash('example pruning point'),
  virtualDaaScore: '308441938',
  sink: EXAMPLE_BLOCK_HASH,
};

const output = (index: number, amount: string, script: string, address: string) => ({
  transactionId: EXAMPLE_TRANSACTION_ID,
  index,
  amount,
  scriptPublicKey: script,
  scriptPublicKeyAddress: address,
  scriptPublicKeyType: 'pubkey',
  covenant: null,
});

export const exampleIndexedTransaction = {
  transactionId: EXAMPLE_TRANSACTION_ID,
  blockTime: BLOCK_TIME,
  subnetworkId: NATIVE_SUBNETWORK,
  hash: exampleHash('example transaction hash'),
  mass: '2036',
  blockHashes: [EXAMPLE_BLOCK_HASH],
  acceptingBlockHash: exampleHash('example accepting block'),
  isAccepted: true,
  confirmations: 1204,
  payload: '0x',
  inputs: [
    {
      transactionId: EXAMPLE_TRANSACTION_ID,
      index: 0,
      signatureScript: SIGNATURE_SCRIPT,
      sigOpCount: 0,
      computeBudget: 1,
      previousOutput: {
        transactionId: PREVIOUS_TRANSACTION_ID,
        index: 1,
        amount: '1000000000',
        scriptPublicKey: SCRIPT,
        scriptPublicKeyAddress: EXAMPLE_ADDRESS,
        scriptPublicKeyType: 'pubkey',
        covenantId: null,
      },
    },
  ],
  outputs: [
    output(0, '150000000', OTHER_SCRIPT, EXAMPLE_OTHER_ADDRESS),
    output(1, '849997964', SCRIPT, EXAMPLE_ADDRESS),
  ],
  version: 1,
  storageMass: '2036',
  computeMass: '1742',
  gas: '0',
};

export const exampleAddressTransaction = {
  ...exampleIndexedTransaction,
  amountSent: '1000000000',
  amountReceived: '849997964',
  balanceChange: '-150002036',
  fee: '2036',
};

export const exampleIndexedBlock = {
  hash: EXAMPLE_BLOCK_HASH,
  acceptedIdMerkleRoot: exampleHeader.acceptedIdMerkleRoot,
  difficulty: 2.415e15,
  isChainBlock: true,
  mergeSetBluesHashes: [PARENT_HASH],
  mergeSetRedsHashes: [],
  selectedParentHash: PARENT_HASH,
  bits: exampleHeader.bits,
  blueScore: 291_055_312,
  blueWork: '0000000000000000000000000000002b5e9d7a41c3f0e18b2'.slice(-48),
  daaScore: 308_441_937,
  hashMerkleRoot: exampleHeader.hashMerkleRoot,
  nonce: exampleHeader.nonce,
  parents: exampleHeader.parentsByLevel[0] ?? [],
  pruningPoint: exampleHeader.pruningPoint,
  timestamp: new Date(BLOCK_TIME).toISOString(),
  utxoCommitment: exampleHeader.utxoCommitment,
  version: 1,
  transactionIds: [EXAMPLE_TRANSACTION_ID],
};

export const exampleUsage = {
  keyId: 'key_5f2c9a7e1b3d',
  name: 'my-wallet-backend',
  limits: { ruPerSecond: '50', ruPerMonth: '100000' },
  month: { period: '2026-11', ruUsed: '1234.56', ruRemaining: '98765.44', resetsAt: '2026-12-01T00:00:00.000Z' },
  second: { ruUsed: '0.6', ruRemaining: '49.4', resetsAt: '2026-11-22T12:00:01.000Z' },
};
