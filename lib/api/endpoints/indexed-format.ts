/**
 * The indexed view of SERVICE-SPEC §2.1 (transactions, address history items) and §2.4 (blocks of the DAA-score
 * range call), converted from lib/db's records. Choices where the specification is open:
 *   - hashes, scripts and signature scripts are lowercase hex without `0x`; payloads are `0x` + hex, and `0x` also
 *     when the payload was not requested (the spec types the field as a string, so it is never left out);
 *   - `scriptPublicKey` is the script alone (its version is 0 for every standard script), as the indexed view shows it;
 *   - an input's `previousOutput` always carries the spent outpoint (`transactionId`, `index`); the spent output's
 *     `amount`, `scriptPublicKey`, `scriptPublicKeyAddress` and `scriptPublicKeyType` are null while it is unknown;
 *   - `scriptPublicKeyAddress` is null for scripts without an address form; `acceptingBlockHash` is null while the
 *     transaction is not accepted, `selectedParentHash` null for genesis, `fee` null while a spent output is unknown;
 *   - u64 fields the spec types as integer (`blockTime`, `daaScore`, `blueScore`) are JSON numbers and must be exact;
 *   - Toccata extensions beside the spec's fields, always present: `version`, `storageMass` and `computeMass` (decimal
 *     strings; null for rows indexed before they were stored, `computeMass` also when the node gave none), `gas`;
 *     each input's `computeBudget` (0 for version 0 inputs, as kaspad reports it) and its spent output's `covenantId`;
 *     each output's `covenant` ({ authorizingInput, covenantId } or null when unbound).
 */
import { bytesToHex } from '../../kaspa/bytes';
import type { Hash } from '../../kaspa/types';
import {
  confirmations,
  isAccepted,
  type AddressTransaction,
  type CreatedOutputRecord,
  type IndexedBlock,
  type IndexedTransaction,
  type InputRecord,
  type OutputRecord,
} from '../../db';

export interface IndexedOutput {
  transactionId: string;
  index: number;
  amount: string;
  scriptPublicKey: string;
  scriptPublicKeyAddress: string | null;
  scriptPublicKeyType: string;
  covenant: IndexedCovenantBinding | null;
}

export interface IndexedCovenantBinding {
  authorizingInput: number;
  covenantId: string;
}

export interface IndexedPreviousOutput {
  transactionId: string;
  index: number;
  amount: string | null;
  scriptPublicKey: string | null;
  scriptPublicKeyAddress: string | null;
  scriptPublicKeyType: string | null;
  covenantId: string | null;
}

export interface IndexedInput {
  transactionId: string;
  index: number;
  signatureScript: string;
  sigOpCount: number;
  computeBudget: number;
  previousOutput: IndexedPreviousOutput;
}

export interface IndexedTransactionView {
  transactionId: string;
  blockTime: number;
  subnetworkId: string;
  hash: string;
  mass: string;
  blockHashes: string[];
  acceptingBlockHash: string | null;
  isAccepted: boolean;
  confirmations: number;
  payload: string;
  inputs: IndexedInput[];
  outputs: IndexedOutput[];
  version: number;
  storageMass: string | null;
  computeMass: string | null;
  gas: string;
}

export interface AddressTransactionView extends IndexedTransactionView {
  amountSent: string;
  amountReceived: string;
  balanceChange: string;
  fee: string | null;
}

export interface IndexedBlockView {
  hash: string;
  acceptedIdMerkleRoot: string;
  difficulty: number;
  isChainBlock: boolean;
  mergeSetBluesHashes: string[];
  mergeSetRedsHashes: string[];
  selectedParentHash: string | null;
  bits: number;
  blueScore: number;
  blueWork: string;
  daaScore: number;
  hashMerkleRoot: string;
  nonce: string;
  parents: string[];
  pruningPoint: string;
  timestamp: string;
  utxoCommitment: string;
  version: number;
  transactionIds: string[];
}

const BLUE_WORK_HEX_DIGITS = 48;

/** A u64 the specification types as integer; refuses values a JSON number cannot carry exactly. */
export function exactInteger(value: bigint, field: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`${field} ${value} exceeds the exact JSON integer range`);
  return number;
}

const hexList = (hashes: readonly Hash[]) => hashes.map(bytesToHex);

function outputFields(output: OutputRecord) {
  return {
    amount: output.amount.toString(),
    scriptPublicKey: bytesToHex(output.scriptPublicKey.script),
    scriptPublicKeyAddress: output.address,
    scriptPublicKeyType: output.scriptType,
  };
}

