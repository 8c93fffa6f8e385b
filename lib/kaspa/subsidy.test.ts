import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockSubsidy,
  DEVNET_SUBSIDY_PARAMS,
  MAINNET_SUBSIDY_PARAMS,
  nextSubsidyChange,
  SECONDS_PER_MONTH,
  subsidyParamsFor,
  TESTNET_SUBSIDY_PARAMS,
  SUBSIDY_BY_MONTH_TABLE,
  type SubsidyParams,
} from './subsidy';
import { readVectors } from './test-support/vectors';

interface SubsidyVector {
  daaScore: string;
  expectedSubsidy: string;
}

interface Vectors {
  subsidy: {
    subsidyByMonthTable1Bps: string[];
    constants: {
      secondsPerMonth: number;
      deflationaryPhaseDaaScore: string;
      preDeflationaryPhaseBaseSubsidy: string;
      crescendoActivationMainnet: string;
      bpsBefore: number;
      bpsAfter: number;
    };
    legacy1BpsVectors: { vectors: SubsidyVector[] };
    mainnetDerived: { vectors: SubsidyVector[] };
  };
}

const { subsidy } = readVectors<Vectors>('kaspa-vectors.json');

const NEVER = (1n << 64n) - 1n;
const MAINNET_WITHOUT_CRESCENDO: SubsidyParams = { ...MAINNET_SUBSIDY_PARAMS, crescendoActivationDaaScore: NEVER };
/** Mainnet's subsidy reaches 0 at DAA score 10,340,361,000. */
const scheduleArb = fc.bigInt({ min: 0n, max: 12_000_000_000n });

describe('subsidy table and mainnet params (consensus/src/processes/coinbase.rs, config/params.rs)', () => {
  it('holds the 426-month 1 BPS table', () => {
    expect(SUBSIDY_BY_MONTH_TABLE.map(String)).toEqual(subsidy.subsidyByMonthTable1Bps);
  });

  it('uses the mainnet constants', () => {
    const { constants } = subsidy;
    expect(SECONDS_PER_MONTH).toBe(BigInt(constants.secondsPerMonth));
    expect(MAINNET_SUBSIDY_PARAMS).toEqual({
      deflationaryPhaseDaaScore: BigInt(constants.deflationaryPhaseDaaScore),
      preDeflationaryPhaseBaseSubsidy: BigInt(constants.preDeflationaryPhaseBaseSubsidy),
      crescendoActivationDaaScore: BigInt(constants.crescendoActivationMainnet),
      bpsBeforeCrescendo: BigInt(constants.bpsBefore),
      bpsAfterCrescendo: BigInt(constants.bpsAfter),
    });
  });
});

describe('mainnet with Crescendo never active (coinbase.rs::subsidy_test)', () => {
  it.each(subsidy.legacy1BpsVectors.vectors.map((vector) => [vector.daaScore, vector] as const))(
    'DAA score %s',
    (_score, vector) => {
      expect(blockSubsidy(BigInt(vector.daaScore), MAINNET_WITHOUT_CRESCENDO)).toBe(BigInt(vector.expectedSubsidy));
    },
  );
});

