import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes';
import {
  covenantId,
  covenantIdPreimage,
  CovenantError,
  CovenantsContext,
  populateGenesisCovenants,
  PopulateGenesisCovenantsError,
  type CovenantErrorDetail,
  type PopulateGenesisCovenantsErrorDetail,
} from './covenant';
import { toccata } from './test-support/toccata-vectors';
import { transactionFromVector } from './test-support/vectors';
import type { Hash, Transaction } from './types';

const { contextCases, populateGenesis, derivedIdExample } = toccata.covenants;

/** The Debug form the vectors use, e.g. `AuthInputOutOfBounds(0, 1)`; `_` in the expectation matches any field. */
function debugForm(detail: CovenantErrorDetail | PopulateGenesisCovenantsErrorDetail): string {
  const fields = Object.entries(detail)
    .filter(([key]) => key !== 'kind')
    .map(([, value]) => (value instanceof Uint8Array ? bytesToHex(value) : String(value)));
  return fields.length === 0 ? detail.kind : `${detail.kind}(${fields.join(', ')})`;
}

function matchesPattern(actual: string, pattern: string): boolean {
  const expected = pattern.replace(/[()]/g, ' ').trim().split(/[ ,]+/);
  const got = actual.replace(/[()]/g, ' ').trim().split(/[ ,]+/);
  return expected.length === got.length && expected.every((part, i) => part === '_' || part === got[i]);
}

function thrown<E extends Error>(action: () => unknown, type: new (...args: never[]) => E): E {
  try {
    action();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}

function entriesOf(ids: readonly (string | null)[]) {
  return ids.map((id) => ({ covenantId: id === null ? null : hexToBytes(id) }));
}

function outputsOf(tx: Transaction, indices: readonly number[]) {
  return indices.map((index) => ({ index, output: tx.outputs[index]! }));
}

describe('covenant id (consensus/core/src/hashing/covenant_id.rs)', () => {
  it('derived example: preimage and BLAKE2b "CovenantID" hash', () => {
    const outpoint = { transactionId: hexToBytes(derivedIdExample.outpoint.txid), index: derivedIdExample.outpoint.index };
    const outputs = derivedIdExample.authOutputs.map(({ index, output }) => ({
      index,
      output: { value: BigInt(output.value), scriptPublicKey: { version: output.spkVersion, script: hexToBytes(output.script) } },
    }));
    expect(bytesToHex(covenantIdPreimage(outpoint, outputs))).toBe(derivedIdExample.preimage);
    expect(bytesToHex(covenantId(outpoint, outputs))).toBe(derivedIdExample.expectedCovenantId);
  });

  it('the sighash covenant base binds output 0 to the genesis id of input 0', () => {
    const tx = transactionFromVector(toccata.sighashV1.baseTransactions.native_v1_covenant!.tx);
    const binding = tx.outputs[0]!.covenant!;
    expect(bytesToHex(covenantId(tx.inputs[0]!.previousOutpoint, outputsOf(tx, [0])))).toBe(bytesToHex(binding.covenantId));
  });
});

describe('covenants context (crypto/txscript/src/covenants.rs tests)', () => {
  it.each(contextCases.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const tx = transactionFromVector(vector.tx);
    const entries = entriesOf(vector.inputCovenantIds);
    const { expected } = vector;
    if (!expected.valid) {
      const error = thrown(() => CovenantsContext.fromTransaction(tx, entries), CovenantError);
      expect(debugForm(error.detail), error.message).toSatisfy((form: string) => matchesPattern(form, expected.error));
      return;
    }
    const context = CovenantsContext.fromTransaction(tx, entries);
    expect(context.continuationOutputs).toEqual(expected.continuations);
    expect(context.genesisGroups.map((group) => [group.authorizingInput, group.outputs])).toEqual(expected.genesisGroups);
    for (const group of vector.genesisCovenantIds ?? []) {
      const id = bytesToHex(covenantId(tx.inputs[group.authorizingInput]!.previousOutpoint, outputsOf(tx, group.outputs)));
      expect(id).toBe(group.covenantId);
      for (const index of group.outputs) expect(bytesToHex(tx.outputs[index]!.covenant!.covenantId)).toBe(id);
    }
  });

  it('answers the covenant opcodes from continuations only (test_continuation_with_genesis)', () => {
    const vector = contextCases.find((item) => item.name === 'test_continuation_with_genesis')!;
    const tx = transactionFromVector(vector.tx);
    const context = CovenantsContext.fromTransaction(tx, entriesOf(vector.inputCovenantIds));
    const continued = hexToBytes(vector.inputCovenantIds[0]!);
    expect(context.authorizedOutputCount(0)).toBe(1);
    expect(context.authorizedOutputIndex(0, 0)).toBe(0);
    expect(context.covenantInputCount(continued)).toBe(1);
    expect(context.covenantInputIndex(continued, 0)).toBe(0);
    expect(context.covenantOutputCount(continued)).toBe(1);
    expect(context.covenantOutputIndex(continued, 0)).toBe(0);
    const genesisId = tx.outputs[1]!.covenant!.covenantId;
    expect(context.covenantOutputCount(genesisId)).toBe(0);
    expect(context.authorizedOutputCount(1)).toBe(0);
    expect(thrown(() => context.authorizedOutputIndex(0, 1), CovenantError).message).toBe(
      '1 is not a valid covenant output index for input 0 with 1 authorized outputs',
    );
    expect(thrown(() => context.covenantInputIndex(genesisId, 0), CovenantError).kind).toBe('InvalidCovInIndex');
    expect(thrown(() => context.covenantOutputIndex(continued, 1), CovenantError).detail).toEqual({
      kind: 'InvalidCovOutIndex',
      covenantId: continued,
      k: 1,
    });
  });

  it('lists the inputs of a carried covenant even without outputs (test_no_covenant_outputs)', () => {
    const vector = contextCases.find((item) => item.name === 'test_no_covenant_outputs')!;
    const context = CovenantsContext.fromTransaction(transactionFromVector(vector.tx), entriesOf(vector.inputCovenantIds));
    const carried = hexToBytes(vector.inputCovenantIds[0]!);
    expect([context.covenantInputCount(carried), context.covenantOutputCount(carried)]).toEqual([1, 0]);
  });

  it('the empty context authorizes nothing', () => {
    expect(CovenantsContext.EMPTY.authorizedOutputCount(0)).toBe(0);
    expect(CovenantsContext.EMPTY.covenantInputCount(new Uint8Array(32))).toBe(0);
    expect(CovenantsContext.EMPTY.genesisGroups).toEqual([]);
  });
});

