/**
 * The node format of SERVICE-SPEC §2.2–§2.8 and §2.11, converted from kaspad's wRPC JSON (lib/rpc/types.ts) and, for
 * submissions, parsed into kaspad's input form. The two directions differ (§2.2):
 *   read responses  u64 quantities as decimal strings (blueScore of block verbose data and bits stay integers),
 *                   script public keys as kaspad's string form ("0000" + script), payload as `0x` + hex
 *   submissions     sequence and lockTime as JSON integers, value and gas as decimal strings, script public keys as
 *                   {version, script}, payload as plain hex ("" when empty)
 * The specification's fields are the floor. kaspad 2.0.1's Toccata fields ride beside them where they carry
 * something: `storageMass` on every transaction (the value of `mass`), `computeBudget` on the inputs of version 1 and
 * later transactions (version 0 inputs commit to `sigOpCount` instead), `covenant` on outputs bound to a covenant and
 * `covenantId` on UTXO entries that carry one (kaspad writes null for the unbound ones; here they are left out).
 * Submissions accept the same fields. Output script classes use rusty-kaspa's `ScriptClass` display names ("pubkey").
 */
import { z } from 'zod';
import { bytesToHex } from '../../kaspa/bytes';
import { TX_VERSION_TOCCATA } from '../../kaspa/transaction';
import { scriptPublicKeyFromRpc } from '../../rpc/convert-transaction';
import type {
  GetBlockDagInfoResponse,
  RpcBlock,
  RpcBlockVerboseData,
  RpcCovenantBinding,
  RpcFeeEstimate,
  RpcFeerateBucket,
  RpcHeader,
  RpcMempoolEntry,
  RpcRawBlock,
  RpcRawBlockInputForm,
  RpcRawHeader,
  RpcScriptClass,
  RpcScriptPublicKey,
  RpcScriptPublicKeyObject,
  RpcTransaction,
  RpcTransactionInputForm,
  RpcTransactionOutput,
  RpcUtxosByAddressesEntry,
  SubmitBlockReport,
} from '../../rpc/types';
import { hexString } from '../http/schemas';

type WireU64 = bigint | number;

export interface NodeOutpoint {
  transactionId: string;
  index: number;
}

export interface NodeInput {
  previousOutpoint: NodeOutpoint;
  signatureScript: string;
  sequence: string;
  sigOpCount: number;
  /** Toccata extension, version 1 and later: the script units committed for this input, in units of 10,000. */
  computeBudget?: number;
}

/** Toccata extension (KIP-20): the output continues or starts the covenant, authorized by that input. */
export interface NodeCovenantBinding {
  authorizingInput: number;
  covenantId: string;
}

export interface NodeOutputVerboseData {
  scriptPublicKeyType: string;
  scriptPublicKeyAddress: string;
}

export interface NodeOutput {
  value: string;
  scriptPublicKey: string;
  covenant?: NodeCovenantBinding;
  verboseData?: NodeOutputVerboseData;
}

export interface NodeTransactionVerboseData {
  transactionId: string;
  hash: string;
  computeMass: string;
  blockHash: string;
  blockTime: string;
}

/** The read form (§2.2). `verboseData` is present when the node has it (block and mempool reads, not templates). */
export interface NodeTransaction {
  version: number;
  inputs: NodeInput[];
  outputs: NodeOutput[];
  lockTime: string;
  subnetworkId: string;
  gas: string;
  payload: string;
  mass: string;
  /** Toccata extension: kaspad 2.0.1's name for `mass` (the committed storage mass); always equal to it. */
  storageMass: string;
  verboseData?: NodeTransactionVerboseData;
}

export interface NodeHeader {
  hash?: string;
  version: number;
  parentsByLevel: string[][];
  hashMerkleRoot: string;
  acceptedIdMerkleRoot: string;
  utxoCommitment: string;
  timestamp: string;
  bits: number;
  nonce: string;
  daaScore: string;
  blueWork: string;
  blueScore: string;
  pruningPoint: string;
}

