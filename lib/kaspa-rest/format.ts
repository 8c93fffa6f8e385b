/**
 * The index's records in kaspa-rest-server's shapes (its pydantic models are the contract): the snake_case `TxModel`
 * of /transactions, and the gRPC-JSON-shaped `BlockModel` of /blocks. Types follow the models as FastAPI serialises
 * them: `mass`, `previous_outpoint_index` and `sig_op_count` are strings in TxModel; block header `timestamp`, `nonce`,
 * `daaScore`, `blueScore` and `blueWork` are strings; amounts are JSON integers (exact past 2^53, see lib/rpc/json).
 * Beyond the models (ignored by their clients): `storage_mass` and `compute_mass` on transactions, `compute_budget`
 * on inputs and `covenant_id` on outputs (Toccata).
 */
import type { IndexedBlock, IndexedTransaction, StoredBlockTime } from '../db';
import { isAddressPrefix, scriptPublicKeyToAddress } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { decodeCoinbasePayload } from '../kaspa/coinbase';

export const PREVIOUS_OUTPOINT_MODES = ['no', 'light', 'full'] as const;
export type PreviousOutpointMode = (typeof PREVIOUS_OUTPOINT_MODES)[number];

export const COINBASE_SUBNETWORK_HEX = '0100000000000000000000000000000000000000';

export interface TxOutputModel {
  transaction_id: string;
  index: number;
  amount: bigint;
  script_public_key: string;
  script_public_key_address: string | null;
  script_public_key_type: string;
  covenant_id: string | null;
}

export interface TxInputModel {
  transaction_id: string;
  index: number;
  previous_outpoint_hash: string;
  previous_outpoint_index: string;
  previous_outpoint_resolved?: Omit<TxOutputModel, 'covenant_id'> | null;
  previous_outpoint_address: string | null;
  previous_outpoint_amount: bigint | null;
  signature_script: string;
  sig_op_count: string;
  compute_budget: number;
}

export interface TxModel {
  subnetwork_id: string;
  transaction_id: string;
  hash: string;
  mass: string;
  payload: string | null;
  block_hash: string[];
  block_time: bigint;
  version: number;
  is_accepted: boolean;
  accepting_block_hash: string | null;
  accepting_block_blue_score: bigint | null;
  accepting_block_time: bigint | null;
  inputs: TxInputModel[] | null;
  outputs: TxOutputModel[] | null;
  storage_mass: string | null;
  compute_mass: string | null;
}

export interface TxModelOptions {
  resolve: PreviousOutpointMode;
  /** Top-level fields to keep (kaspa-rest-server's `fields`); empty keeps all. */
  fields?: readonly string[];
  inputs?: boolean;
  outputs?: boolean;
}

function inputModel(transaction: IndexedTransaction, index: number, resolve: PreviousOutpointMode): TxInputModel {
  const input = transaction.inputs[index]!;
  const previous = resolve === 'no' ? null : input.previousOutput;
  const previousHash = bytesToHex(input.previousOutpoint.transactionId);
  const model: TxInputModel = {
    transaction_id: bytesToHex(transaction.transactionId),
    index,
    previous_outpoint_hash: previousHash,
    previous_outpoint_index: String(input.previousOutpoint.index),
    previous_outpoint_address: previous?.address ?? null,
    previous_outpoint_amount: previous?.amount ?? null,
    signature_script: bytesToHex(input.signatureScript),
    sig_op_count: String(input.sigOpCount),
    compute_budget: input.computeBudget,
  };
  if (resolve === 'full') {
    model.previous_outpoint_resolved =
      previous === null
        ? null
        : {
            transaction_id: previousHash,
            index: input.previousOutpoint.index,
            amount: previous.amount,
            script_public_key: bytesToHex(previous.scriptPublicKey.script),
            script_public_key_address: previous.address,
            script_public_key_type: previous.scriptType,
          };
  }
  return model;
}

function outputModels(transaction: IndexedTransaction): TxOutputModel[] {
  const id = bytesToHex(transaction.transactionId);
  return transaction.outputs.map((output, index) => ({
    transaction_id: id,
    index,
    amount: output.amount,
    script_public_key: bytesToHex(output.scriptPublicKey.script),
    script_public_key_address: output.address,
    script_public_key_type: output.scriptType,
    covenant_id: output.covenantId === null ? null : bytesToHex(output.covenantId),
  }));
}

