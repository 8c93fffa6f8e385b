import { describe, expect, it } from 'vitest';
import { payToPublicKeyScript, payToScriptHashScript } from '../../kaspa/address';
import { MAX_SOMPI } from '../../kaspa/amount';
import { computeMass, transactionStorageMass, transientMass } from '../../kaspa/mass';
import { hexToBytes, readVectors, transactionFromVector, type TransactionVector } from '../../kaspa/test-support/vectors';
import type { Transaction, UtxoEntry } from '../../kaspa/types';
import {
  defaultMempoolConfig,
  limitErrorInContext,
  limitErrorInIsolation,
  mempoolBlockMassLimits,
  nonStandardReasonInContext,
  nonStandardReasonInIsolation,
  relayFeeFloor,
  relayFeeRule,
  standardMassCap,
} from './mempool-policy';
import { CRESCENDO_PARAMS, FORK_ALWAYS, FORK_NEVER } from '../consensus/params';

const configWith = (toccataActivation: bigint) => defaultMempoolConfig({ ...CRESCENDO_PARAMS, toccataActivation });

/** 30 minutes and 24 hours of DAA score at 10 blocks per second. */
const RELAXATION_WINDOW = 18_000n;
const MEMPOOL_DELAY = 864_000n;
const ACTIVATION = 1_000_000n;

describe('relay fee floor (check_transaction_standard.rs)', () => {
  it('charges 100 sompi per gram of compute mass when compute dominates', () => {
    expect(relayFeeFloor({ compute: 2036n, transient: 1264n })).toEqual({ minimumFee: 203_600n, mass: 2036n, dimension: 'compute' });
  });

  it('charges 100 sompi per gram of 2 × bytes (transient / 2, rounded up) when bytes dominate', () => {
    expect(relayFeeFloor({ compute: 3624n, transient: 4n * 2264n })).toEqual({
      minimumFee: 452_800n,
      mass: 4528n,
      dimension: 'transient',
    });
    // Transient mass is 4 × bytes, but the normalization rounds up any transient mass.
    expect(relayFeeFloor({ compute: 0n, transient: 3n }).mass).toBe(2n);
  });

  it('counts a tie as compute, charges a massless transaction the rate itself and caps at the maximum supply', () => {
    expect(relayFeeFloor({ compute: 500n, transient: 1000n }).dimension).toBe('compute');
    expect(relayFeeFloor({ compute: 0n, transient: 0n }).minimumFee).toBe(100_000n);
    expect(relayFeeFloor({ compute: 30_000_000_000_000_000n, transient: 0n }).minimumFee).toBe(MAX_SOMPI);
  });

  it('keeps the legacy P2P rule: 1 sompi per gram of compute mass only', () => {
    expect(relayFeeFloor({ compute: 2036n, transient: 40_000n }, 'legacy')).toEqual({ minimumFee: 2036n, mass: 2036n, dimension: 'compute' });
  });

  it('applies the legacy rule only to low-priority transactions before activation', () => {
    const crossing = configWith(ACTIVATION);
    expect(relayFeeRule(crossing, 'high', 0n)).toBe('toccata');
    expect(relayFeeRule(crossing, 'low', ACTIVATION - 1n)).toBe('legacy');
    expect(relayFeeRule(crossing, 'low', ACTIVATION)).toBe('toccata');
    // A 2.0.1 node on a network where Toccata never activates still charges RPC submissions the new floor.
    expect(relayFeeRule(configWith(FORK_NEVER), 'high', 10n ** 12n)).toBe('toccata');
    expect(relayFeeRule(configWith(FORK_NEVER), 'low', 10n ** 12n)).toBe('legacy');
    expect(relayFeeRule(configWith(FORK_ALWAYS), 'low', 0n)).toBe('toccata');
  });
});