export interface NodeBlockVerboseData {
  hash: string;
  difficulty: number;
  selectedParentHash: string;
  transactionIds: string[];
  isHeaderOnly: boolean;
  blueScore: number;
  childrenHashes: string[];
  mergeSetBluesHashes: string[];
  mergeSetRedsHashes: string[];
  isChainBlock: boolean;
}

export interface NodeBlock {
  header: NodeHeader;
  transactions: NodeTransaction[];
  verboseData?: NodeBlockVerboseData;
}

export interface NodeMempoolEntry {
  fee: string;
  transaction: NodeTransaction;
  isOrphan: boolean;
}

export interface NodeUtxoEntry {
  address: string;
  outpoint: NodeOutpoint;
  amount: string;
  scriptPublicKey: { version: number; script: string };
  blockDaaScore: string;
  isCoinbase: boolean;
  /** Toccata extension: the covenant the output is bound to. */
  covenantId?: string;
}

export interface NodeFeerateBucket {
  feerate: number;
  estimatedSeconds: number;
}

export interface NodeFeeEstimate {
  priorityBucket: NodeFeerateBucket;
  normalBuckets: NodeFeerateBucket[];
  lowBuckets: NodeFeerateBucket[];
}

export interface NodeDagInfo {
  network: string;
  blockCount: string;
  headerCount: string;
  tipHashes: string[];
  difficulty: number;
  pastMedianTime: string;
  virtualParentHashes: string[];
  pruningPointHash: string;
  virtualDaaScore: string;
  sink: string;
}

export interface NodeSubmitBlockReport {
  type: string;
  reason: string;
}

/** The submission form (§2.2) as this service writes it (replacedTransaction of §4.4). */
export interface SubmissionTransaction {
  version: number;
  inputs: { previousOutpoint: NodeOutpoint; signatureScript: string; sequence: bigint; sigOpCount: number; computeBudget?: number }[];
  outputs: { value: string; scriptPublicKey: { version: number; script: string }; covenant?: NodeCovenantBinding }[];
  lockTime: bigint;
  subnetworkId: string;
  gas: string;
  payload: string;
}

const SCRIPT_CLASS_NAMES: Readonly<Record<RpcScriptClass, string>> = {
  NonStandard: 'nonstandard',
  PubKey: 'pubkey',
  PubKeyECDSA: 'pubkeyecdsa',
  ScriptHash: 'scripthash',
};

function decimal(value: WireU64): string {
  return BigInt(value).toString();
}

/** A u64 the specification types as integer; refuses values a JSON number cannot hold exactly. */
function safeInteger(value: WireU64, field: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`${field} ${value} exceeds the exact integer range`);
  return number;
}

/** A payload in read responses: `0x` then the hex, so the empty payload reads `0x` (§2.1, §2.2). */
export function readPayload(hex: string): string {
  return `0x${hex}`;
}

function scriptPublicKeyObject(value: RpcScriptPublicKey | RpcScriptPublicKeyObject) {
  const { version, script } = scriptPublicKeyFromRpc(value);
  return { version, script: bytesToHex(script) };
}

function scriptPublicKeyString(value: RpcScriptPublicKey | RpcScriptPublicKeyObject): string {
  if (typeof value === 'string') return value;
  return value.version.toString(16).padStart(4, '0') + value.script;
}

function covenantToNode(binding: RpcCovenantBinding | null | undefined): { covenant?: NodeCovenantBinding } {
  return binding ? { covenant: { authorizingInput: binding.authorizingInput, covenantId: binding.covenantId } } : {};
}

function computeBudgetToNode(version: number, computeBudget: number | undefined): { computeBudget?: number } {
  return version >= TX_VERSION_TOCCATA ? { computeBudget: computeBudget ?? 0 } : {};
}

function outputToNode(output: RpcTransactionOutput): NodeOutput {
  const node: NodeOutput = {
    value: decimal(output.value),
    scriptPublicKey: scriptPublicKeyString(output.scriptPublicKey),
    ...covenantToNode(output.covenant),
  };
  if (output.verboseData) {
    node.verboseData = {
      scriptPublicKeyType: SCRIPT_CLASS_NAMES[output.verboseData.scriptPublicKeyType] ?? output.verboseData.scriptPublicKeyType,
      scriptPublicKeyAddress: output.verboseData.scriptPublicKeyAddress,
    };
  }
  return node;
}

