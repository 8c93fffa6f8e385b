/**
 * Network profiles: the DAA-score activation windows and per-network lists the KRC-20 rules depend on.
 * Mainnet values: kasplex/indexer-executor explorer/init.go (daaScoreRange), operation/op_*.go (gates),
 * operation/init.go (ignored and reserved ticks); kasplex/go-krc20d config/load.go (HfDaaScore2026Q1).
 * On testnets Kasplex skips the gates (`testnet ||`), which the test-network profiles reproduce from DAA 0.
 */
import type { AddressPrefix } from '../kaspa/address';

export interface DaaScoreRange {
  /** Inclusive bounds. */
  from: bigint;
  to: bigint;
}

export interface TokenProfile {
  name: string;
  addressPrefix: AddressPrefix;
  /** Only transactions accepted by a chain block whose DAA score lies in one of these ranges can carry ops. */
  activeRanges: readonly DaaScoreRange[];
  /**
   * The first-launch quirk: up to and including this DAA score every op's `to` is replaced by the address of the
   * reveal transaction's outputs[0]. null on networks without that history.
   */
  outputZeroRecipientUntil: bigint | null;
  /** `list` and `send` count from this DAA score. */
  marketplaceFrom: bigint;
  /** Issue-mode deploys, `issue`, `burn`, `chown` and `blacklist` count from this DAA score. */
  issueModeFrom: bigint;
  /** The v3 fork: ops in the transaction payload (from this score) and `transfer.memo` (above it). null = never. */
  payloadFrom: bigint | null;
  /** Ticks nobody may deploy ("tick ignored"); the same list on every Kasplex network. */
  ignoredTicks: ReadonlySet<string>;
  /** Ticks only the listed address may deploy ("tick reserved"). */
  reservedTicks: ReadonlyMap<string, string>;
}

const U64_MAX = (1n << 64n) - 1n;

export const IGNORED_TICKS: ReadonlySet<string> = new Set([
  'KASPA',
  'KASPLX',
  'KASP',
  'WKAS',
  'GIGA',
  'WBTC',
  'WETH',
  'USDT',
  'USDC',
  'FDUSD',
  'USDD',
  'TUSD',
  'USDP',
  'PYUSD',
  'EURC',
  'BUSD',
  'GUSD',
  'EURT',
  'XAUT',
  'TETHER',
]);

export const MAINNET_RESERVED_TICKS: ReadonlyMap<string, string> = new Map([
  ['NACHO', 'kaspa:qzrsq2mfj9sf7uye3u5q7juejzlr0axk5jz9fpg4vqe76erdyvxxze84k9nk7'],
  ['KCATS', 'kaspa:qq8guq855gxkfrj2w25skwgj7cp4hy08x6a8mz70tdtmgv5p2ngwqxpj4cknc'],
  ['KASTOR', 'kaspa:qr8vt54764aaddejhjfwtsh07jcjr49v38vrw2vtmxxtle7j2uepynwy57ufg'],
  ['KASPER', 'kaspa:qppklkx2zyr2g2djg3uy2y2tsufwsqjk36pt27vt2xfu8uqm24pskk4p7tq5n'],
  ['FUSUN', 'kaspa:qzp30gu5uty8jahu9lq5vtplw2ca8m2k7p45ez3y8jf9yrm5qdxquq5nl45t5'],
  ['KPAW', 'kaspa:qpp0y685frmnlvhmnz5t6qljatumqm9zmppwnhwu9vyyl6w8nt30qjedekmdw'],
  ['PPKAS', 'kaspa:qrlx9377yje3gvj9qxvwnn697d209lshgcrvge3yzlxnvyrfyk3q583jh3cmz'],
  ['GHOAD', 'kaspa:qpkty3ymqs67t0z3g7l457l79f9k6drl55uf2qeq5tlkrpf3zwh85es0xtaj9'],
  ['KEPE', 'kaspa:qq45gur2grn80uuegg9qgewl0wg2ahz5n4qm9246laej9533f8e22x3xe6hkm'],
  ['WORI', 'kaspa:qzhgepc7mjscszkteeqhy99d3v96ftpg2wyy6r85nd0kg9m8rfmusqpp7mxkq'],
  ['KEKE', 'kaspa:qqq9m42mdcvlz8c7r9kmpqj59wkfx3nppqte8ay20m4p46x3z0lsyzz34h8uf'],
  ['DOGK', 'kaspa:qpsj64nxtlwceq4e7jvrsrkl0y6dayfyrqr49pep7pd2tq2uzvk7ks7n0qwxc'],
  ['BTAI', 'kaspa:qp0na29g4lysnaep5pmg9xkdzcn4xm4a35ha5naq79ns9mcgc3pccnf225qma'],
  ['KASBOT', 'kaspa:qrrcpdaev9augqwy8jnnp20skplyswa7ezz3m9ex3ryxw22frpzpj2xx99scq'],
  ['SOMPS', 'kaspa:qry7xqy6s7d449gqyl0dkr99x6df0q5jlj6u52p84tfv6rddxjrucnn066237'],
  ['KREP', 'kaspa:qzaclsmr5vttzlt0rz0x3shnudny8lnz5zpmjr4lp9v7aa7u7zvexh05eqwq0'],
]);

export const MAINNET_PROFILE: TokenProfile = {
  name: 'mainnet',
  addressPrefix: 'kaspa',
  activeRanges: [
    { from: 83_441_551n, to: 83_525_600n },
    { from: 90_090_600n, to: U64_MAX },
  ],
  outputZeroRecipientUntil: 83_525_600n,
  marketplaceFrom: 97_539_090n,
  issueModeFrom: 110_165_000n,
  payloadFrom: 408_300_500n,
  ignoredTicks: IGNORED_TICKS,
  reservedTicks: MAINNET_RESERVED_TICKS,
};

export interface TestNetworkProfileOptions {
  name?: string;
  reservedTicks?: ReadonlyMap<string, string>;
  /** Default 0n (the current protocol, v3, from genesis); null keeps the network on the v2 rules. */
  payloadFrom?: bigint | null;
}

/** Every op live from DAA 0, as Kasplex runs testnets; no reserved ticks unless given. */
export function testNetworkProfile(addressPrefix: AddressPrefix, options: TestNetworkProfileOptions = {}): TokenProfile {
  return {
    name: options.name ?? addressPrefix,
    addressPrefix,
    activeRanges: [{ from: 0n, to: U64_MAX }],
    outputZeroRecipientUntil: null,
    marketplaceFrom: 0n,
    issueModeFrom: 0n,
    payloadFrom: options.payloadFrom === undefined ? 0n : options.payloadFrom,
    ignoredTicks: IGNORED_TICKS,
    reservedTicks: options.reservedTicks ?? new Map(),
  };
}

export const DEVNET_PROFILE: TokenProfile = testNetworkProfile('kaspadev', { name: 'devnet' });

export function isActiveDaaScore(profile: TokenProfile, daaScore: bigint): boolean {
  return profile.activeRanges.some((range) => daaScore >= range.from && daaScore <= range.to);
}

/** The profile of the network an address prefix belongs to (mainnet rules, or every op live on test networks). */
export function tokenProfileFor(prefix: AddressPrefix): TokenProfile {
  if (prefix === 'kaspa') return MAINNET_PROFILE;
  if (prefix === 'kaspadev') return DEVNET_PROFILE;
  return testNetworkProfile(prefix);
}
