/**
 * The per-call limits of /v1 and the zod building blocks endpoint schemas share, so every endpoint refuses the same
 * input the same way: bad hex → `invalid_hex`, bad address → `invalid_address` with the decoder's reason, a list over
 * its limit → `limit_exceeded` naming the limit, a page size outside 1..100 → `limit_out_of_range`.
 */
import { z } from 'zod';
import { AddressError, decodeAddress, type AddressPrefix } from '../../kaspa/address';
import { PAGE_LIMIT } from '../../db/reads';
import { ApiError } from './errors';

export const MAX_ADDRESSES_PER_CALL = 500;
export const MAX_TRANSACTION_IDS_PER_CALL = 500;
/** end − start of a DAA-score range (the same bound lib/db's range read enforces). */
export const MAX_DAA_SCORE_RANGE = 1000n;
export { PAGE_LIMIT };

const HEX = /^[0-9a-fA-F]*$/;

/** Hex text of exactly `byteLength` bytes (either case), as lowercase. */
export function hexString(byteLength: number, what: string) {
  const message = `must be ${what}: ${byteLength * 2} hexadecimal digits`;
  return z
    .string()
    .meta({ description: `${what}: ${byteLength * 2} hexadecimal digits`, pattern: `^[0-9a-fA-F]{${byteLength * 2}}$` })
    .refine((text) => text.length === byteLength * 2 && HEX.test(text), {
      message,
      params: { apiCode: 'invalid_hex' },
    })
    .transform((text) => text.toLowerCase());
}

/** Hex text of any whole number of bytes up to `maxBytes` (payloads, extra data). */
export function hexBytes(maxBytes: number, what: string) {
  return z
    .string()
    .meta({
      description: `${what}: hexadecimal, at most ${maxBytes} bytes`,
      pattern: '^([0-9a-fA-F]{2})*$',
      maxLength: maxBytes * 2,
    })
    .refine((text) => text.length % 2 === 0 && text.length <= maxBytes * 2 && HEX.test(text), {
      message: `must be ${what}: an even number of hexadecimal digits, at most ${maxBytes} bytes`,
      params: { apiCode: 'invalid_hex' },
    })
    .transform((text) => text.toLowerCase());
}

/** A Kaspa address of the served network; the issue carries the decoder's reason. */
export function addressString(network: AddressPrefix) {
  const described = z.string().meta({ description: `a Kaspa address of this network (${network}:…)` });
  return described.superRefine((text, context) => {
    let reason: string | undefined;
    try {
      const { prefix } = decodeAddress(text);
      if (prefix !== network) reason = `belongs to network "${prefix}", this service serves "${network}"`;
    } catch (error) {
      if (!(error instanceof AddressError)) throw error;
      reason = error.message;
    }
    if (reason !== undefined) {
      context.addIssue({ code: 'custom', message: reason, params: { apiCode: 'invalid_address' } });
    }
  });
}

/** A request array with a documented maximum; past it the 400 names the limit. */
export function boundedList<T extends z.ZodType>(item: T, max: number, noun: string) {
  return z.array(item).max(max, `at most ${max} ${noun} per call`);
}

/** Query-string boolean: exactly `true` or `false`. */
export const queryBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((text) => text === 'true');

/** The `limit` query parameter: an integer 1..100, 20 when absent. */
export const pageLimit = z
  .string()
  .meta({
    description: `items per page, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}; ${PAGE_LIMIT.default} when absent`,
    pattern: '^[0-9]{1,3}$',
    default: String(PAGE_LIMIT.default),
  })
  .optional()
  .transform((text, context) => {
    if (text === undefined) return PAGE_LIMIT.default;
    const value = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (value >= PAGE_LIMIT.min && value <= PAGE_LIMIT.max) return value;
    context.addIssue({
      code: 'custom',
      message: `must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`,
      params: { apiCode: 'limit_out_of_range' },
    });
    return z.NEVER;
  });

const U64_MAX = 2n ** 64n - 1n;

/** A u64 written in decimal (path segments such as DAA scores), as bigint. */
export const decimalU64 = z
  .string()
  .meta({ description: 'a whole number from 0 to 18446744073709551615, in decimal', pattern: '^[0-9]{1,20}$' })
  .refine((text) => /^\d{1,20}$/.test(text) && BigInt(text) <= U64_MAX, {
    message: 'must be a whole number from 0 to 18446744073709551615',
  })
  .transform((text) => BigInt(text));