describe('activation-dependent limits', () => {
  it('keeps the 100,000 standard mass cap until 30 minutes of DAA score before activation', () => {
    const crossing = configWith(ACTIVATION);
    expect(standardMassCap(crossing, ACTIVATION - RELAXATION_WINDOW - 1n)).toBe(100_000n);
    expect(standardMassCap(crossing, ACTIVATION - RELAXATION_WINDOW)).toBeNull();
    expect(standardMassCap(crossing, ACTIVATION + 1n)).toBeNull();
    expect(standardMassCap(configWith(FORK_NEVER), 10n ** 12n)).toBe(100_000n);
    expect(standardMassCap(configWith(FORK_ALWAYS), 0n)).toBeNull();
    // An activation closer to genesis than the window is relaxed from the start.
    expect(standardMassCap(configWith(5n), 0n)).toBeNull();
  });

  it('takes the 1,000,000 transient block limit only 24 hours of DAA score after activation', () => {
    const crossing = configWith(ACTIVATION);
    const crescendo = { compute: 500_000n, storage: 500_000n, transient: 500_000n };
    const toccata = { compute: 500_000n, storage: 500_000n, transient: 1_000_000n };
    expect(mempoolBlockMassLimits(crossing, ACTIVATION)).toEqual(crescendo);
    expect(mempoolBlockMassLimits(crossing, ACTIVATION + MEMPOOL_DELAY - 1n)).toEqual(crescendo);
    expect(mempoolBlockMassLimits(crossing, ACTIVATION + MEMPOOL_DELAY)).toEqual(toccata);
    expect(mempoolBlockMassLimits(configWith(FORK_ALWAYS), 0n)).toEqual(toccata);
    expect(mempoolBlockMassLimits(configWith(FORK_NEVER), 10n ** 12n)).toEqual(crescendo);
  });
});

