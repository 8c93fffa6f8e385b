import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SOMPI, SOMPI_PER_KAS } from './amount';
import {
  allowedScriptUnits,
  blockMassLimits,
  coveringComputeBudget,
  CRESCENDO_BLOCK_MASS_LIMITS,
  CRESCENDO_MINIMUM_RELAY_FEE_SOMPI_PER_KG,
  computeMass,
  FREE_SCRIPT_UNITS_PER_INPUT,
  MAX_COMPUTE_BUDGET,
  SCRIPT_UNITS_PER_COMPUTE_BUDGET_UNIT,
  TOCCATA_BLOCK_MASS_LIMITS,
  minimumRelayTransactionFee,
  normalizedMass,
  relayFeeMass,
  storageMass,
  transactionEstimatedSerializedSize,
  transactionMass,
  transactionStorageMass,
  transientMass,
  utxoPlurality,
  type BlockMassLimits,
  type UtxoCell,
} from './mass';
import { toccata, utxoEntryFromToccataVector } from './test-support/toccata-vectors';
import { readVectors, transactionFromVector, type TransactionVector } from './test-support/vectors';
import { SUBNETWORK_ID_COINBASE, type Transaction, type TransactionOutput, type UtxoEntry } from './types';

interface MassVectors {
  storageMass: {
    vectors: { name: string; inputAmounts: string[]; outputAmounts: string[]; storageMassParameter: string; expectedStorageMass: string }[];
    pluralityChecks: { vectors: { scriptLen: number; covenant: boolean; expected: number }[] };
  };
  computeMassExamples: {
    vectors: {
      name: string;
      tx: TransactionVector;
      estimatedSerializedSize: number;
      computeMass: number;
      transientMass: number;
      minRelayFeeSompiPostToccata: number;
    }[];
  };
}

const vectors = readVectors<MassVectors>('kaspa-vectors.json');

const standardCell = (amount: bigint): UtxoCell => ({ plurality: 1n, amount });
const script = (length: number) => ({ version: 0, script: new Uint8Array(length).fill(1) });

function entry(amount: bigint, scriptLength = 34): UtxoEntry {
  return { amount, scriptPublicKey: script(scriptLength), blockDaaScore: 0n, isCoinbase: false };
}

function output(value: bigint, scriptLength = 34): TransactionOutput {
  return { value, scriptPublicKey: script(scriptLength), covenant: null };
}

const exampleTx = () => transactionFromVector(vectors.computeMassExamples.vectors[0]!.tx);

