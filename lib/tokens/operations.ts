/**
 * KRC-20 operations: field normalisation and validation (kasplex/indexer-executor operation/init.go Validate*,
 * operation/op_*.go Validate and ScriptCollectEx; explorer/script.go parseOpData) and the per-transaction op list
 * (which inputs count, the v3 payload op). An op that fails validation is dropped without a record; the opError
 * strings belong to execution (engine.ts).
 */
import { decodeAddress, encodeAddress, isPayToScriptHashScript, scriptPublicKeyToAddress } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import { isCoinbase } from '../kaspa/transaction';
import type { ScriptPublicKey, Transaction } from '../kaspa/types';
import { decodeOpJson, envelopeSenderAddress, extractRedeemScript, parseEnvelopeInput, parseRedeemScript } from './envelope';
import type { OpFields } from './envelope';
import { isActiveDaaScore, type TokenProfile } from './profile';

export const OP_NAMES = ['deploy', 'mint', 'transfer', 'burn', 'list', 'send', 'issue', 'chown', 'blacklist'] as const;
export type OpName = (typeof OP_NAMES)[number];

/** The opError strings Kasplex stores on failed ops (opAccept = -1). */
export const OP_ERRORS = [
  'tick existed',
  'tick ignored',
  'tick reserved',
  'fee unknown',
  'fee not enough',
  'address invalid',
  'tick not found',
  'mode invalid',
  'mint finished',
  'issue finished',
  'no ownership',
  'blacklist',
  'balance insuff',
  'no affected',
  'order not found',
  'order abnormal',
] as const;
export type OpError = (typeof OP_ERRORS)[number];

export const PROTOCOL = 'KRC-20';
/** Miner-fee floors of the reveal transaction, in sompi (FeeLeast): 1000 KAS to deploy, 1 KAS to mint. */
export const DEPLOY_FEE_FLOOR = 100_000_000_000n;
export const MINT_FEE_FLOOR = 100_000_000n;
/** The largest amount Kasplex accepts: 32 nines, in smallest units. */
export const MAX_AMOUNT = 10n ** 32n - 1n;
export const DEFAULT_DECIMALS = 8;
export const MAX_DECIMALS = 18;
/** v3 cuts a transfer memo to this many characters. */
export const MAX_MEMO_LENGTH = 256;

export function feeFloor(op: OpName): bigint {
  if (op === 'deploy') return DEPLOY_FEE_FLOOR;
  if (op === 'mint') return MINT_FEE_FLOOR;
  return 0n;
}

/** Go's strings.ToUpper/ToLower map rune by rune (simple case mapping): a rune whose case form is longer stays. */
function mapRunes(text: string, map: (char: string) => string): string {
  let out = '';
  for (const char of text) {
    const mapped = map(char);
    out += [...mapped].length === 1 ? mapped : char;
  }
  return out;
}

export function goUpper(text: string): string {
  return mapRunes(text, (char) => char.toUpperCase());
}

export function goLower(text: string): string {
  return mapRunes(text, (char) => char.toLowerCase());
}

export function isAsciiText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** `p`, upper-cased, must be KRC-20. */
export function normalizeProtocol(p: string): string | null {
  const upper = goUpper(p);
  return upper === PROTOCOL ? upper : null;
}

export function normalizeOpName(op: string): OpName | null {
  const lower = goLower(op);
  return (OP_NAMES as readonly string[]).includes(lower) ? (lower as OpName) : null;
}

/** ValidateTick: upper-cased, 4–6 bytes, A–Z only. */
export function normalizeTick(tick: string): string | null {
  const upper = goUpper(tick);
  return /^[A-Z]{4,6}$/.test(upper) ? upper : null;
}

/** ValidateTxId: a contract address (issue-mode token id) is a 64-hex transaction id, lower-cased. */
export function normalizeContractAddress(ca: string): string | null {
  const lower = goLower(ca);
  return /^[0-9a-f]{64}$/.test(lower) ? lower : null;
}

/** ValidateTickTxId: shorter than 64 bytes is a tick, otherwise a contract address. */
export function normalizeTickOrContract(value: string): string | null {
  return new TextEncoder().encode(value).length < 64 ? normalizeTick(value) : normalizeContractAddress(value);
}

export function isContractAddress(tokenKey: string): boolean {
  return tokenKey.length === 64;
}

/** ValidateAmount: canonical base-10 big integer (no sign, no leading zeros), 0 < amount ≤ 32 nines. */
export function parseAmount(text: string): bigint | null {
  if (!/^[1-9][0-9]*$/.test(text)) return null;
  const amount = BigInt(text);
  return amount <= MAX_AMOUNT ? amount : null;
}

