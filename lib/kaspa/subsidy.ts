/**
 * Block subsidy schedule (consensus/src/processes/coinbase.rs::calc_block_subsidy, params from
 * consensus/core/src/config/params.rs). Before the deflationary phase every block earns a flat subsidy; afterwards
 * the subsidy follows a monthly table written for 1 BPS, divided (rounding up) by the block rate in force.
 * Crescendo moved mainnet from 1 to 10 BPS, so months are counted in seconds across both rates.
 */

export interface SubsidyParams {
  deflationaryPhaseDaaScore: bigint;
  /** Sompi per block before the deflationary phase. */
  preDeflationaryPhaseBaseSubsidy: bigint;
  /** The Crescendo activation DAA score; 0 = always active, 2^64 - 1 = never. */
  crescendoActivationDaaScore: bigint;
  bpsBeforeCrescendo: bigint;
  bpsAfterCrescendo: bigint;
}

export const MAINNET_SUBSIDY_PARAMS: SubsidyParams = {
  deflationaryPhaseDaaScore: 15_778_800n - 259_200n,
  preDeflationaryPhaseBaseSubsidy: 50_000_000_000n,
  crescendoActivationDaaScore: 110_165_000n,
  bpsBeforeCrescendo: 1n,
  bpsAfterCrescendo: 10n,
};

/** Testnet-10: mainnet's schedule with its own Crescendo activation. */
export const TESTNET_SUBSIDY_PARAMS: SubsidyParams = { ...MAINNET_SUBSIDY_PARAMS, crescendoActivationDaaScore: 88_657_000n };

/** Devnet runs at 10 BPS from genesis: Crescendo always active and the deflationary phase from DAA score 0. */
export const DEVNET_SUBSIDY_PARAMS: SubsidyParams = {
  deflationaryPhaseDaaScore: 0n,
  preDeflationaryPhaseBaseSubsidy: 50_000_000_000n / 10n,
  crescendoActivationDaaScore: 0n,
  bpsBeforeCrescendo: 10n,
  bpsAfterCrescendo: 10n,
};

/** 365.25 days / 12. */
export const SECONDS_PER_MONTH = 2_629_800n;