describe('mainnet schedule across Crescendo (derived vectors)', () => {
  it.each(subsidy.mainnetDerived.vectors.map((vector) => [vector.daaScore, vector] as const))(
    'DAA score %s',
    (_score, vector) => {
      expect(blockSubsidy(BigInt(vector.daaScore))).toBe(BigInt(vector.expectedSubsidy));
    },
  );

  it('matches the 1 BPS schedule before activation (coinbase.rs::calculate_emission)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAINNET_SUBSIDY_PARAMS.crescendoActivationDaaScore - 1n }), (daaScore) => {
        expect(blockSubsidy(daaScore)).toBe(blockSubsidy(daaScore, MAINNET_WITHOUT_CRESCENDO));
      }),
      { numRuns: 200 },
    );
  });

  it('pays a tenth of the 1 BPS month value, rounded up, after activation', () => {
    const activation = MAINNET_SUBSIDY_PARAMS.crescendoActivationDaaScore;
    const deflation = MAINNET_SUBSIDY_PARAMS.deflationaryPhaseDaaScore;
    fc.assert(
      fc.property(fc.bigInt({ min: activation, max: NEVER }), (daaScore) => {
        const seconds = activation - deflation + (daaScore - activation) / 10n;
        const month = seconds / SECONDS_PER_MONTH;
        const perSecond = SUBSIDY_BY_MONTH_TABLE[Number(month < 425n ? month : 425n)]!;
        expect(blockSubsidy(daaScore)).toBe((perSecond + 9n) / 10n);
      }),
      { numRuns: 200 },
    );
  });

  it('never increases with the DAA score', () => {
    fc.assert(
      fc.property(scheduleArb, scheduleArb, (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(blockSubsidy(low) >= blockSubsidy(high)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('devnet: 10 BPS and Crescendo from DAA score 0 (coinbase.rs::subsidy_test at bps = 10)', () => {
  const blocksPerHalving = SECONDS_PER_MONTH * 12n * 10n;
  const cases: [string, bigint, bigint][] = [
    ['start of deflationary phase', 0n, 4_400_000_000n],
    ['first mined block', 1n, 4_400_000_000n],
    ['after one halving', blocksPerHalving, 2_200_000_000n],
    ['after 2 halvings', 2n * blocksPerHalving, 1_100_000_000n],
    ['after 5 halvings', 5n * blocksPerHalving, 4_400_000_000n / 32n],
    ['after 32 halvings', 32n * blocksPerHalving, (44_000_000_000n / 2n ** 32n + 9n) / 10n],
    ['just before subsidy depleted', 35n * blocksPerHalving, 1n],
    ['after subsidy depleted', 36n * blocksPerHalving, 0n],
  ];

  it.each(cases)('%s', (_name, daaScore, expected) => {
    expect(blockSubsidy(daaScore, DEVNET_SUBSIDY_PARAMS)).toBe(expected);
  });
});

describe('the next reward reduction', () => {
  it('is the first DAA score whose subsidy differs', () => {
    fc.assert(
      fc.property(scheduleArb, (daaScore) => {
        const next = nextSubsidyChange(daaScore, MAINNET_SUBSIDY_PARAMS);
        if (next === null) return blockSubsidy(daaScore, MAINNET_SUBSIDY_PARAMS) === 0n;
        return (
          next.daaScore > daaScore &&
          next.subsidy === blockSubsidy(next.daaScore, MAINNET_SUBSIDY_PARAMS) &&
          next.subsidy < blockSubsidy(daaScore, MAINNET_SUBSIDY_PARAMS) &&
          blockSubsidy(next.daaScore - 1n, MAINNET_SUBSIDY_PARAMS) === blockSubsidy(daaScore, MAINNET_SUBSIDY_PARAMS)
        );
      }),
      { numRuns: 200 },
    );
  });

  it('comes a month of 10 blocks a second after the devnet starts', () => {
    expect(nextSubsidyChange(0n, DEVNET_SUBSIDY_PARAMS)).toEqual({
      daaScore: SECONDS_PER_MONTH * 10n,
      subsidy: (41_530_469_757n + 9n) / 10n,
    });
  });

  it('is null once the subsidy is spent', () => {
    expect(nextSubsidyChange(36n * SECONDS_PER_MONTH * 12n * 10n, DEVNET_SUBSIDY_PARAMS)).toBeNull();
  });

  it('knows the schedules by network id', () => {
    expect(subsidyParamsFor('kaspa-mainnet')).toBe(MAINNET_SUBSIDY_PARAMS);
    expect(subsidyParamsFor('kaspa-testnet-10')).toBe(TESTNET_SUBSIDY_PARAMS);
    expect(subsidyParamsFor('kaspa-devnet')).toBe(DEVNET_SUBSIDY_PARAMS);
    expect(subsidyParamsFor('kaspa-simnet')).toBeNull();
  });
});