/** ValidateDec: canonical integer 0–18; empty means the default 8. */
export function parseDecimals(text: string): number | null {
  if (text === '') return DEFAULT_DECIMALS;
  if (!/^(0|[1-9][0-9]?)$/.test(text)) return null;
  const dec = Number(text);
  return dec <= MAX_DECIMALS ? dec : null;
}

/**
 * VerifyAddr: the address decodes for this network's prefix and is spelled canonically (lower case), with version 0,
 * 1 or 8 and the matching payload length.
 */
export function isValidTokenAddress(address: string, prefix: TokenProfile['addressPrefix']): boolean {
  try {
    const decoded = decodeAddress(address);
    return decoded.prefix === prefix && encodeAddress(decoded) === address;
  } catch {
    return false;
  }
}

interface OpBase {
  /** The signer's address (the key in the redeem script, or input 0's address for payload ops). */
  from: string;
  inputIndex: number;
}

export type TokenMode = 'mint' | 'issue';

/** `tick` is the token key throughout: the upper-case tick, or for issue-mode tokens the lower-case ca. */
export type DeployOp = OpBase & {
  op: 'deploy';
  mode: TokenMode;
  tick: string;
  /** Issue mode only: the display name (4–6 letters, not unique). */
  name: string;
  /** 0n means unlimited (issue mode only). */
  max: bigint;
  lim: bigint;
  pre: bigint;
  dec: number;
  to: string;
};
export type MintOp = OpBase & { op: 'mint'; tick: string; to: string };
export type TransferOp = OpBase & { op: 'transfer'; tick: string; to: string; amt: bigint; memo: string | null };
export type BurnOp = OpBase & { op: 'burn'; tick: string; amt: bigint };
/** The listing's UTXO: outputs[0] of the list reveal (the send P2SH and the KAS it holds). */
export interface ListingUtxo {
  txId: string;
  address: string;
  amount: bigint;
}
export type ListOp = OpBase & { op: 'list'; tick: string; amt: bigint; utxo: ListingUtxo };
/**
 * A fill (input 0 and ≥ 2 outputs: `to` = outputs[1], `price` = outputs[0] in sompi) or a cancel (`to` = from,
 * price 0). `listingTxId` is the spent outpoint's transaction: the list reveal.
 */
export type SendOp = OpBase & { op: 'send'; tick: string; to: string; price: bigint; listingTxId: string };
export type IssueOp = OpBase & { op: 'issue'; tick: string; to: string; amt: bigint };
export type ChownOp = OpBase & { op: 'chown'; tick: string; to: string };
export type BlacklistOp = OpBase & { op: 'blacklist'; tick: string; to: string; mod: 'add' | 'remove' };

export type TokenOp = DeployOp | MintOp | TransferOp | BurnOp | ListOp | SendOp | IssueOp | ChownOp | BlacklistOp;

/** What validation needs to know about the transaction and the input carrying the op. */
export interface OpContext {
  profile: TokenProfile;
  txId: string;
  daaScore: bigint;
  inputIndex: number;
  /** The spent outpoint's transaction id of this input (hex). */
  previousTxId: string;
  /** Each output's address for this network, '' for non-standard scripts. */
  outputAddresses: readonly string[];
  outputAmounts: readonly bigint[];
}

function tokenKeyOf(fields: OpFields): string | null {
  const ca = normalizeContractAddress(fields.ca);
  return normalizeTickOrContract(ca ?? fields.tick);
}

function validateDeploy(fields: OpFields, context: OpContext, base: OpBase): DeployOp | null {
  const dec = parseDecimals(fields.dec);
  if (dec === null) return null;
  const pre = parseAmount(fields.pre) ?? 0n;
  const to = fields.to === '' ? base.from : fields.to;
  if (context.daaScore >= context.profile.issueModeFrom && fields.mod === 'issue') {
    const name = normalizeTick(fields.name);
    if (name === null) return null;
    const max = fields.max === '0' ? 0n : parseAmount(fields.max);
    if (max === null) return null;
    return { ...base, op: 'deploy', mode: 'issue', tick: context.txId.toLowerCase(), name, max, lim: 0n, pre, dec, to };
  }
  const tick = normalizeTick(fields.tick);
  const max = parseAmount(fields.max);
  const lim = parseAmount(fields.lim);
  if (tick === null || max === null || lim === null) return null;
  return { ...base, op: 'deploy', mode: 'mint', tick, name: '', max, lim, pre, dec, to };
}