/** One transaction as TxModel; `acceptingBlock` is the accepting block's stored blue score and time, when known. */
export function txModel(
  transaction: IndexedTransaction,
  acceptingBlock: StoredBlockTime | undefined,
  options: TxModelOptions,
): Partial<TxModel> {
  const accepted = transaction.acceptingBlockHash !== null;
  const model: TxModel = {
    subnetwork_id: bytesToHex(transaction.subnetworkId),
    transaction_id: bytesToHex(transaction.transactionId),
    hash: bytesToHex(transaction.hash),
    mass: String(transaction.mass),
    payload: transaction.payload === null || transaction.payload.length === 0 ? null : bytesToHex(transaction.payload),
    block_hash: transaction.blockHashes.map(bytesToHex),
    block_time: transaction.blockTime,
    version: transaction.version,
    is_accepted: accepted,
    accepting_block_hash: accepted ? bytesToHex(transaction.acceptingBlockHash!) : null,
    accepting_block_blue_score: accepted ? (acceptingBlock?.blueScore ?? transaction.acceptingBlockBlueScore) : null,
    accepting_block_time: accepted ? (acceptingBlock?.timestamp ?? null) : null,
    inputs:
      options.inputs === false || transaction.inputs.length === 0
        ? null
        : transaction.inputs.map((_, index) => inputModel(transaction, index, options.resolve)),
    outputs: options.outputs === false || transaction.outputs.length === 0 ? null : outputModels(transaction),
    storage_mass: transaction.storageMass === null ? null : String(transaction.storageMass),
    compute_mass: transaction.computeMass === null ? null : String(transaction.computeMass),
  };
  const fields = options.fields ?? [];
  if (fields.length === 0) return model;
  return Object.fromEntries(Object.entries(model).filter(([key]) => fields.includes(key))) as Partial<TxModel>;
}

/** gRPC's blue work: hex without leading zeros. */
function blueWorkHex(blueWork: bigint): string {
  return blueWork.toString(16);
}

function printable(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\uFFFD/g, '');
}

/** The miner's address and extra data from the coinbase payload (kaspa-rest-server's `extra.minerAddress/minerInfo`). */
export function minerOf(coinbase: IndexedTransaction | undefined, prefix: string): { minerAddress: string | null; minerInfo: string } | null {
  if (coinbase === undefined || coinbase.payload === null || bytesToHex(coinbase.subnetworkId) !== COINBASE_SUBNETWORK_HEX) {
    return null;
  }
  try {
    const data = decodeCoinbasePayload(coinbase.payload);
    return {
      minerAddress: isAddressPrefix(prefix) ? scriptPublicKeyToAddress(data.scriptPublicKey, prefix) : null,
      minerInfo: printable(data.extraData),
    };
  } catch {
    return null;
  }
}

export interface BlockModelOptions {
  includeTransactions: boolean;
  /** `extra.color` (with includeColor): the block's colour as the chain sees it, null when unknown. */
  color?: 'blue' | 'red' | null;
  prefix: string;
}

/** A stored block as BlockModel; `transactions` are its transactions in block order (payloads included). */
export function blockModel(block: IndexedBlock, transactions: readonly IndexedTransaction[], options: BlockModelOptions) {
  const hash = bytesToHex(block.hash);
  const { header } = block;
  const extra: Record<string, unknown> = {};
  if (options.color !== undefined) extra.color = options.color;
  const miner = minerOf(transactions[0], options.prefix);
  if (miner !== null) Object.assign(extra, miner);
  return {
    header: {
      version: header.version,
      hashMerkleRoot: bytesToHex(header.hashMerkleRoot),
      acceptedIdMerkleRoot: bytesToHex(header.acceptedIdMerkleRoot),
      utxoCommitment: bytesToHex(header.utxoCommitment),
      timestamp: String(header.timestamp),
      bits: header.bits,
      nonce: String(header.nonce),
      daaScore: String(header.daaScore),
      blueWork: blueWorkHex(header.blueWork),
      parents: header.parentsByLevel.map((level) => ({ parentHashes: level.map(bytesToHex) })),
      blueScore: String(header.blueScore),
      pruningPoint: bytesToHex(header.pruningPoint),
    },
    transactions: options.includeTransactions
      ? transactions.map((transaction) => ({
          inputs: transaction.inputs.map((input) => ({
            previousOutpoint: {
              transactionId: bytesToHex(input.previousOutpoint.transactionId),
              index: input.previousOutpoint.index,
            },
            signatureScript: bytesToHex(input.signatureScript),
            sigOpCount: input.sigOpCount,
            sequence: input.sequence,
          })),
          outputs: transaction.outputs.map((output) => ({
            amount: output.amount,
            scriptPublicKey: { scriptPublicKey: bytesToHex(output.scriptPublicKey.script), version: output.scriptPublicKey.version },
            verboseData: { scriptPublicKeyType: output.scriptType, scriptPublicKeyAddress: output.address },
          })),
          subnetworkId: bytesToHex(transaction.subnetworkId),
          payload: transaction.payload === null ? null : bytesToHex(transaction.payload),
          verboseData: {
            transactionId: bytesToHex(transaction.transactionId),
            hash: bytesToHex(transaction.hash),
            computeMass: transaction.computeMass ?? transaction.mass,
            blockHash: hash,
            blockTime: header.timestamp,
          },
          lockTime: transaction.lockTime,
          gas: transaction.gas,
          mass: transaction.storageMass ?? transaction.mass,
          version: transaction.version,
        }))
      : null,
    verboseData: {
      hash,
      difficulty: block.difficulty,
      selectedParentHash: block.selectedParentHash === null ? null : bytesToHex(block.selectedParentHash),
      transactionIds: block.transactionIds.map(bytesToHex),
      blueScore: String(header.blueScore),
      childrenHashes: block.childrenHashes.map(bytesToHex),
      mergeSetBluesHashes: block.mergeSetBlues.map(bytesToHex),
      mergeSetRedsHashes: block.mergeSetReds.map(bytesToHex),
      isChainBlock: block.isChainBlock,
    },
    extra,
  };
}