describe('block-fit limits (check_transaction_limits.rs)', () => {
  const base: Transaction = {
    version: 0,
    inputs: [],
    outputs: [],
    lockTime: 0n,
    subnetworkId: new Uint8Array(20),
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  const always = configWith(FORK_ALWAYS);
  const never = configWith(FORK_NEVER);

  it('refuses gas above 1e9 per lane, accepting exactly the limit', () => {
    expect(limitErrorInIsolation({ ...base, gas: 1_000_000_000n }, { compute: 1n, transient: 1n }, always, 0n)).toBeNull();
    expect(limitErrorInIsolation({ ...base, gas: 1_000_000_001n }, { compute: 1n, transient: 1n }, always, 0n)).toMatchObject({
      kind: 'RejectGas',
      message: 'transaction gas of 1000000001 is larger than max allowed per-lane gas of 1000000000',
    });
  });

  it('refuses compute and transient masses a block cannot hold, with the limits in force', () => {
    expect(limitErrorInIsolation(base, { compute: 500_000n, transient: 500_000n }, never, 0n)).toBeNull();
    expect(limitErrorInIsolation(base, { compute: 500_001n, transient: 1n }, always, 0n)).toMatchObject({
      kind: 'RejectComputeMass',
      message: 'transaction compute mass of 500001 is larger than max allowed size of 500000',
    });
    expect(limitErrorInIsolation(base, { compute: 1n, transient: 500_001n }, never, 0n)).toMatchObject({
      kind: 'RejectTransientMass',
      message: 'transaction transient (storage) mass of 500001 is larger than max allowed size of 500000',
    });
    expect(limitErrorInIsolation(base, { compute: 1n, transient: 1_000_000n }, always, 0n)).toBeNull();
  });

  it('refuses a storage mass above 500,000 once consensus computed it', () => {
    expect(limitErrorInContext(500_000n, always, 0n)).toBeNull();
    expect(limitErrorInContext(500_001n, always, 0n)).toMatchObject({
      kind: 'RejectStorageMass',
      message: 'transaction storage mass of 500001 is larger than max allowed size of 500000',
    });
  });
});

interface MassVectors {
  mass: {
    derivedExamples: {
      name: string;
      tx: TransactionVector;
      utxoEntries: { amount: string; scriptPublicKey: { version: number; script: string }; covenantId: string | null }[];
      computeMass: string;
      transientMass: string;
    }[];
  };
}

describe('standardness of a version-1 transaction (compute budget, covenant output)', () => {
  const [example] = readVectors<MassVectors>('toccata-vectors.json').mass.derivedExamples;
  const tx = transactionFromVector(example!.tx);
  const entries: UtxoEntry[] = example!.utxoEntries.map((entry) => ({
    amount: BigInt(entry.amount),
    scriptPublicKey: { version: entry.scriptPublicKey.version, script: hexToBytes(entry.scriptPublicKey.script) },
    blockDaaScore: 0n,
    isCoinbase: false,
  }));
  const masses = { compute: computeMass(tx), transient: transientMass(tx), storage: transactionStorageMass(tx, entries)! };
  const config = configWith(FORK_ALWAYS);

  it('measures the vector example as lib/kaspa does (compute budget 10 counted at 100 g a unit)', () => {
    expect(masses.compute).toBe(BigInt(example!.computeMass));
    expect(masses.transient).toBe(BigInt(example!.transientMass));
  });

  it('is standard in isolation: a P2PK output bound to a covenant, version 1 (versions are consensus matters now)', () => {
    expect(nonStandardReasonInIsolation(tx, masses, config, 0n)).toBeNull();
  });

  it('pays 100 sompi per gram of compute mass: exactly the floor passes, one sompi less fails with kaspad’s reason', () => {
    const floor = 100n * masses.compute;
    expect(nonStandardReasonInContext(tx, entries, { masses, fee: floor, priority: 'high' }, config, 0n)).toBeNull();
    expect(nonStandardReasonInContext(tx, entries, { masses, fee: floor - 1n, priority: 'high' }, config, 0n)).toBe(
      `transaction has ${floor - 1n} fees which is under the required amount of ${floor} for compute mass ${masses.compute}`,
    );
  });

  it('refuses a non-standard output script whatever the version', () => {
    const bare = { ...tx, outputs: [{ ...tx.outputs[0]!, scriptPublicKey: { version: 0, script: Uint8Array.of(0x51) } }] };
    expect(nonStandardReasonInIsolation(bare, masses, config, 0n)).toBe('transaction output #0: non-standard script form');
    const newer = { ...tx, outputs: [{ ...tx.outputs[0]!, scriptPublicKey: { ...payToPublicKeyScript(new Uint8Array(32)), version: 1 } }] };
    expect(nonStandardReasonInIsolation(newer, masses, config, 0n)).toBe(
      'transaction output #0: the version of the scriptPublicKey is higher than the known version',
    );
  });
});

describe('standardness rules of kaspad 2.0.1, each passing and failing', () => {
  const spk = payToPublicKeyScript(new Uint8Array(32).fill(1));
  const entry = (scriptPublicKey = spk): UtxoEntry => ({ amount: 10n ** 9n, scriptPublicKey, blockDaaScore: 0n, isCoinbase: false });
  const tx = (signatureScript = new Uint8Array(66)): Transaction => ({
    version: 0,
    inputs: [{ previousOutpoint: { transactionId: new Uint8Array(32), index: 0 }, signatureScript, sequence: 0n, sigOpCount: 1 }],
    outputs: [{ value: 10n ** 8n, scriptPublicKey: spk }],
    lockTime: 0n,
    subnetworkId: new Uint8Array(20),
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  });
  const never = configWith(FORK_NEVER);
  const small = { compute: 2000n, transient: 1000n, storage: 0n };
  const facts = (masses = small) => ({ masses, fee: 10n ** 8n, priority: 'high' as const });

  it('holds compute and transient mass to the cap in isolation while it applies', () => {
    expect(nonStandardReasonInIsolation(tx(), { compute: 100_000n, transient: 100_000n }, never, 0n)).toBeNull();
    expect(nonStandardReasonInIsolation(tx(), { compute: 100_001n, transient: 1n }, never, 0n)).toBe(
      'transaction compute mass of 100001 is larger than max allowed size of 100000',
    );
    expect(nonStandardReasonInIsolation(tx(), { compute: 100_001n, transient: 1n }, configWith(FORK_ALWAYS), 0n)).toBeNull();
  });

  it('holds storage mass to the cap in context while it applies', () => {
    expect(nonStandardReasonInContext(tx(), [entry()], facts({ ...small, storage: 100_000n }), never, 0n)).toBeNull();
    expect(nonStandardReasonInContext(tx(), [entry()], facts({ ...small, storage: 100_001n }), never, 0n)).toBe(
      'transaction storage mass of 100001 is larger than max allowed size of 100000',
    );
  });

  it('refuses spending a non-standard script', () => {
    expect(nonStandardReasonInContext(tx(), [entry({ version: 0, script: Uint8Array.of(0x51) })], facts(), never, 0n)).toBe(
      'transaction input 0: non-standard script form',
    );
  });

  it('holds a P2SH input to 15 sig ops by the static scan of its redeem script', () => {
    const p2shSpend = (checks: number) => {
      const redeem = new Uint8Array(checks).fill(0xac);
      return { spend: tx(Uint8Array.of(redeem.length, ...redeem)), spent: entry(payToScriptHashScript(redeem)) };
    };
    const fifteen = p2shSpend(15);
    expect(nonStandardReasonInContext(fifteen.spend, [fifteen.spent], facts(), never, 0n)).toBeNull();
    const sixteen = p2shSpend(16);
    expect(nonStandardReasonInContext(sixteen.spend, [sixteen.spent], facts(), never, 0n)).toBe(
      'transaction input #0 has 16 signature operations which is more than the allowed max amount of 15',
    );
  });
});