describe('storage mass (mass/mod.rs::test_storage_mass)', () => {
  it.each(vectors.storageMass.vectors)('$name', (vector) => {
    const mass = storageMass(
      vector.inputAmounts.map((amount) => standardCell(BigInt(amount))),
      vector.outputAmounts.map((amount) => standardCell(BigInt(amount))),
      BigInt(vector.storageMassParameter),
    );
    expect(mass).toBe(BigInt(vector.expectedStorageMass));
  });

  it('computes UTXO pluralities (verify_utxo_plurality_limits)', () => {
    for (const vector of vectors.storageMass.pluralityChecks.vectors) {
      expect(utxoPlurality(script(vector.scriptLen), vector.covenant)).toBe(BigInt(vector.expected));
    }
  });

  // mass/mod.rs::tests::test_storage_mass_pluralities: a UTXO of plurality p weighs as much as p UTXOs sharing its amount.
  const pluralityCases: { name: string; plain: [number[], number[]]; merged: [number[], number[]]; index: number; plurality: number; output: boolean; unit: bigint }[] = [
    { name: '3:4; input index=1, plurality=2', plain: [[300, 200, 200], [200, 200, 200, 100]], merged: [[300, 400], [200, 200, 200, 100]], index: 1, plurality: 2, output: false, unit: 1n },
    { name: '2:3; output index=1, plurality=2', plain: [[350, 400], [300, 200, 200]], merged: [[350, 400], [300, 400]], index: 1, plurality: 2, output: true, unit: 1n },
    { name: '1:2; output index=0, plurality=2', plain: [[500], [200, 200]], merged: [[500], [400]], index: 0, plurality: 2, output: true, unit: 1n },
    { name: '1:3; output index=1, plurality=2', plain: [[1000], [200, 200, 200]], merged: [[1000], [200, 400]], index: 1, plurality: 2, output: true, unit: 1n },
    { name: '1:3; output index=1, plurality=2; kas units', plain: [[1000], [200, 200, 200]], merged: [[1000], [200, 400]], index: 1, plurality: 2, output: true, unit: SOMPI_PER_KAS },
    { name: '1:2; output index=0, plurality=2; kas units', plain: [[1000], [200, 200]], merged: [[1000], [400]], index: 0, plurality: 2, output: true, unit: SOMPI_PER_KAS },
    { name: '2:2; output index=0, plurality=2; kas units', plain: [[350, 500], [200, 200]], merged: [[350, 500], [400]], index: 0, plurality: 2, output: true, unit: SOMPI_PER_KAS },
    { name: '4:6; output index=0, plurality=3; kas units', plain: [[350, 500, 350, 500], [200, 200, 400, 250, 250, 250]], merged: [[350, 500, 350, 500], [200, 200, 400, 750]], index: 3, plurality: 3, output: true, unit: SOMPI_PER_KAS },
  ];

  it.each(pluralityCases)('treats a plurality-p UTXO as p UTXOs: $name', (testCase) => {
    const toCells = (amounts: number[]) => amounts.map((amount) => standardCell(BigInt(amount) * testCase.unit));
    const plainMass = storageMass(toCells(testCase.plain[0]), toCells(testCase.plain[1]));
    const [mergedInputs, mergedOutputs] = [toCells(testCase.merged[0]), toCells(testCase.merged[1])];
    const widened = testCase.output ? mergedOutputs : mergedInputs;
    const scriptForPlurality = script((testCase.plurality - 1) * 100);
    widened[testCase.index]!.plurality = utxoPlurality(scriptForPlurality, false);
    expect(widened[testCase.index]!.plurality).toBe(BigInt(testCase.plurality));
    expect(plainMass).not.toBe(0n);
    expect(storageMass(mergedInputs, mergedOutputs)).toBe(plainMass);
  });

  it('returns null when the output harmonic sum overflows u64', () => {
    expect(storageMass([standardCell(1n)], [standardCell(1n), standardCell(1n)], 1n << 63n)).toBeNull();
    expect(storageMass([standardCell(1n)], [{ plurality: 1n << 32n, amount: 1n }])).toBeNull();
  });

  it('rejects zero amounts and missing inputs', () => {
    expect(() => storageMass([], [standardCell(1n)])).toThrow(RangeError);
    expect(() => storageMass([standardCell(0n)], [standardCell(1n)])).toThrow(RangeError);
    expect(() => storageMass([standardCell(1n)], [standardCell(0n)])).toThrow(RangeError);
  });

  const arbAmount = fc.bigInt({ min: 1n, max: MAX_SOMPI });
  const arbCells = (min: number) => fc.array(arbAmount.map(standardCell), { minLength: min, maxLength: 5 });

  it('never rises when an output grows, never falls when an input grows', () => {
    fc.assert(
      fc.property(arbCells(1), arbCells(1), fc.nat(4), arbAmount, (inputs, outputs, index, extra) => {
        const base = storageMass(inputs, outputs)!;
        expect(base >= 0n).toBe(true);
        const outputIndex = index % outputs.length;
        const biggerOutputs = outputs.map((cell, i) => (i === outputIndex ? standardCell(cell.amount + extra) : cell));
        expect(storageMass(inputs, biggerOutputs)! <= base).toBe(true);
        const inputIndex = index % inputs.length;
        const biggerInputs = inputs.map((cell, i) => (i === inputIndex ? standardCell(cell.amount + extra) : cell));
        expect(storageMass(biggerInputs, outputs)! >= base).toBe(true);
      }),
    );
  });

  it('charges nothing for consolidating into one output at least as large as every input', () => {
    fc.assert(
      fc.property(arbCells(2), (inputs) => {
        const total = inputs.reduce((sum, cell) => sum + cell.amount, 0n);
        expect(storageMass(inputs, [standardCell(total)])).toBe(0n);
      }),
    );
  });

  it('computes a transaction storage mass from its spent entries, with covenant-aware plurality', () => {
    const tx = exampleTx();
    const entries = [entry(1_000_000_000n)];
    const expected = storageMass(
      [standardCell(1_000_000_000n)],
      tx.outputs.map((out) => standardCell(out.value)),
    );
    expect(transactionStorageMass(tx, entries)).toBe(expected);
    const covenanted = { ...entries[0]!, scriptPublicKey: script(40), covenantId: new Uint8Array(32) };
    expect(transactionStorageMass(tx, [covenanted])).toBe(
      storageMass([{ plurality: 2n, amount: 1_000_000_000n }], tx.outputs.map((out) => standardCell(out.value))),
    );
    expect(() => transactionStorageMass(tx, [])).toThrow(RangeError);
  });
});

