/**
 * Request decoders mirroring what kaspad's serde accepts for each method's `params`, used by the devnet server to
 * answer "request deserialization error" where kaspad would. They also normalize: hashes and hex to lowercase,
 * script public keys to the string form, `computeBudget` defaulted to 0, `storageMass`/`mass` merged, optional
 * fields to null. Unknown fields are dropped (serde ignores them).
 *
 * Deliberate differences from serde: params must be a JSON object (serde would also take a positional array),
 * addresses are checked for shape (prefix and bech32 charset) but not checksum, and input verbose data is
 * ignored rather than parsed.
 */
import { z } from 'zod';
import { U64_MAX } from './protocol';
import type { RpcEventName, RpcMethodName, RpcScope } from './types';
import { RPC_DATA_VERBOSITY_LEVELS } from './virtual-chain-v2-types';

const u64 = z
  .union([z.bigint().min(0n).max(U64_MAX), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((value) => BigInt(value));
const uint = (bits: 8 | 16 | 32) =>
  z
    .number()
    .int()
    .nonnegative()
    .max(2 ** bits - 1);
const hexOfLength = (chars: number) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-fA-F]{${chars}}$`))
    .transform((value) => value.toLowerCase());
const hash = hexOfLength(64);
const hexBytes = z
  .string()
  .regex(/^(?:[0-9a-fA-F]{2})*$/)
  .transform((value) => value.toLowerCase());
/** Uint192 accepts up to 48 hex digits and left-pads them. */
const blueWork = z
  .string()
  .regex(/^[0-9a-fA-F]{1,48}$/)
  .transform((value) => value.toLowerCase().padStart(48, '0'));
const address = z.string().regex(/^(?:kaspa|kaspatest|kaspasim|kaspadev):[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/);
const ignored = z.unknown().optional().transform(() => null);

const scriptPublicKey = z.union([
  z
    .string()
    .regex(/^[0-9a-fA-F]{4}(?:[0-9a-fA-F]{2})*$/)
    .transform((value) => value.toLowerCase()),
  z
    .object({ version: uint(16), script: hexBytes })
    .transform(({ version, script }) => version.toString(16).padStart(4, '0') + script),
]);

const outpoint = z.object({ transactionId: hash, index: uint(32) });

const transactionInput = z.object({
  previousOutpoint: outpoint,
  signatureScript: hexBytes,
  sequence: u64,
  sigOpCount: uint(8),
  computeBudget: uint(16).default(0),
  verboseData: ignored,
});

const covenantBinding = z.object({ authorizingInput: uint(16), covenantId: hash });

const transactionOutput = z.object({
  value: u64,
  scriptPublicKey,
  verboseData: ignored,
  covenant: covenantBinding.nullish().transform((value) => value ?? null),
});

/** `RpcTransaction`'s custom Deserialize: either mass field is enough, and both must agree when both are given. */
export const transactionSchema = z
  .object({
    version: uint(16),
    inputs: z.array(transactionInput),
    outputs: z.array(transactionOutput),
    lockTime: u64,
    subnetworkId: hexOfLength(40),
    gas: u64,
    payload: hexBytes,
    storageMass: u64.optional(),
    mass: u64.optional(),
    verboseData: ignored,
  })
  .check((context) => {
    const { storageMass, mass } = context.value;
    if (storageMass === undefined && mass === undefined) {
      context.issues.push({ code: 'custom', message: 'Either storageMass or mass must be provided', input: context.value });
    } else if (storageMass !== undefined && mass !== undefined && storageMass !== mass) {
      context.issues.push({
        code: 'custom',
        message: `storageMass and mass must match when both are provided: storageMass=${storageMass}, mass=${mass}`,
        input: context.value,
      });
    }
  })
  .transform(({ storageMass, mass, ...rest }) => {
    const resolved = (storageMass ?? mass) as bigint;
    return {
      version: rest.version,
      inputs: rest.inputs,
      outputs: rest.outputs,
      lockTime: rest.lockTime,
      subnetworkId: rest.subnetworkId,
      gas: rest.gas,
      payload: rest.payload,
      storageMass: resolved,
      mass: resolved,
      verboseData: null,
    };
  });

const rawHeader = z.object({
  version: uint(16),
  parentsByLevel: z.array(z.array(hash)),
  hashMerkleRoot: hash,
  acceptedIdMerkleRoot: hash,
  utxoCommitment: hash,
  timestamp: u64,
  bits: uint(32),
  nonce: u64,
  daaScore: u64,
  blueWork,
  blueScore: u64,
  pruningPoint: hash,
});

const rawBlock = z.object({ header: rawHeader, transactions: z.array(transactionSchema) });

const empty = z.object({});
const mempoolFilter = { includeOrphanPool: z.boolean(), filterTransactionPool: z.boolean() };
const addresses = z.object({ addresses: z.array(address) });

const submitBlock = z
  .object({
    block: rawBlock,
    allowNonDaaBlocks: z.boolean().optional(),
    allowNonDAABlocks: z.boolean().optional(),
  })
  .check((context) => {
    const { allowNonDaaBlocks, allowNonDAABlocks } = context.value;
    if ((allowNonDaaBlocks === undefined) === (allowNonDAABlocks === undefined)) {
      context.issues.push({
        code: 'custom',
        message: 'exactly one of allowNonDaaBlocks / allowNonDAABlocks is required',
        input: context.value,
      });
    }
  })
  .transform(({ block, allowNonDaaBlocks, allowNonDAABlocks }) => ({
    block,
    allowNonDaaBlocks: (allowNonDaaBlocks ?? allowNonDAABlocks) as boolean,
  }));

export const requestSchemas = {
  ping: empty,
  getInfo: empty,
  getServerInfo: empty,
  getCurrentNetwork: empty,
  getBlockDagInfo: empty,
  getBlock: z.object({ hash, includeTransactions: z.boolean() }),
  getBlocks: z.object({
    lowHash: hash.nullish().transform((value) => value ?? null),
    includeBlocks: z.boolean(),
    includeTransactions: z.boolean(),
  }),
  getBlockCount: empty,
  getSink: empty,
  getSinkBlueScore: empty,
  getVirtualChainFromBlock: z.object({
    startHash: hash,
    includeAcceptedTransactionIds: z.boolean(),
    minConfirmationCount: u64.nullish().transform((value) => value ?? null),
  }),
  /** serde takes the verbosity as its variant name (`"Full"`); a number is refused. */
  getVirtualChainFromBlockV2: z.object({
    startHash: hash,
    dataVerbosityLevel: z
      .enum(RPC_DATA_VERBOSITY_LEVELS)
      .nullish()
      .transform((value) => value ?? null),
    minConfirmationCount: u64.nullish().transform((value) => value ?? null),
  }),
  getMempoolEntry: z.object({ transactionId: hash, ...mempoolFilter }),
  getMempoolEntries: z.object(mempoolFilter),
  getMempoolEntriesByAddresses: z.object({ addresses: z.array(address), ...mempoolFilter }),
  getUtxosByAddresses: addresses,
  getBalanceByAddress: z.object({ address }),
  getBalancesByAddresses: addresses,
  getCoinSupply: empty,
  getFeeEstimate: empty,
  submitTransaction: z.object({ transaction: transactionSchema, allowOrphan: z.boolean() }),
  submitTransactionReplacement: z.object({ transaction: transactionSchema }),
  getBlockTemplate: z.object({ payAddress: address, extraData: z.array(uint(8)) }),
  submitBlock,
  getSyncStatus: empty,
  getHeaders: z.object({ startHash: hash, limit: u64, isAscending: z.boolean() }),
  getSubnetwork: z.object({ subnetworkId: hexOfLength(40) }),
  getConnectedPeerInfo: empty,
  getPeerAddresses: empty,
  getDaaScoreTimestampEstimate: z.object({ daaScores: z.array(u64) }),
  getMetrics: z.object({
    processMetrics: z.boolean(),
    connectionMetrics: z.boolean(),
    bandwidthMetrics: z.boolean(),
    consensusMetrics: z.boolean(),
    storageMetrics: z.boolean(),
    customMetrics: z.boolean(),
  }),
  getBlockRewardInfo: z.object({ hash }),
  getConnections: z.object({ includeProfileData: z.boolean() }),
  getSystemInfo: empty,
  getCurrentBlockColor: z.object({ hash }),
  getSeqCommitLaneProof: z.object({ blockHash: hash, laneKey: hash }),
  estimateNetworkHashesPerSecond: z.object({
    windowSize: uint(32),
    startHash: hash.nullish().transform((value) => value ?? null),
  }),
} satisfies Record<Exclude<RpcMethodName, 'subscribe' | 'unsubscribe'>, z.ZodType>;

export type HandledMethodName = keyof typeof requestSchemas;
/** What a devnet handler receives: the request after decoding and normalization. */
export type DecodedRequest<M extends HandledMethodName> = z.output<(typeof requestSchemas)[M]>;

const emptyScope = z.object({});
const scopeSchemas = {
  BlockAdded: emptyScope,
  VirtualChainChanged: z.object({ include_accepted_transaction_ids: z.boolean() }),
  FinalityConflict: emptyScope,
  FinalityConflictResolved: emptyScope,
  UtxosChanged: z.object({ addresses: z.array(address) }),
  SinkBlueScoreChanged: emptyScope,
  VirtualDaaScoreChanged: emptyScope,
  PruningPointUtxoSetOverride: emptyScope,
  NewBlockTemplate: emptyScope,
} satisfies Record<RpcEventName, z.ZodType>;

/**
 * Decodes subscribe/unsubscribe params: an externally tagged `Scope`, so exactly one key naming the event.
 * Returns undefined where serde would fail.
 */
export function decodeScope(params: unknown): RpcScope | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const keys = Object.keys(params);
  if (keys.length !== 1) return undefined;
  const event = keys[0] as RpcEventName;
  if (!Object.hasOwn(scopeSchemas, event)) return undefined;
  const parsed = scopeSchemas[event].safeParse((params as Record<string, unknown>)[event]);
  return parsed.success ? ({ [event]: parsed.data } as RpcScope) : undefined;
}