describe('populateGenesisCovenants (consensus/core/src/tx.rs::tests::test_populate_genesis_covenants)', () => {
  it('binds each group to the id of its authorizing input and outputs', () => {
    const tx = transactionFromVector(populateGenesis.success.tx);
    const populated = populateGenesisCovenants(tx, populateGenesis.success.groups);
    for (const group of populateGenesis.success.groups) {
      for (const index of group.outputs) {
        expect(populated.outputs[index]!.covenant).toEqual({ authorizingInput: group.authorizingInput, covenantId: hexToBytes(group.covenantId) });
      }
    }
    for (const index of populateGenesis.success.unboundOutputs) expect(populated.outputs[index]!.covenant).toBeNull();
    expect(tx.outputs.every((output) => !output.covenant)).toBe(true);
    const context = CovenantsContext.fromTransaction(populated, tx.inputs.map(() => ({ covenantId: null })));
    expect(context.genesisGroups.map((group) => group.outputs)).toEqual(populateGenesis.success.groups.map((group) => group.outputs));
  });

  it.each(populateGenesis.errors.map((vector) => [vector.expectedError, vector] as const))('rejects with %s', (expectedError, vector) => {
    const tx = transactionFromVector(vector.tx);
    const error = thrown(() => populateGenesisCovenants(tx, vector.groups), PopulateGenesisCovenantsError);
    expect(debugForm(error.detail)).toBe(expectedError);
  });

  it('checks every group before binding any, and accepts what the context check accepts', () => {
    const outpoint = (seed: number): Transaction['inputs'][number] => ({
      previousOutpoint: { transactionId: new Uint8Array(32).fill(seed), index: seed },
      signatureScript: new Uint8Array(0),
      sequence: 0n,
      sigOpCount: 0,
      computeBudget: 0,
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }),
        (inputCount, assignment) => {
          const tx: Transaction = {
            version: 1,
            inputs: Array.from({ length: inputCount }, (_, i) => outpoint(i + 1)),
            outputs: assignment.map((_, i) => ({ value: BigInt(i + 1), scriptPublicKey: { version: 0, script: Uint8Array.of(i) }, covenant: null })),
            lockTime: 0n,
            subnetworkId: new Uint8Array(20),
            gas: 0n,
            payload: new Uint8Array(0),
            storageMass: 0n,
          };
          const groups = new Map<number, number[]>();
          assignment.forEach((group, index) => {
            if (group > 0) groups.set(group, [...(groups.get(group) ?? []), index]);
          });
          const requests = [...groups.entries()].map(([group, outputs]) => ({ authorizingInput: (group - 1) % inputCount, outputs }));
          const populated = populateGenesisCovenants(tx, requests);
          const context = CovenantsContext.fromTransaction(populated, tx.inputs.map(() => ({ covenantId: null as Hash | null })));
          expect(context.continuationOutputs).toEqual([]);
          expect(context.genesisGroups.flatMap((group) => group.outputs).sort()).toEqual(requests.flatMap((request) => request.outputs).sort());
          const broken = [...requests, { authorizingInput: inputCount, outputs: [0] }];
          expect(() => populateGenesisCovenants(tx, broken)).toThrow(PopulateGenesisCovenantsError);
        },
      ),
    );
  });
});