describe('compute and transient mass', () => {
  it.each(vectors.computeMassExamples.vectors)('$name', (vector) => {
    const tx = transactionFromVector(vector.tx);
    expect(transactionEstimatedSerializedSize(tx)).toBe(BigInt(vector.estimatedSerializedSize));
    expect(computeMass(tx)).toBe(BigInt(vector.computeMass));
    expect(transientMass(tx)).toBe(BigInt(vector.transientMass));
    const masses = transactionMass(tx, [entry(1_000_000_000n)]);
    expect(masses.compute).toBe(BigInt(vector.computeMass));
    expect(minimumRelayTransactionFee(relayFeeMass(masses))).toBe(BigInt(vector.minRelayFeeSompiPostToccata));
  });

  it('charges coinbase transactions nothing', () => {
    const coinbase: Transaction = { ...exampleTx(), inputs: [], subnetworkId: SUBNETWORK_ID_COINBASE };
    expect(transactionMass(coinbase, [])).toEqual({ compute: 0n, transient: 0n, storage: 0n });
  });

  it('grows by exactly the size and script cost of each added output', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.bigInt({ min: 1n, max: MAX_SOMPI }), fc.boolean(), (scriptLength, value, covenanted) => {
        const tx = exampleTx();
        const added = output(value, scriptLength);
        if (covenanted) added.covenant = { authorizingInput: 0, covenantId: new Uint8Array(32) };
        const bigger: Transaction = { ...tx, outputs: [...tx.outputs, added] };
        const sizeDelta = BigInt(18 + scriptLength + (covenanted ? 34 : 0));
        expect(transactionEstimatedSerializedSize(bigger) - transactionEstimatedSerializedSize(tx)).toBe(sizeDelta);
        expect(computeMass(bigger) - computeMass(tx)).toBe(sizeDelta + BigInt(2 + scriptLength) * 10n);
        expect(transientMass(bigger) - transientMass(tx)).toBe(sizeDelta * 4n);
      }),
    );
  });

  it('charges 1000 grams per v0 sig op and 100 grams per v1 compute-budget unit', () => {
    const v0 = exampleTx();
    const moreSigOps: Transaction = { ...v0, inputs: v0.inputs.map((input) => ({ ...input, sigOpCount: input.sigOpCount + 2 })) };
    expect(computeMass(moreSigOps) - computeMass(v0)).toBe(2000n);
    const v1 = transactionFromVector(vectors.computeMassExamples.vectors[1]!.tx);
    const moreBudget: Transaction = { ...v1, inputs: v1.inputs.map((input) => ({ ...input, computeBudget: (input.computeBudget ?? 0) + 5 })) };
    expect(computeMass(moreBudget) - computeMass(v1)).toBe(500n);
  });
});

describe('normalized mass (mass/mod.rs::test_mass_cofactors, test_normalized_max_ranking)', () => {
  const cases: BlockMassLimits[] = [
    { storage: 500_000n, compute: 500_000n, transient: 500_000n },
    { storage: 1_000_000n, compute: 500_000n, transient: 250_000n },
    { storage: 123_456n, compute: 78_901n, transient: 45_678n },
    { storage: 333_333n, compute: 77_777n, transient: 12_345n },
    { storage: 1_048_575n, compute: 524_287n, transient: 262_143n },
  ];

  it.each(cases)('maps a transaction filling one dimension to the compute limit (%o)', (limits) => {
    const zero = { compute: 0n, transient: 0n, storage: 0n };
    expect(normalizedMass({ ...zero, storage: limits.storage }, limits)).toBe(limits.compute);
    expect(normalizedMass({ ...zero, compute: limits.compute }, limits)).toBe(limits.compute);
    expect(normalizedMass({ ...zero, transient: limits.transient }, limits)).toBe(limits.compute);
  });

  it('ranks transactions by their bottleneck dimension', () => {
    const limits = cases[1]!;
    const zero = { compute: 0n, transient: 0n, storage: 0n };
    expect(normalizedMass({ ...zero, storage: 500_000n }, limits)).toBe(250_000n);
    expect(normalizedMass({ ...zero, compute: 300_000n }, limits)).toBe(300_000n);
    expect(normalizedMass({ ...zero, transient: 200_000n }, limits)).toBe(400_000n);
  });

  it('charges the relay fee on transient mass at half weight under the Toccata limits', () => {
    expect(relayFeeMass({ compute: 100n, transient: 1001n })).toBe(501n);
    expect(relayFeeMass({ compute: 600n, transient: 1001n })).toBe(600n);
  });
});