function outputView(output: CreatedOutputRecord, transactionId: string, index: number): IndexedOutput {
  return {
    transactionId,
    index,
    ...outputFields(output),
    covenant:
      output.covenantId === null || output.authorizingInput === null
        ? null
        : { authorizingInput: output.authorizingInput, covenantId: bytesToHex(output.covenantId) },
  };
}

function inputView(input: InputRecord, transactionId: string, index: number): IndexedInput {
  const spent = input.previousOutput;
  const outpoint = { transactionId: bytesToHex(input.previousOutpoint.transactionId), index: input.previousOutpoint.index };
  return {
    transactionId,
    index,
    signatureScript: bytesToHex(input.signatureScript),
    sigOpCount: input.sigOpCount,
    computeBudget: input.computeBudget,
    previousOutput:
      spent === null
        ? {
            ...outpoint,
            amount: null,
            scriptPublicKey: null,
            scriptPublicKeyAddress: null,
            scriptPublicKeyType: null,
            covenantId: null,
          }
        : {
            ...outpoint,
            ...outputFields(spent),
            covenantId: spent.covenantId === null ? null : bytesToHex(spent.covenantId),
          },
  };
}

/** §2.1. `virtualBlueScore` is the blue score confirmations count from (kaspad's sink blue score). */
export function transactionView(transaction: IndexedTransaction, virtualBlueScore: bigint): IndexedTransactionView {
  const transactionId = bytesToHex(transaction.transactionId);
  return {
    transactionId,
    blockTime: exactInteger(transaction.blockTime, 'blockTime'),
    subnetworkId: bytesToHex(transaction.subnetworkId),
    hash: bytesToHex(transaction.hash),
    mass: transaction.mass.toString(),
    blockHashes: hexList(transaction.blockHashes),
    acceptingBlockHash: transaction.acceptingBlockHash === null ? null : bytesToHex(transaction.acceptingBlockHash),
    isAccepted: isAccepted(transaction),
    confirmations: confirmations(transaction, virtualBlueScore),
    payload: `0x${transaction.payload === null ? '' : bytesToHex(transaction.payload)}`,
    inputs: transaction.inputs.map((input, index) => inputView(input, transactionId, index)),
    outputs: transaction.outputs.map((output, index) => outputView(output, transactionId, index)),
    version: transaction.version,
    storageMass: transaction.storageMass === null ? null : transaction.storageMass.toString(),
    computeMass: transaction.computeMass === null ? null : transaction.computeMass.toString(),
    gas: transaction.gas.toString(),
  };
}

/** §2.1 address transaction item: amounts in sompi as decimal strings, `balanceChange` signed. */
export function addressTransactionView(transaction: AddressTransaction, virtualBlueScore: bigint): AddressTransactionView {
  return {
    ...transactionView(transaction, virtualBlueScore),
    amountSent: transaction.amountSent.toString(),
    amountReceived: transaction.amountReceived.toString(),
    balanceChange: transaction.balanceChange.toString(),
    fee: transaction.fee === null ? null : transaction.fee.toString(),
  };
}

/** §2.4: `parents` are the level-0 (direct) parents; `timestamp` ISO 8601 in UTC with milliseconds. */
export function blockView(block: IndexedBlock): IndexedBlockView {
  const { header } = block;
  return {
    hash: bytesToHex(block.hash),
    acceptedIdMerkleRoot: bytesToHex(header.acceptedIdMerkleRoot),
    difficulty: block.difficulty,
    isChainBlock: block.isChainBlock,
    mergeSetBluesHashes: hexList(block.mergeSetBlues),
    mergeSetRedsHashes: hexList(block.mergeSetReds),
    selectedParentHash: block.selectedParentHash === null ? null : bytesToHex(block.selectedParentHash),
    bits: header.bits,
    blueScore: exactInteger(header.blueScore, 'blueScore'),
    blueWork: header.blueWork.toString(16).padStart(BLUE_WORK_HEX_DIGITS, '0'),
    daaScore: exactInteger(header.daaScore, 'daaScore'),
    hashMerkleRoot: bytesToHex(header.hashMerkleRoot),
    nonce: header.nonce.toString(),
    parents: hexList(header.parentsByLevel[0] ?? []),
    pruningPoint: bytesToHex(header.pruningPoint),
    timestamp: new Date(exactInteger(header.timestamp, 'timestamp')).toISOString(),
    utxoCommitment: bytesToHex(header.utxoCommitment),
    version: header.version,
    transactionIds: hexList(block.transactionIds),
  };
}
