/** Sighash vector loading (kaspa-vectors.json `sighash`) and random transactions for the signing property tests. */
import fc from 'fast-check';
import { hexToBytes } from '../bytes';
import { SUBNETWORK_ID_NATIVE, type Transaction, type UtxoEntry } from '../types';
import { transactionFromVector, type TransactionVector } from './vectors';

export interface UtxoEntryVector {
  amount: string;
  scriptPublicKey: { version: number; script: string };
  blockDaaScore: string;
  isCoinbase: boolean;
}

export interface SighashModification {
  kind: string;
  index: number | null;
}

export interface SighashVectors {
  baseTransactions: Record<string, { tx: TransactionVector; utxoEntries: UtxoEntryVector[] }>;
  sigHashTypes: Record<string, number | number[]>;
  vectors: {
    name: string;
    base: string;
    hashType: number;
    inputIndex: number;
    modification: SighashModification | null;
    expectedSchnorrSighash: string;
  }[];
  derivedEcdsa: { name: string; base: string; hashType: number; inputIndex: number; schnorrSighash: string; expectedEcdsaSighash: string };
}

export interface PopulatedTransaction {
  tx: Transaction;
  utxos: UtxoEntry[];
}

export function utxoEntryFromVector(vector: UtxoEntryVector): UtxoEntry {
  return {
    amount: BigInt(vector.amount),
    scriptPublicKey: { version: vector.scriptPublicKey.version, script: hexToBytes(vector.scriptPublicKey.script) },
    blockDaaScore: BigInt(vector.blockDaaScore),
    isCoinbase: vector.isCoinbase,
  };
}

export function populatedFromVector(base: { tx: TransactionVector; utxoEntries: UtxoEntryVector[] }): PopulatedTransaction {
  return { tx: transactionFromVector(base.tx), utxos: base.utxoEntries.map(utxoEntryFromVector) };
}

function requireIndex(modification: SighashModification): number {
  if (modification.index === null) throw new Error(`modification ${modification.kind} needs an index`);
  return modification.index;
}

/**
 * The ModifyAction arms of consensus/core/src/hashing/sighash.rs::tests::test_signature_hash. A ComputeBudget commit
 * has no sig-op count, which a v0 sighash reads as 0; a SigopCount commit in a v1 transaction carries no budget.
 */
export function applySighashModification(
  { tx, utxos }: PopulatedTransaction,
  modification: SighashModification | null,
): PopulatedTransaction {
  if (!modification) return { tx, utxos };
  const inputs = tx.inputs.map((input) => ({ ...input, previousOutpoint: { ...input.previousOutpoint } }));
  const outputs = tx.outputs.map((output) => ({ ...output }));
  const entries = utxos.map((utxo) => ({ ...utxo }));
  const modified: Transaction = { ...tx, inputs, outputs };
  switch (modification.kind) {
    case 'Output':
      outputs[requireIndex(modification)]!.value = 100n;
      break;
    case 'Input':
      inputs[requireIndex(modification)]!.previousOutpoint.index = 2;
      break;
    case 'ComputeBudget':
      Object.assign(inputs[requireIndex(modification)]!, { sigOpCount: 0, computeBudget: 1234 });
      break;
    case 'SigOpCount':
      Object.assign(inputs[requireIndex(modification)]!, { sigOpCount: 123, computeBudget: undefined });
      break;
    case 'AmountSpent':
      entries[requireIndex(modification)]!.amount = 666n;
      break;
    case 'PrevScriptPublicKey': {
      const entry = entries[requireIndex(modification)]!;
      entry.scriptPublicKey = { version: entry.scriptPublicKey.version, script: Uint8Array.of(...entry.scriptPublicKey.script, 1, 2, 3) };
      break;
    }
    case 'Sequence':
      inputs[requireIndex(modification)]!.sequence = 12345n;
      break;
    case 'Payload':
      modified.payload = hexToBytes('06060604020001030307');
      break;
    case 'Gas':
      modified.gas = 1234n;
      break;
    case 'SubnetworkId':
      modified.subnetworkId = hexToBytes('06060604020001030307' + '00'.repeat(10));
      break;
    default:
      throw new Error(`unknown sighash modification ${modification.kind}`);
  }
  return { tx: modified, utxos: entries };
}

const U64_MAX = (1n << 64n) - 1n;
const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const script = fc.uint8Array({ maxLength: 40 });

/** Small random transactions of version 0 or 1 with one spent entry per input. */
export function arbitraryPopulatedTransaction(constraints: { minOutputs?: number } = {}): fc.Arbitrary<PopulatedTransaction> {
  return fc
    .record({
      version: fc.constantFrom(0, 1),
      inputs: fc.array(
        fc.record({
          transactionId: hash,
          index: fc.nat({ max: 20 }),
          signatureScript: script,
          sequence: fc.bigInt({ min: 0n, max: U64_MAX }),
          sigOpCount: fc.nat({ max: 255 }),
          computeBudget: fc.nat({ max: 0xffff }),
          amount: fc.bigInt({ min: 0n, max: U64_MAX }),
          spentScript: script,
          spentScriptVersion: fc.constantFrom(0, 0, 1),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      outputs: fc.array(
        fc.record({
          value: fc.bigInt({ min: 0n, max: U64_MAX }),
          script,
          covenant: fc.option(fc.record({ authorizingInput: fc.nat({ max: 0xffff }), covenantId: hash }), { nil: null }),
        }),
        { minLength: constraints.minOutputs ?? 0, maxLength: 4 },
      ),
      lockTime: fc.bigInt({ min: 0n, max: U64_MAX }),
      native: fc.boolean(),
      subnetworkId: fc.uint8Array({ minLength: 20, maxLength: 20 }),
      gas: fc.bigInt({ min: 0n, max: U64_MAX }),
      payload: fc.uint8Array({ maxLength: 30 }),
      storageMass: fc.bigInt({ min: 0n, max: U64_MAX }),
    })
    .map((r) => ({
      tx: {
        version: r.version,
        inputs: r.inputs.map((input) => ({
          previousOutpoint: { transactionId: input.transactionId, index: input.index },
          signatureScript: input.signatureScript,
          sequence: input.sequence,
          sigOpCount: r.version === 0 ? input.sigOpCount : 0,
          computeBudget: r.version === 0 ? undefined : input.computeBudget,
        })),
        outputs: r.outputs.map((output) => ({
          value: output.value,
          scriptPublicKey: { version: 0, script: output.script },
          covenant: r.version === 0 ? null : output.covenant,
        })),
        lockTime: r.lockTime,
        subnetworkId: r.native ? SUBNETWORK_ID_NATIVE : r.subnetworkId,
        gas: r.gas,
        payload: r.payload,
        storageMass: r.storageMass,
      },
      utxos: r.inputs.map((input) => ({
        amount: input.amount,
        scriptPublicKey: { version: input.spentScriptVersion, script: input.spentScript },
        blockDaaScore: 0n,
        isCoinbase: false,
      })),
    }));
}