function memoOf(fields: OpFields, context: OpContext): string | null {
  const { payloadFrom } = context.profile;
  if (payloadFrom === null || context.daaScore <= payloadFrom || fields.memo === '') return null;
  return isAsciiText(fields.memo) ? fields.memo.slice(0, MAX_MEMO_LENGTH) : null;
}

/**
 * The op an input carries once its fields are normalised, or null when Kasplex drops it. `fields.from` must already
 * hold the sender and `fields.p`/`fields.op` must have passed `normalizeProtocol`/`normalizeOpName`.
 */
export function validateOp(op: OpName, fields: OpFields, context: OpContext): TokenOp | null {
  if (fields.from === '') return null;
  const base: OpBase = { from: fields.from, inputIndex: context.inputIndex };
  const { daaScore, profile } = context;
  switch (op) {
    case 'deploy':
      return validateDeploy(fields, context, base);
    case 'mint': {
      const tick = normalizeTick(fields.tick);
      return tick === null ? null : { ...base, op, tick, to: fields.to === '' ? base.from : fields.to };
    }
    case 'transfer': {
      const tick = tokenKeyOf(fields);
      const amt = parseAmount(fields.amt);
      if (fields.to === '' || tick === null || amt === null) return null;
      return { ...base, op, tick, to: fields.to, amt, memo: memoOf(fields, context) };
    }
    case 'burn': {
      if (daaScore < profile.issueModeFrom) return null;
      const tick = tokenKeyOf(fields);
      const amt = parseAmount(fields.amt);
      return tick === null || amt === null ? null : { ...base, op, tick, amt };
    }
    case 'list': {
      if (daaScore < profile.marketplaceFrom || context.outputAddresses.length === 0) return null;
      const tick = tokenKeyOf(fields);
      const amt = parseAmount(fields.amt);
      if (tick === null || amt === null) return null;
      const utxo = { txId: context.txId, address: context.outputAddresses[0]!, amount: context.outputAmounts[0]! };
      return { ...base, op, tick, amt, utxo };
    }
    case 'send': {
      if (daaScore < profile.marketplaceFrom) return null;
      const fill = context.inputIndex === 0 && context.outputAddresses.length > 1;
      const to = fill ? context.outputAddresses[1]! : base.from;
      const price = fill ? context.outputAmounts[0]! : 0n;
      const tick = tokenKeyOf(fields);
      if (to === '' || tick === null) return null;
      return { ...base, op, tick, to, price, listingTxId: context.previousTxId };
    }
    case 'issue': {
      if (daaScore < profile.issueModeFrom) return null;
      const tick = normalizeContractAddress(fields.ca);
      const amt = parseAmount(fields.amt);
      if (tick === null || amt === null) return null;
      return { ...base, op, tick, amt, to: fields.to === '' ? base.from : fields.to };
    }
    case 'chown': {
      if (daaScore < profile.issueModeFrom) return null;
      const tick = tokenKeyOf(fields);
      return fields.to === '' || tick === null ? null : { ...base, op, tick, to: fields.to };
    }
    case 'blacklist': {
      if (daaScore < profile.issueModeFrom) return null;
      const tick = normalizeContractAddress(fields.ca);
      const mod = fields.mod;
      if (fields.to === '' || tick === null || (mod !== 'add' && mod !== 'remove')) return null;
      return { ...base, op, tick, to: fields.to, mod };
    }
  }
}

/** A spent output as the caller knows it (a UtxoEntry fits). */
export interface SpentOutput {
  amount: bigint;
  scriptPublicKey: ScriptPublicKey;
}

export interface ParsedScript {
  inputIndex: number;
  op: TokenOp;
}

export interface ParsedTransaction {
  txId: string;
  /** Ops in input order: input 0's op, then any `send` found on later inputs; a payload op stands alone. */
  scripts: ParsedScript[];
  /** Input 0's canonical signer script (Kasplex's spkFrom), which a `list` must have paid the send P2SH with. */
  signerScript: Uint8Array | null;
  fromPayload: boolean;
}

export interface ParseTransactionContext {
  profile: TokenProfile;
  txId: string;
  /** DAA score of the accepting chain block. */
  daaScore: bigint;
  /** One entry per input when known; needed for the payload op's sender. */
  spentOutputs?: readonly (SpentOutput | null | undefined)[];
}

interface FieldsSource {
  fields: OpFields;
  inputIndex: number;
}