/** Sompi per second (= per block at 1 BPS) for each month of the deflationary phase; the last entry is 0. */
export const SUBSIDY_BY_MONTH_TABLE: readonly bigint[] = [
  44000000000n, 41530469757n, 39199543598n, 36999442271n, 34922823143n, 32962755691n, 31112698372n, 29366476791n,
  27718263097n, 26162556530n, 24694165062n, 23308188075n, 22000000000n, 20765234878n, 19599771799n, 18499721135n,
  17461411571n, 16481377845n, 15556349186n, 14683238395n, 13859131548n, 13081278265n, 12347082531n, 11654094037n,
  11000000000n, 10382617439n, 9799885899n, 9249860567n, 8730705785n, 8240688922n, 7778174593n, 7341619197n,
  6929565774n, 6540639132n, 6173541265n, 5827047018n, 5500000000n, 5191308719n, 4899942949n, 4624930283n,
  4365352892n, 4120344461n, 3889087296n, 3670809598n, 3464782887n, 3270319566n, 3086770632n, 2913523509n,
  2750000000n, 2595654359n, 2449971474n, 2312465141n, 2182676446n, 2060172230n, 1944543648n, 1835404799n,
  1732391443n, 1635159783n, 1543385316n, 1456761754n, 1375000000n, 1297827179n, 1224985737n, 1156232570n,
  1091338223n, 1030086115n, 972271824n, 917702399n, 866195721n, 817579891n, 771692658n, 728380877n,
  687500000n, 648913589n, 612492868n, 578116285n, 545669111n, 515043057n, 486135912n, 458851199n,
  433097860n, 408789945n, 385846329n, 364190438n, 343750000n, 324456794n, 306246434n, 289058142n,
  272834555n, 257521528n, 243067956n, 229425599n, 216548930n, 204394972n, 192923164n, 182095219n,
  171875000n, 162228397n, 153123217n, 144529071n, 136417277n, 128760764n, 121533978n, 114712799n,
  108274465n, 102197486n, 96461582n, 91047609n, 85937500n, 81114198n, 76561608n, 72264535n,
  68208638n, 64380382n, 60766989n, 57356399n, 54137232n, 51098743n, 48230791n, 45523804n,
  42968750n, 40557099n, 38280804n, 36132267n, 34104319n, 32190191n, 30383494n, 28678199n,
  27068616n, 25549371n, 24115395n, 22761902n, 21484375n, 20278549n, 19140402n, 18066133n,
  17052159n, 16095095n, 15191747n, 14339099n, 13534308n, 12774685n, 12057697n, 11380951n,
  10742187n, 10139274n, 9570201n, 9033066n, 8526079n, 8047547n, 7595873n, 7169549n,
  6767154n, 6387342n, 6028848n, 5690475n, 5371093n, 5069637n, 4785100n, 4516533n,
  4263039n, 4023773n, 3797936n, 3584774n, 3383577n, 3193671n, 3014424n, 2845237n,
  2685546n, 2534818n, 2392550n, 2258266n, 2131519n, 2011886n, 1898968n, 1792387n,
  1691788n, 1596835n, 1507212n, 1422618n, 1342773n, 1267409n, 1196275n, 1129133n,
  1065759n, 1005943n, 949484n, 896193n, 845894n, 798417n, 753606n, 711309n,
  671386n, 633704n, 598137n, 564566n, 532879n, 502971n, 474742n, 448096n,
  422947n, 399208n, 376803n, 355654n, 335693n, 316852n, 299068n, 282283n,
  266439n, 251485n, 237371n, 224048n, 211473n, 199604n, 188401n, 177827n,
  167846n, 158426n, 149534n, 141141n, 133219n, 125742n, 118685n, 112024n,
  105736n, 99802n, 94200n, 88913n, 83923n, 79213n, 74767n, 70570n,
  66609n, 62871n, 59342n, 56012n, 52868n, 49901n, 47100n, 44456n,
  41961n, 39606n, 37383n, 35285n, 33304n, 31435n, 29671n, 28006n,
  26434n, 24950n, 23550n, 22228n, 20980n, 19803n, 18691n, 17642n,
  16652n, 15717n, 14835n, 14003n, 13217n, 12475n, 11775n, 11114n,
  10490n, 9901n, 9345n, 8821n, 8326n, 7858n, 7417n, 7001n,
  6608n, 6237n, 5887n, 5557n, 5245n, 4950n, 4672n, 4410n,
  4163n, 3929n, 3708n, 3500n, 3304n, 3118n, 2943n, 2778n,
  2622n, 2475n, 2336n, 2205n, 2081n, 1964n, 1854n, 1750n,
  1652n, 1559n, 1471n, 1389n, 1311n, 1237n, 1168n, 1102n,
  1040n, 982n, 927n, 875n, 826n, 779n, 735n, 694n,
  655n, 618n, 584n, 551n, 520n, 491n, 463n, 437n,
  413n, 389n, 367n, 347n, 327n, 309n, 292n, 275n,
  260n, 245n, 231n, 218n, 206n, 194n, 183n, 173n,
  163n, 154n, 146n, 137n, 130n, 122n, 115n, 109n,
  103n, 97n, 91n, 86n, 81n, 77n, 73n, 68n,
  65n, 61n, 57n, 54n, 51n, 48n, 45n, 43n,
  40n, 38n, 36n, 34n, 32n, 30n, 28n, 27n,
  25n, 24n, 22n, 21n, 20n, 19n, 18n, 17n,
  16n, 15n, 14n, 13n, 12n, 12n, 11n, 10n,
  10n, 9n, 9n, 8n, 8n, 7n, 7n, 6n,
  6n, 6n, 5n, 5n, 5n, 4n, 4n, 4n,
  4n, 3n, 3n, 3n, 3n, 3n, 2n, 2n,
  2n, 2n, 2n, 2n, 2n, 1n, 1n, 1n,
  1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n,
  1n, 0n,
];