export function transactionToNode(tx: RpcTransaction): NodeTransaction {
  const mass = decimal(tx.mass ?? tx.storageMass);
  const node: NodeTransaction = {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: { transactionId: input.previousOutpoint.transactionId, index: input.previousOutpoint.index },
      signatureScript: input.signatureScript,
      sequence: decimal(input.sequence),
      sigOpCount: input.sigOpCount,
      ...computeBudgetToNode(tx.version, input.computeBudget),
    })),
    outputs: tx.outputs.map(outputToNode),
    lockTime: decimal(tx.lockTime),
    subnetworkId: tx.subnetworkId,
    gas: decimal(tx.gas),
    payload: readPayload(tx.payload),
    mass,
    storageMass: mass,
  };
  if (tx.verboseData) {
    node.verboseData = {
      transactionId: tx.verboseData.transactionId,
      hash: tx.verboseData.hash,
      computeMass: decimal(tx.verboseData.computeMass),
      blockHash: tx.verboseData.blockHash,
      blockTime: decimal(tx.verboseData.blockTime),
    };
  }
  return node;
}

export function headerToNode(header: RpcHeader | RpcRawHeader): NodeHeader {
  return {
    ...('hash' in header ? { hash: header.hash } : {}),
    version: header.version,
    parentsByLevel: header.parentsByLevel.map((level) => [...level]),
    hashMerkleRoot: header.hashMerkleRoot,
    acceptedIdMerkleRoot: header.acceptedIdMerkleRoot,
    utxoCommitment: header.utxoCommitment,
    timestamp: decimal(header.timestamp),
    bits: header.bits,
    nonce: decimal(header.nonce),
    daaScore: decimal(header.daaScore),
    blueWork: header.blueWork,
    blueScore: decimal(header.blueScore),
    pruningPoint: header.pruningPoint,
  };
}

function blockVerboseDataToNode(data: RpcBlockVerboseData): NodeBlockVerboseData {
  return {
    hash: data.hash,
    difficulty: data.difficulty,
    selectedParentHash: data.selectedParentHash,
    transactionIds: [...data.transactionIds],
    isHeaderOnly: data.isHeaderOnly,
    blueScore: safeInteger(data.blueScore, 'blueScore'),
    childrenHashes: [...data.childrenHashes],
    mergeSetBluesHashes: [...data.mergeSetBluesHashes],
    mergeSetRedsHashes: [...data.mergeSetRedsHashes],
    isChainBlock: data.isChainBlock,
  };
}

/** A block read (getBlock, getBlocks) or a template (no header hash, no verbose data). */
export function blockToNode(block: RpcBlock | RpcRawBlock): NodeBlock {
  const node: NodeBlock = {
    header: headerToNode(block.header),
    transactions: block.transactions.map(transactionToNode),
  };
  if ('verboseData' in block && block.verboseData) node.verboseData = blockVerboseDataToNode(block.verboseData);
  return node;
}

export function mempoolEntryToNode(entry: RpcMempoolEntry): NodeMempoolEntry {
  return { fee: decimal(entry.fee), transaction: transactionToNode(entry.transaction), isOrphan: entry.is_orphan };
}

/** kaspad's UTXO index entry, flattened (§2.6); `address` falls back to the queried one when the index has none. */
export function utxoEntryToNode(entry: RpcUtxosByAddressesEntry, queriedAddress = ''): NodeUtxoEntry {
  return {
    address: entry.address ?? queriedAddress,
    outpoint: { transactionId: entry.outpoint.transactionId, index: entry.outpoint.index },
    amount: decimal(entry.utxoEntry.amount),
    scriptPublicKey: scriptPublicKeyObject(entry.utxoEntry.scriptPublicKey),
    blockDaaScore: decimal(entry.utxoEntry.blockDaaScore),
    isCoinbase: entry.utxoEntry.isCoinbase,
    ...(entry.utxoEntry.covenantId ? { covenantId: entry.utxoEntry.covenantId } : {}),
  };
}

function bucketToNode(bucket: RpcFeerateBucket): NodeFeerateBucket {
  return { feerate: bucket.feerate, estimatedSeconds: bucket.estimatedSeconds };
}