describe('minimum relay fee (check_transaction_standard.rs::test_calc_min_required_tx_relay_fee)', () => {
  it.each([
    { mass: 250n, rate: 3n, want: 3n },
    { mass: 1500n, rate: 5000n, want: 7500n },
    { mass: 1500n, rate: 3000n, want: 4500n },
    { mass: 782n, rate: 5000n, want: 3910n },
    { mass: 782n, rate: 3000n, want: 2346n },
    { mass: 782n, rate: 2550n, want: 1994n },
  ])('mass $mass at $rate sompi/kg costs $want', ({ mass, rate, want }) => {
    expect(minimumRelayTransactionFee(mass, rate)).toBe(want);
  });

  it('defaults to 100 sompi per gram, with the Crescendo-era 1 sompi per gram available', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 9n }), (mass) => {
        expect(minimumRelayTransactionFee(mass)).toBe(mass * 100n);
        expect(minimumRelayTransactionFee(mass, CRESCENDO_MINIMUM_RELAY_FEE_SOMPI_PER_KG)).toBe(mass);
      }),
    );
    expect(minimumRelayTransactionFee(0n)).toBe(100_000n);
    expect(minimumRelayTransactionFee(1n << 62n)).toBe(MAX_SOMPI);
  });
});

describe('Toccata mass (toccata-vectors mass; mass/mod.rs, mass/units.rs)', () => {
  it.each(toccata.mass.pluralityCases)('plurality of a $scriptLen-byte script (covenant: $covenant) is $expected', (vector) => {
    expect(utxoPlurality(script(vector.scriptLen), vector.covenant)).toBe(BigInt(vector.expected));
  });

  it.each(toccata.mass.computeBudgetCovering)('$scriptUnits script units need compute budget $expectedBudget', (vector) => {
    const budget = coveringComputeBudget(BigInt(vector.scriptUnits));
    expect(budget === null ? null : String(budget)).toBe(vector.expectedBudget);
  });

  it.each(toccata.mass.derivedExamples)('$name', (vector) => {
    const tx = transactionFromVector(vector.tx);
    const entries = vector.utxoEntries.map(utxoEntryFromToccataVector);
    expect(transactionEstimatedSerializedSize(tx)).toBe(BigInt(vector.estimatedSerializedSize));
    expect(transactionMass(tx, entries)).toEqual({
      compute: BigInt(vector.computeMass),
      transient: BigInt(vector.transientMass),
      storage: BigInt(vector.storageMass),
    });
    expect(allowedScriptUnits(tx.inputs[0]!)).toBe(BigInt(vector.allowedScriptUnitsInput0));
  });

  it('the covering budget is the least budget whose allowance covers the units', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 700_000_000n }), (units) => {
        const budget = coveringComputeBudget(units);
        const allowance = (b: number) => allowedScriptUnits({ ...exampleTx().inputs[0]!, computeBudget: b });
        if (budget === null) {
          expect(units > allowance(MAX_COMPUTE_BUDGET)).toBe(true);
          return;
        }
        expect(allowance(budget) >= units).toBe(true);
        if (budget > 0) expect(allowance(budget - 1) < units).toBe(true);
      }),
    );
  });

  it('allows v0 inputs 100,000 units per sig-op and every input a free allowance below one budget unit', () => {
    const input = { ...exampleTx().inputs[0]!, computeBudget: undefined };
    expect(allowedScriptUnits({ ...input, sigOpCount: 2 })).toBe(200_000n + FREE_SCRIPT_UNITS_PER_INPUT);
    expect(FREE_SCRIPT_UNITS_PER_INPUT).toBe(SCRIPT_UNITS_PER_COMPUTE_BUDGET_UNIT - 1n);
  });

  it('raises only the transient block limit at Toccata (params.rs new_transient_mass_limit)', () => {
    expect(blockMassLimits(true)).toEqual({ ...CRESCENDO_BLOCK_MASS_LIMITS, transient: 1_000_000n });
    expect(blockMassLimits(true)).toBe(TOCCATA_BLOCK_MASS_LIMITS);
    expect(blockMassLimits(false)).toBe(CRESCENDO_BLOCK_MASS_LIMITS);
  });
});