/** Checks a DAA-score range: start ≤ end, at most MAX_DAA_SCORE_RANGE wide. */
export function checkDaaScoreRange(start: bigint, end: bigint): void {
  if (end < start) {
    throw ApiError.invalidRequest('daa_score_end must not be below daa_score_start', [
      { path: 'path.daa_score_end', message: 'must be at least daa_score_start' },
    ]);
  }
  if (end - start > MAX_DAA_SCORE_RANGE) {
    throw ApiError.limitExceeded('path.daa_score_end', `a DAA-score range spans at most ${MAX_DAA_SCORE_RANGE} scores`);
  }
}

/* ---------- response bodies: published in the OpenAPI document; tests check handler output against them ---------- */

const lowerHex = (digits: number, description: string) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${digits}}$`)).meta({ description });
const hashOut = lowerHex(64, 'a 32-byte hash as lowercase hex');
const anyHexOut = (description: string) => z.string().regex(/^([0-9a-f]{2})*$/).meta({ description });
const u64Text = (description: string) => z.string().regex(/^\d{1,20}$/).meta({ description });
const sompiText = u64Text('an amount in sompi (1 KAS = 100,000,000 sompi), as a decimal string');
const readPayloadOut = z
  .string()
  .regex(/^0x([0-9a-f]{2})*$/)
  .meta({ description: 'the payload as `0x` + lowercase hex; `0x` when empty or not requested' });
const count = z.number().int().min(0);
/** A u64 the node format writes as a JSON integer (submission form); exact past 2^53 (then a bigint). */
const jsonU64 = z
  .union([z.number().int().min(0), z.bigint().min(0n).max(U64_MAX)])
  .meta({ description: 'a u64 as an exact JSON integer' });

export const nodeOutpointResponse = z.strictObject({ transactionId: hashOut, index: count });

const computeBudgetOut = count.optional().meta({
  description: 'Toccata extension, version 1 and later transactions: the script units committed for the input, in units of 10,000',
});
const covenantBindingOut = z
  .strictObject({ authorizingInput: count, covenantId: hashOut })
  .optional()
  .meta({ description: 'Toccata extension (KIP-20), present on bound outputs: the covenant and the input that authorizes the output' });

export const nodeTransactionResponse = z
  .strictObject({
    version: count,
    inputs: z.array(
      z.strictObject({
        previousOutpoint: nodeOutpointResponse,
        signatureScript: anyHexOut('the signature script as lowercase hex'),
        sequence: u64Text('the input sequence, as a decimal string'),
        sigOpCount: count,
        computeBudget: computeBudgetOut,
      }),
    ),
    outputs: z.array(
      z.strictObject({
        value: sompiText,
        scriptPublicKey: anyHexOut("kaspad's string form: the script version as 4 hex digits, then the script"),
        covenant: covenantBindingOut,
        verboseData: z
          .strictObject({ scriptPublicKeyType: z.string(), scriptPublicKeyAddress: z.string() })
          .optional(),
      }),
    ),
    lockTime: u64Text('the lock time, as a decimal string'),
    subnetworkId: lowerHex(40, 'the 20-byte subnetwork id'),
    gas: u64Text('gas, as a decimal string'),
    payload: readPayloadOut,
    mass: u64Text('the mass, as a decimal string'),
    storageMass: u64Text('Toccata extension: kaspad 2.0.1’s name for `mass`, always equal to it'),
    verboseData: z
      .strictObject({
        transactionId: hashOut,
        hash: hashOut,
        computeMass: u64Text('the compute mass, as a decimal string'),
        blockHash: hashOut,
        blockTime: u64Text('the block time in epoch milliseconds, as a decimal string'),
      })
      .optional(),
  })
  .meta({ description: 'A transaction in the node format, read form (SERVICE-SPEC §2.2)' });

export const nodeHeaderResponse = z.strictObject({
  hash: hashOut.optional(),
  version: count,
  parentsByLevel: z.array(z.array(hashOut)),
  hashMerkleRoot: hashOut,
  acceptedIdMerkleRoot: hashOut,
  utxoCommitment: hashOut,
  timestamp: u64Text('epoch milliseconds, as a decimal string'),
  bits: count,
  nonce: u64Text('the nonce, as a decimal string'),
  daaScore: u64Text('the DAA score, as a decimal string'),
  blueWork: z.string().regex(/^[0-9a-f]+$/).meta({ description: 'the blue work as lowercase hex' }),
  blueScore: u64Text('the blue score, as a decimal string'),
  pruningPoint: hashOut,
});

export const nodeBlockResponse = z
  .strictObject({
    header: nodeHeaderResponse,
    transactions: z.array(nodeTransactionResponse),
    verboseData: z
      .strictObject({
        hash: hashOut,
        difficulty: z.number(),
        selectedParentHash: hashOut,
        transactionIds: z.array(hashOut),
        isHeaderOnly: z.boolean(),
        blueScore: count,
        childrenHashes: z.array(hashOut),
        mergeSetBluesHashes: z.array(hashOut),
        mergeSetRedsHashes: z.array(hashOut),
        isChainBlock: z.boolean(),
      })
      .optional(),
  })
  .meta({ description: 'A block in the node format (SERVICE-SPEC §2.3); templates lack the header hash and verboseData' });

export const nodeMempoolEntryResponse = z.strictObject({
  fee: sompiText,
  transaction: nodeTransactionResponse,
  isOrphan: z.boolean(),
});

export const nodeUtxoEntryResponse = z.strictObject({
  address: z.string(),
  outpoint: nodeOutpointResponse,
  amount: sompiText,
  scriptPublicKey: z.strictObject({ version: count, script: anyHexOut('the script as lowercase hex') }),
  blockDaaScore: u64Text('the DAA score of the block that created the output, as a decimal string'),
  isCoinbase: z.boolean(),
  covenantId: hashOut.optional().meta({ description: 'Toccata extension (KIP-20), present when the output is bound to a covenant' }),
});

const feerateBucket = z.strictObject({
  feerate: z.number().meta({ description: 'sompi per gram of mass' }),
  estimatedSeconds: z.number().meta({ description: 'expected seconds until inclusion' }),
});

export const nodeFeeEstimateResponse = z.strictObject({
  priorityBucket: feerateBucket,
  normalBuckets: z.array(feerateBucket),
  lowBuckets: z.array(feerateBucket),
});

export const nodeDagInfoResponse = z.strictObject({
  network: z.string(),
  blockCount: u64Text('blocks with bodies, as a decimal string'),
  headerCount: u64Text('headers, as a decimal string'),
  tipHashes: z.array(hashOut),
  difficulty: z.number(),
  pastMedianTime: u64Text('epoch milliseconds, as a decimal string'),
  virtualParentHashes: z.array(hashOut),
  pruningPointHash: hashOut,
  virtualDaaScore: u64Text('the virtual DAA score, as a decimal string'),
  sink: hashOut,
});

export const submissionTransactionResponse = z
  .strictObject({
    version: count,
    inputs: z.array(
      z.strictObject({
        previousOutpoint: nodeOutpointResponse,
        signatureScript: anyHexOut('the signature script as lowercase hex'),
        sequence: jsonU64,
        sigOpCount: count,
        computeBudget: computeBudgetOut,
      }),
    ),
    outputs: z.array(
      z.strictObject({
        value: sompiText,
        scriptPublicKey: z.strictObject({ version: count, script: anyHexOut('the script as lowercase hex') }),
        covenant: covenantBindingOut,
      }),
    ),
    lockTime: jsonU64,
    subnetworkId: lowerHex(40, 'the 20-byte subnetwork id'),
    gas: u64Text('gas, as a decimal string'),
    payload: anyHexOut('the payload as plain lowercase hex'),
  })
  .meta({ description: 'A transaction in the node format, submission form (SERVICE-SPEC §2.2)' });

const indexedOutput = z.strictObject({
  transactionId: hashOut,
  index: count,
  amount: sompiText,
  scriptPublicKey: anyHexOut('the script as lowercase hex'),
  scriptPublicKeyAddress: z.string().nullable(),
  scriptPublicKeyType: z.string(),
  covenant: z
    .strictObject({ authorizingInput: count, covenantId: hashOut })
    .nullable()
    .meta({ description: 'Toccata extension (KIP-20): the covenant binding, null when the output is unbound' }),
});

const indexedTransactionShape = {
  transactionId: hashOut,
  blockTime: count.meta({ description: 'epoch milliseconds' }),
  subnetworkId: lowerHex(40, 'the 20-byte subnetwork id'),
  hash: hashOut,
  mass: u64Text('the mass, as a decimal string'),
  blockHashes: z.array(hashOut),
  acceptingBlockHash: hashOut.nullable(),
  isAccepted: z.boolean(),
  confirmations: count.meta({ description: 'virtual blue score − accepting block’s blue score; 0 when not accepted' }),
  payload: readPayloadOut,
  inputs: z.array(
    z.strictObject({
      transactionId: hashOut,
      index: count,
      signatureScript: anyHexOut('the signature script as lowercase hex'),
      sigOpCount: count,
      computeBudget: count.meta({
        description: 'Toccata extension: the compute budget a version 1 input commits to; 0 for version 0 inputs',
      }),
      previousOutput: z.strictObject({
        transactionId: hashOut,
        index: count,
        amount: sompiText.nullable(),
        scriptPublicKey: anyHexOut('the script as lowercase hex').nullable(),
        scriptPublicKeyAddress: z.string().nullable(),
        scriptPublicKeyType: z.string().nullable(),
        covenantId: hashOut
          .nullable()
          .meta({ description: 'Toccata extension (KIP-20): the covenant the spent output was bound to, if any' }),
      }),
    }),
  ),
  outputs: z.array(indexedOutput),
  version: count.meta({ description: 'extension: the transaction version (1 from Toccata on)' }),
  storageMass: u64Text('extension: the committed storage mass, as a decimal string')
    .nullable()
    .meta({ description: 'extension: the committed storage mass; null for rows indexed before it was stored' }),
  computeMass: u64Text('extension: the compute mass the node reported, as a decimal string')
    .nullable()
    .meta({ description: 'extension: the compute mass the node reported; null when it reported none' }),
  gas: u64Text('extension: the gas (KIP-21 lanes), as a decimal string'),
};

export const indexedTransactionResponse = z
  .strictObject(indexedTransactionShape)
  .meta({ description: 'A transaction in the indexed view (SERVICE-SPEC §2.1)' });

export const addressTransactionResponse = z
  .strictObject({
    ...indexedTransactionShape,
    amountSent: sompiText,
    amountReceived: sompiText,
    balanceChange: z.string().regex(/^-?\d{1,20}$/).meta({ description: 'signed sompi, as a decimal string' }),
    fee: sompiText.nullable(),
  })
  .meta({ description: 'An address history item: the indexed view plus the amounts for that address' });

export const indexedBlockResponse = z
  .strictObject({
    hash: hashOut,
    acceptedIdMerkleRoot: hashOut,
    difficulty: z.number(),
    isChainBlock: z.boolean(),
    mergeSetBluesHashes: z.array(hashOut),
    mergeSetRedsHashes: z.array(hashOut),
    selectedParentHash: hashOut.nullable(),
    bits: count,
    blueScore: count,
    blueWork: z.string().regex(/^[0-9a-f]+$/),
    daaScore: count,
    hashMerkleRoot: hashOut,
    nonce: u64Text('the nonce, as a decimal string'),
    parents: z.array(hashOut),
    pruningPoint: hashOut,
    timestamp: z.iso.datetime().meta({ description: 'ISO 8601, UTC, milliseconds' }),
    utxoCommitment: hashOut,
    version: count,
    transactionIds: z.array(hashOut),
  })
  .meta({ description: 'A block in the indexed view (SERVICE-SPEC §2.4)' });

const ruText = z.string().regex(/^\d+(\.\d{1,3})?$/).meta({ description: 'an RU amount in decimal' });

export const usageResponse = z.strictObject({
  keyId: z.string(),
  name: z.string(),
  limits: z.strictObject({ ruPerSecond: ruText, ruPerMonth: ruText }),
  month: z.strictObject({
    period: z.string().regex(/^\d{4}-\d{2}$/),
    ruUsed: ruText,
    ruRemaining: ruText,
    resetsAt: z.iso.datetime(),
  }),
  second: z.strictObject({ ruUsed: ruText, ruRemaining: ruText, resetsAt: z.iso.datetime() }),
});

/** The one error body of /v1 (errors.ts `problemBody`). */
export const problemResponseSchema = z
  .strictObject({
    type: z.string().meta({ description: 'a tag URI naming the problem type' }),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string(),
    code: z.string().regex(/^[a-z][a-z0-9_]*$/).meta({ description: 'stable snake_case error code' }),
    requestId: z.string(),
    errors: z.array(
      z.strictObject({
        path: z.string().meta({ description: 'path.x, query.x, body.x[3].y or header.x' }),
        message: z.string(),
      }),
    ),
    statusCode: z.number().int().min(400).max(599).meta({ description: 'mirror of status' }),
    message: z.string().meta({ description: 'mirror of detail' }),
  })
  .meta({ description: 'RFC 9457 problem details, the one error shape of every /v1 endpoint' });

/** Covenant summaries (extension, KIP-20): lib/api/endpoints/indexed-endpoints.ts builds them from lib/db/covenant-reads.ts. */
export const covenantSummaryShape = {
  covenantId: hashOut,
  genesisTransactionId: hashOut
    .nullable()
    .meta({ description: 'the transaction that created the covenant; null when it lies before the indexed history' }),
  createdAt: count.meta({ description: 'the genesis transaction’s block time, epoch milliseconds' }),
  lastTransactionId: hashOut.meta({ description: 'the newest transaction of the lineage' }),
  lastActivityAt: count.meta({ description: 'the newest lineage transaction’s block time, epoch milliseconds' }),
  state: z.enum(['active', 'ended']).meta({
    description: '"ended" when no output bound to the covenant is unspent among accepted transactions',
  }),
  utxoCount: count.meta({ description: 'unspent outputs bound to the covenant' }),
};

export const covenantSummaryResponse = z
  .strictObject(covenantSummaryShape)
  .meta({ description: 'A KIP-20 covenant: its genesis, its latest activity and its state' });