export function feeEstimateToNode(estimate: RpcFeeEstimate): NodeFeeEstimate {
  return {
    priorityBucket: bucketToNode(estimate.priorityBucket),
    normalBuckets: estimate.normalBuckets.map(bucketToNode),
    lowBuckets: estimate.lowBuckets.map(bucketToNode),
  };
}

export function dagInfoToNode(info: GetBlockDagInfoResponse): NodeDagInfo {
  return {
    network: info.network,
    blockCount: decimal(info.blockCount),
    headerCount: decimal(info.headerCount),
    tipHashes: [...info.tipHashes],
    difficulty: info.difficulty,
    pastMedianTime: decimal(info.pastMedianTime),
    virtualParentHashes: [...info.virtualParentHashes],
    pruningPointHash: info.pruningPointHash,
    virtualDaaScore: decimal(info.virtualDaaScore),
    sink: info.sink,
  };
}

/** §2.11: both fields are strings; a success has no reason on the wire and reports `none`. */
export function submitBlockReportToNode(report: SubmitBlockReport): NodeSubmitBlockReport {
  return report.type === 'success' ? { type: 'success', reason: 'none' } : { type: report.type, reason: report.reason };
}

/** The submission form of a transaction kaspad returned (the replaced transaction of §4.4). */
export function transactionToSubmission(tx: RpcTransaction): SubmissionTransaction {
  return {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: { transactionId: input.previousOutpoint.transactionId, index: input.previousOutpoint.index },
      signatureScript: input.signatureScript,
      sequence: BigInt(input.sequence),
      sigOpCount: input.sigOpCount,
      ...computeBudgetToNode(tx.version, input.computeBudget),
    })),
    outputs: tx.outputs.map((output) => ({
      value: decimal(output.value),
      scriptPublicKey: scriptPublicKeyObject(output.scriptPublicKey),
      ...covenantToNode(output.covenant),
    })),
    lockTime: BigInt(tx.lockTime),
    subnetworkId: tx.subnetworkId,
    gas: decimal(tx.gas),
    payload: tx.payload,
  };
}

/* ---------- submissions: request schemas → kaspad's input form ---------- */

/** Object keys whose JSON integers must be read as bigint in submission bodies (u64 fields). */
export const SUBMISSION_BIGINT_KEYS: ReadonlySet<string> = new Set([
  'sequence',
  'lockTime',
  'value',
  'gas',
  'mass',
  'storageMass',
  'timestamp',
  'nonce',
  'daaScore',
  'blueScore',
]);

const U64_MAX = 2n ** 64n - 1n;
const HEX = /^[0-9a-fA-F]*$/;

/**
 * A u64 as a JSON integer or a decimal string. The specification names one form per field; both are accepted so a
 * value copied from a read response (decimal strings there) submits unchanged.
 */
const u64 = z
  .union([z.bigint(), z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)], {
    error: 'must be a whole number from 0 to 18446744073709551615 (a JSON integer or a decimal string)',
  })
  .transform((value, context) => {
    const result = BigInt(value);
    if (result >= 0n && result <= U64_MAX) return result;
    context.addIssue({ code: 'custom', message: 'must be a whole number from 0 to 18446744073709551615' });
    return z.NEVER;
  });

const uint = (max: number) => z.number().int().min(0).max(max);

/** Hex bytes of any length; `0x` in front is allowed (the read form of payloads). */
const hexText = (what: string) =>
  z
    .string()
    .transform((text) => (text.startsWith('0x') ? text.slice(2) : text))
    .refine((text) => text.length % 2 === 0 && HEX.test(text), {
      message: `must be ${what}: an even number of hexadecimal digits`,
      params: { apiCode: 'invalid_hex' },
    })
    .transform((text) => text.toLowerCase());

const hash = hexString(32, 'a 32-byte hash');

/** `{version, script}` as §2.2 submissions write it; kaspad's string form from read responses is accepted too. */
const scriptPublicKey = z.union([
  z.object({ version: uint(0xffff), script: hexText('a script') }),
  z
    .string()
    .refine((text) => text.length >= 4 && text.length % 2 === 0 && HEX.test(text), {
      message: 'must be {version, script} or the version as 4 hex digits followed by the script',
      params: { apiCode: 'invalid_hex' },
    })
    .transform((text) => ({ version: Number.parseInt(text.slice(0, 4), 16), script: text.slice(4).toLowerCase() })),
]);