function checkedOp(source: FieldsSource, context: OpContext): TokenOp | null {
  const { fields } = source;
  const p = normalizeProtocol(fields.p);
  const op = normalizeOpName(fields.op);
  if (p === null || op === null || !isAsciiText(fields.to)) return null;
  return validateOp(op, { ...fields, p, op }, context);
}

function payloadScript(
  tx: Transaction,
  context: ParseTransactionContext,
  opContext: (inputIndex: number) => OpContext,
): { script: ParsedScript; signerScript: Uint8Array | null } | null {
  const { payloadFrom, addressPrefix } = context.profile;
  if (payloadFrom === null || context.daaScore < payloadFrom || isCoinbase(tx) || tx.payload.length === 0) return null;
  const spent = context.spentOutputs?.[0];
  const input = tx.inputs[0];
  if (!spent || !input) return null;
  const from = scriptPublicKeyToAddress(spent.scriptPublicKey, addressPrefix);
  const fields = decodeOpJson(tx.payload, 'payload');
  if (!from || !fields) return null;
  const op = checkedOp({ fields: { ...fields, from }, inputIndex: 0 }, opContext(0));
  if (!op || op.op === 'send') return null;
  const redeem = isPayToScriptHashScript(spent.scriptPublicKey.script) ? extractRedeemScript(input.signatureScript) : null;
  const signerScript = redeem ? (parseRedeemScript(redeem)?.signerScript ?? null) : spent.scriptPublicKey.script;
  return { script: { inputIndex: 0, op }, signerScript };
}

/**
 * The KRC-20 ops a transaction carries (explorer/script.go parseOpData plus go-krc20d parsePayloadOpData), or null.
 * Every input is parsed; only input 0 may carry a normal op and later inputs only `send`. From the v3 fork a payload
 * op replaces the envelope ops unless one of them is a `send`.
 */
export function parseTransactionOps(tx: Transaction, context: ParseTransactionContext): ParsedTransaction | null {
  const { profile, daaScore } = context;
  if (!isActiveDaaScore(profile, daaScore)) return null;
  const outputAddresses = tx.outputs.map(
    (output) => scriptPublicKeyToAddress(output.scriptPublicKey, profile.addressPrefix) ?? '',
  );
  const outputAmounts = tx.outputs.map((output) => output.value);
  const opContext = (inputIndex: number): OpContext => ({
    profile,
    txId: context.txId,
    daaScore,
    inputIndex,
    previousTxId: bytesToHex(tx.inputs[inputIndex]?.previousOutpoint.transactionId ?? new Uint8Array(0)),
    outputAddresses,
    outputAmounts,
  });
  const recipientFromOutputZero =
    profile.outputZeroRecipientUntil !== null && daaScore <= profile.outputZeroRecipientUntil && tx.outputs.length > 0;
  const scripts: ParsedScript[] = [];
  let signerScript: Uint8Array | null = null;
  tx.inputs.forEach((input, inputIndex) => {
    const envelope = parseEnvelopeInput(input.signatureScript);
    if (!envelope) return;
    const decoded = decodeOpJson(envelope.content, 'envelope');
    if (!decoded) return;
    const fields: OpFields = { ...decoded, from: envelopeSenderAddress(envelope, profile.addressPrefix) };
    if (recipientFromOutputZero) fields.to = outputAddresses[0]!;
    const op = checkedOp({ fields, inputIndex }, opContext(inputIndex));
    if (!op) return;
    if (inputIndex === 0) {
      scripts.push({ inputIndex, op });
      signerScript = envelope.signerScript;
    } else if (op.op === 'send') {
      scripts.push({ inputIndex, op });
    }
  });
  const payload = payloadScript(tx, context, opContext);
  if (payload && !scripts.some((script) => script.op.op === 'send')) {
    return { txId: context.txId, scripts: [payload.script], signerScript: payload.signerScript, fromPayload: true };
  }
  return scripts.length === 0 ? null : { txId: context.txId, scripts, signerScript, fromPayload: false };
}

/**
 * The reveal's miner fee: Σ known input amounts − Σ outputs. undefined when the spent outputs are not given at all;
 * 0n when the inputs do not exceed the outputs (Kasplex then drops a deploy or mint).
 */
export function revealFee(tx: Transaction, spentOutputs?: readonly (SpentOutput | null | undefined)[]): bigint | undefined {
  if (!spentOutputs) return undefined;
  let inputs = 0n;
  for (const spent of spentOutputs) inputs += spent?.amount ?? 0n;
  let outputs = 0n;
  for (const output of tx.outputs) outputs += output.value;
  return inputs > outputs ? inputs - outputs : 0n;
}