function isCrescendoActive(daaScore: bigint, params: SubsidyParams): boolean {
  return daaScore >= params.crescendoActivationDaaScore;
}

/** Whole months elapsed since the deflationary phase began; only meaningful once it has begun. */
export function subsidyMonth(daaScore: bigint, params: SubsidyParams): bigint {
  const { deflationaryPhaseDaaScore: deflation, crescendoActivationDaaScore: crescendo } = params;
  let seconds: bigint;
  if (crescendo < deflation) {
    seconds = (daaScore - deflation) / params.bpsAfterCrescendo;
  } else if (daaScore < crescendo) {
    seconds = (daaScore - deflation) / params.bpsBeforeCrescendo;
  } else {
    seconds = (crescendo - deflation) / params.bpsBeforeCrescendo + (daaScore - crescendo) / params.bpsAfterCrescendo;
  }
  return seconds / SECONDS_PER_MONTH;
}

/** The subsidy in sompi of a block with the given DAA score. */
export function blockSubsidy(daaScore: bigint, params: SubsidyParams = MAINNET_SUBSIDY_PARAMS): bigint {
  if (daaScore < params.deflationaryPhaseDaaScore) return params.preDeflationaryPhaseBaseSubsidy;
  const lastMonth = BigInt(SUBSIDY_BY_MONTH_TABLE.length - 1);
  const month = subsidyMonth(daaScore, params);
  const perSecond = SUBSIDY_BY_MONTH_TABLE[Number(month < lastMonth ? month : lastMonth)]!;
  const bps = isCrescendoActive(daaScore, params) ? params.bpsAfterCrescendo : params.bpsBeforeCrescendo;
  return (perSecond + bps - 1n) / bps;
}

/**
 * The schedule of a network by its id (getBlockDagInfo's `network`, e.g. "kaspa-mainnet", "kaspa-testnet-10"); a
 * devnet is taken to mine as the embedded devnet does. Null for a network whose schedule this table does not know.
 */
export function subsidyParamsFor(network: string): SubsidyParams | null {
  const name = network.replace(/^kaspa-/, '');
  if (name === 'mainnet') return MAINNET_SUBSIDY_PARAMS;
  if (name.startsWith('testnet')) return TESTNET_SUBSIDY_PARAMS;
  if (name.startsWith('devnet')) return DEVNET_SUBSIDY_PARAMS;
  return null;
}

/** The first DAA score above `daaScore` whose block subsidy differs, and that subsidy; null once it no longer changes. */
export function nextSubsidyChange(daaScore: bigint, params: SubsidyParams): { daaScore: bigint; subsidy: bigint } | null {
  const current = blockSubsidy(daaScore, params);
  // The subsidy changes at month boundaries (and at the deflationary phase's start); a month is at most
  // SECONDS_PER_MONTH × the faster block rate DAA scores, so stepping month by month never skips a change.
  const step = SECONDS_PER_MONTH * (params.bpsAfterCrescendo > params.bpsBeforeCrescendo ? params.bpsAfterCrescendo : params.bpsBeforeCrescendo);
  let low = daaScore;
  for (let months = 0; months <= SUBSIDY_BY_MONTH_TABLE.length + 1; months++) {
    const high = low + step;
    if (blockSubsidy(high, params) !== current) {
      // blockSubsidy is monotone between low and high: search the first score that differs.
      let [from, to] = [low, high];
      while (to - from > 1n) {
        const middle = (from + to) / 2n;
        if (blockSubsidy(middle, params) === current) from = middle;
        else to = middle;
      }
      return { daaScore: to, subsidy: blockSubsidy(to, params) };
    }
    low = high;
  }
  return null;
}