const submissionInput = z.object({
  previousOutpoint: z.object({ transactionId: hash, index: uint(0xffffffff) }),
  signatureScript: hexText('a signature script'),
  sequence: u64,
  sigOpCount: uint(0xff),
  computeBudget: uint(0xffff).optional(),
});

const submissionOutput = z.object({
  value: u64,
  scriptPublicKey,
  covenant: z.object({ authorizingInput: uint(0xffff), covenantId: hash }).nullish(),
});

/**
 * A transaction in the submission form (§2.2). `mass` is optional (the node's storage mass, which templates carry and
 * which a block's transactions must keep); absent, it is 0 and the node computes it for mempool submissions.
 */
export const submissionTransactionSchema = z.object({
  version: uint(0xffff),
  inputs: z.array(submissionInput),
  outputs: z.array(submissionOutput),
  lockTime: u64,
  subnetworkId: hexString(20, 'a 20-byte subnetwork id'),
  gas: u64,
  payload: hexText('the payload'),
  mass: u64.optional(),
  storageMass: u64.optional(),
}).refine((tx) => tx.mass === undefined || tx.storageMass === undefined || tx.mass === tx.storageMass, {
  message: 'mass and storageMass name the same value and must agree when both are given',
  path: ['storageMass'],
});

export type SubmissionTransactionInput = z.output<typeof submissionTransactionSchema>;

export function submissionToRpc(tx: SubmissionTransactionInput): RpcTransactionInputForm {
  return {
    version: tx.version,
    inputs: tx.inputs.map((input) => ({
      previousOutpoint: input.previousOutpoint,
      signatureScript: input.signatureScript,
      sequence: input.sequence,
      sigOpCount: input.sigOpCount,
      ...(input.computeBudget === undefined ? {} : { computeBudget: input.computeBudget }),
    })),
    outputs: tx.outputs.map((output) => ({
      value: output.value,
      scriptPublicKey: output.scriptPublicKey,
      ...(output.covenant ? { covenant: output.covenant } : {}),
    })),
    lockTime: tx.lockTime,
    subnetworkId: tx.subnetworkId,
    gas: tx.gas,
    payload: tx.payload,
    storageMass: tx.storageMass ?? tx.mass ?? 0n,
  };
}

/** A header as §2.3 writes it (strings for u64 quantities); a `hash` is accepted and ignored, as kaspad ignores it. */
export const submissionHeaderSchema = z.object({
  hash: z.string().optional(),
  version: uint(0xffff),
  parentsByLevel: z.array(z.array(hash)),
  hashMerkleRoot: hash,
  acceptedIdMerkleRoot: hash,
  utxoCommitment: hash,
  timestamp: u64,
  bits: uint(0xffffffff),
  nonce: u64,
  daaScore: u64,
  blueWork: z
    .string()
    .regex(/^[0-9a-fA-F]{1,48}$/, 'must be at most 48 hexadecimal digits')
    .transform((text) => text.toLowerCase()),
  blueScore: u64,
  pruningPoint: hash,
});

export const submissionBlockSchema = z.object({
  header: submissionHeaderSchema,
  transactions: z.array(submissionTransactionSchema),
});

export function submissionBlockToRpc(block: z.output<typeof submissionBlockSchema>): RpcRawBlockInputForm {
  const { header } = block;
  return {
    header: {
      version: header.version,
      parentsByLevel: header.parentsByLevel,
      hashMerkleRoot: header.hashMerkleRoot,
      acceptedIdMerkleRoot: header.acceptedIdMerkleRoot,
      utxoCommitment: header.utxoCommitment,
      timestamp: header.timestamp,
      bits: header.bits,
      nonce: header.nonce,
      daaScore: header.daaScore,
      blueWork: header.blueWork,
      blueScore: header.blueScore,
      pruningPoint: header.pruningPoint,
    },
    transactions: block.transactions.map(submissionToRpc),
  };
}
