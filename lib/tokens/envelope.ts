/**
 * The Kasplex inscription envelope: a reveal input's signature script is `<push sig> <push redeemScript>`, and the
 * redeem script is `<signer> OP_FALSE OP_IF "kasplex" [OP_odd <metadata>] OP_0 <json> OP_ENDIF`. The parser follows
 * kasplex/indexer-executor and kasplex/go-krc20d explorer/script.go parseScriptInput byte for byte (the script is not
 * executed; consensus already validated the spend). The builders produce the same layout for the devnet's
 * commit/reveal traffic.
 */
import {
  AddressVersion,
  encodeAddress,
  payToScriptHashScript,
  scriptHashAddress,
  type AddressPrefix,
} from '../kaspa/address';
import { concatBytes, equalBytes } from '../kaspa/bytes';
import { blake2b256 } from '../kaspa/hashing';
import { calcEcdsaSignatureHash, calcSchnorrSignatureHash, SIG_HASH_ALL, SigHashReusedValues, type SigHashType } from '../kaspa/sighash';
import { nobleSecp256k1, signEcdsa, signSchnorr, type Secp256k1Backend } from '../kaspa/signing';
import type { ScriptPublicKey, Transaction, UtxoEntry } from '../kaspa/types';
import { readJsonTopLevel } from './json-entries';

const OP_0 = 0x00;
const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_1 = 0x51;
const OP_16 = 0x60;
const OP_IF = 0x63;
const OP_ENDIF = 0x68;
const OP_CHECKMULTISIGECDSA = 0xa9;
const OP_CHECKMULTISIG = 0xae;
const OP_CHECKSIGECDSA = 0xab;
const OP_CHECKSIG = 0xac;
const MAX_DIRECT_PUSH = 75;

/** "kasplex" in ASCII. */
const PROTOCOL_TAG = Uint8Array.of(0x6b, 0x61, 0x73, 0x70, 0x6c, 0x65, 0x78);
/** Signature scripts of at most this many bytes cannot carry an envelope. */
const MIN_SIGNATURE_SCRIPT_EXCLUSIVE = 69;
const MIN_REDEEM_SCRIPT = 47;
const MAX_PUSHES = 16;
const MAX_MULTISIG_KEYS = 16;
/** Consensus cap on one pushed element (MAX_SCRIPT_ELEMENT_SIZE before the covenants line); the redeem script is one. */
export const MAX_REDEEM_SCRIPT_SIZE = 520;

export type EnvelopeSigner =
  | { kind: 'schnorr'; publicKey: Uint8Array }
  | { kind: 'ecdsa'; publicKey: Uint8Array }
  | { kind: 'multisig'; required: number; publicKeys: Uint8Array[] };

export interface EnvelopeMetadata {
  /** "p1", "p3", … "p15": the odd OP_N that introduced it. Reserved; KRC-20 ignores it. */
  field: string;
  data: Uint8Array;
}

export interface Envelope {
  redeemScript: Uint8Array;
  signer: EnvelopeSigner;
  /**
   * The signer part in Kasplex's canonical spelling ("spkFrom"): `20 key ac`, `21 key ab`, or
   * `OP_m (20|21 key)… OP_n ae|a9` where a9 is used whenever any key is 33 bytes. Listings are checked against it.
   */
  signerScript: Uint8Array;
  /** The bytes pushed after OP_0: the op JSON. */
  content: Uint8Array;
  metadata: EnvelopeMetadata | null;
}

interface Push {
  start: number;
  length: number;
  next: number;
}

/** Kasplex's push reader: direct pushes 0x00–0x4b, OP_PUSHDATA1 and OP_PUSHDATA2 (little-endian length). */
function readPushHeader(script: Uint8Array, at: number): { length: number; start: number } | null {
  const opcode = script[at];
  if (opcode === undefined) return null;
  if (opcode === OP_PUSHDATA1) {
    const length = script[at + 1];
    return length === undefined ? null : { length, start: at + 2 };
  }
  if (opcode === OP_PUSHDATA2) {
    const low = script[at + 1];
    const high = script[at + 2];
    return low === undefined || high === undefined ? null : { length: low | (high << 8), start: at + 3 };
  }
  return opcode <= MAX_DIRECT_PUSH ? { length: opcode, start: at + 1 } : null;
}

function readPush(script: Uint8Array, at: number): Push | null {
  const header = readPushHeader(script, at);
  if (!header || header.start + header.length > script.length) return null;
  return { start: header.start, length: header.length, next: header.start + header.length };
}

/** OP_1..OP_16 as 1..16, or null. */
function readSmallInteger(script: Uint8Array, at: number): number | null {
  const opcode = script[at];
  return opcode !== undefined && opcode >= OP_1 && opcode <= OP_16 ? opcode - OP_1 + 1 : null;
}

/** Steps 1–2: walk at most 16 pushes; the last must end the script exactly and hold ≥ 47 bytes. */
export function extractRedeemScript(signatureScript: Uint8Array): Uint8Array | null {
  if (signatureScript.length <= MIN_SIGNATURE_SCRIPT_EXCLUSIVE) return null;
  let at = 0;
  for (let count = 0; count < MAX_PUSHES; count++) {
    const header = readPushHeader(signatureScript, at);
    if (!header) return null;
    const end = header.start + header.length;
    if (end > signatureScript.length) return null;
    if (end === signatureScript.length) {
      return header.length < MIN_REDEEM_SCRIPT ? null : signatureScript.subarray(header.start);
    }
    at = end;
  }
  return null;
}

export function singleKeySignerScript(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length === 32) return concatBytes(Uint8Array.of(0x20), publicKey, Uint8Array.of(OP_CHECKSIG));
  if (publicKey.length === 33) return concatBytes(Uint8Array.of(0x21), publicKey, Uint8Array.of(OP_CHECKSIGECDSA));
  throw new RangeError(`a signer key is 32 (Schnorr x-only) or 33 (ECDSA compressed) bytes, got ${publicKey.length}`);
}

export function multisigSignerScript(required: number, publicKeys: readonly Uint8Array[]): Uint8Array {
  if (publicKeys.length < 1 || publicKeys.length > 16 || required < 1 || required > 15) {
    throw new RangeError('a multisig signer has 1–16 keys and requires 1–15 signatures');
  }
  const ecdsa = publicKeys.some((key) => key.length === 33);
  return concatBytes(
    Uint8Array.of(OP_1 - 1 + required),
    ...publicKeys.map((key) => Uint8Array.of(key.length, ...key)),
    Uint8Array.of(OP_1 - 1 + publicKeys.length, ecdsa ? OP_CHECKMULTISIGECDSA : OP_CHECKMULTISIG),
  );
}

interface SignerParse {
  signer: EnvelopeSigner;
  signerScript: Uint8Array;
  next: number;
}

function parseSigner(script: Uint8Array): SignerParse | null {
  const required = readSmallInteger(script, 0);
  if (required === null) {
    const push = readPush(script, 0);
    if (!push) return null;
    const publicKey = script.slice(push.start, push.next);
    const check = script[push.next];
    // Kasplex also wants at least one byte after the check-sig opcode before looking at it.
    if (push.next + 1 >= script.length) return null;
    if (push.length === 32 && check === OP_CHECKSIG) {
      return { signer: { kind: 'schnorr', publicKey }, signerScript: singleKeySignerScript(publicKey), next: push.next + 1 };
    }
    if (push.length === 33 && check === OP_CHECKSIGECDSA) {
      return { signer: { kind: 'ecdsa', publicKey }, signerScript: singleKeySignerScript(publicKey), next: push.next + 1 };
    }
    return null;
  }
  if (required >= 16) return null;
  const publicKeys: Uint8Array[] = [];
  let at = 1;
  for (let count = 0; count < MAX_MULTISIG_KEYS; count++) {
    const push = readPush(script, at);
    if (!push) {
      const total = readSmallInteger(script, at);
      if (total === null || total !== publicKeys.length) return null;
      const check = script[at + 1];
      if (check !== OP_CHECKMULTISIG && check !== OP_CHECKMULTISIGECDSA) return null;
      return {
        signer: { kind: 'multisig', required, publicKeys },
        signerScript: multisigSignerScript(required, publicKeys),
        next: at + 2,
      };
    }
    if (push.length !== 32 && push.length !== 33) return null;
    publicKeys.push(script.slice(push.start, push.next));
    at = push.next;
  }
  return null;
}

function isProtocolTag(bytes: Uint8Array): boolean {
  if (bytes.length !== PROTOCOL_TAG.length) return false;
  // ASCII upper-casing of both sides: "KASPLEX" has no letter whose non-ASCII forms upper-case into it in 7 bytes.
  return bytes.every((byte, index) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte) === PROTOCOL_TAG[index]);
}

const METADATA_FIELDS: ReadonlyMap<number, string> = new Map(
  [1, 3, 5, 7, 9, 11, 13, 15].map((n) => [OP_1 - 1 + n, `p${n}`]),
);

/** Steps 3–5: the signer, the `00 63 07 "kasplex"` header, then at most two fields (OP_0 JSON, odd OP_N metadata). */
export function parseRedeemScript(redeemScript: Uint8Array): Envelope | null {
  const signer = parseSigner(redeemScript);
  if (!signer) return null;
  let at = signer.next;
  if (at + 11 > redeemScript.length) return null;
  if (redeemScript[at] !== OP_0 || redeemScript[at + 1] !== OP_IF || redeemScript[at + 2] !== PROTOCOL_TAG.length) {
    return null;
  }
  if (!isProtocolTag(redeemScript.subarray(at + 3, at + 10))) return null;
  at += 10;
  let content: Uint8Array = new Uint8Array(0);
  let metadata: EnvelopeMetadata | null = null;
  for (let field = 0; field < 2; field++) {
    const opcode = redeemScript[at];
    if (opcode === undefined) return null;
    at++;
    if (opcode === OP_ENDIF) break;
    const metadataField = METADATA_FIELDS.get(opcode);
    if (opcode !== OP_0 && metadataField === undefined) return null;
    const push = readPush(redeemScript, at);
    if (!push) return null;
    const data = redeemScript.slice(push.start, push.next);
    if (metadataField === undefined) {
      content = data;
    } else {
      metadata = { field: metadataField, data };
    }
    at = push.next;
  }
  if (content.length === 0) return null;
  return { redeemScript, signer: signer.signer, signerScript: signer.signerScript, content, metadata };
}

export function parseEnvelopeInput(signatureScript: Uint8Array): Envelope | null {
  const redeemScript = extractRedeemScript(signatureScript);
  return redeemScript && parseRedeemScript(redeemScript);
}

/**
 * The op's sender: the version 0 (Schnorr) or 1 (ECDSA) address of the key in the redeem script, or the P2SH address
 * of the canonical multisig script. Like Kasplex, the key is not checked to be a curve point.
 */
export function envelopeSenderAddress(envelope: Pick<Envelope, 'signer' | 'signerScript'>, prefix: AddressPrefix): string {
  const { signer } = envelope;
  switch (signer.kind) {
    case 'schnorr':
      return encodeAddress({ prefix, version: AddressVersion.PubKey, payload: signer.publicKey });
    case 'ecdsa':
      return encodeAddress({ prefix, version: AddressVersion.PubKeyECDSA, payload: signer.publicKey });
    case 'multisig':
      return encodeAddress({ prefix, version: AddressVersion.ScriptHash, payload: blake2b256(envelope.signerScript) });
  }
}

/** The fields Kasplex decodes from op JSON (indexer-executor storage.DataScriptType) plus v3's `memo`. */
export const OP_FIELD_NAMES = [
  'p',
  'op',
  'from',
  'to',
  'tick',
  'max',
  'lim',
  'pre',
  'dec',
  'amt',
  'utxo',
  'price',
  'mod',
  'name',
  'ca',
  'memo',
] as const;
export type OpFieldName = (typeof OP_FIELD_NAMES)[number];
/** Absent fields are '' (Go's zero value), as Kasplex treats them. */
export type OpFields = Record<OpFieldName, string>;

const OP_FIELD_SET: ReadonlySet<string> = new Set(OP_FIELD_NAMES);

export function emptyOpFields(): OpFields {
  return Object.fromEntries(OP_FIELD_NAMES.map((name) => [name, ''])) as OpFields;
}

/**
 * Go's encoding/json matches struct fields case-insensitively with Unicode simple folding; for these ASCII names
 * that means ASCII case plus the Kelvin sign (folds to k) and the long s (folds to s).
 */
function foldFieldName(key: string): string | null {
  const folded = key.replace(/\u212a/g, 'k').replace(/\u017f/g, 's');
  if (!/^[\x00-\x7f]*$/.test(folded)) return null;
  const lower = folded.toLowerCase();
  return OP_FIELD_SET.has(lower) ? lower : null;
}

/**
 * 'envelope': indexer-executor's json.Unmarshal into a struct of strings. Keys match case-insensitively, the last
 * occurrence wins, null leaves a field as it was, a non-string value for a known field drops the op, unknown keys
 * are ignored. 'payload': go-krc20d's payload decode into map[string]string: keys are case-sensitive and any
 * non-string value (null aside, which reads as '') drops the op.
 */
export type OpJsonDialect = 'envelope' | 'payload';

/** Go keeps a byte-order mark, which then fails JSON syntax; TextDecoder would silently drop it. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The op fields of a JSON content, or null when Kasplex would drop it while decoding. */
export function decodeOpJson(content: Uint8Array | string, dialect: OpJsonDialect = 'envelope'): OpFields | null {
  const text = typeof content === 'string' ? content : utf8.decode(content);
  const top = readJsonTopLevel(text);
  if (!top) return null;
  const fields = emptyOpFields();
  if (top.kind === 'null') return fields;
  if (top.kind !== 'object') return null;
  let typeMismatch = false;
  for (const member of top.members) {
    const name = dialect === 'envelope' ? foldFieldName(member.key) : OP_FIELD_SET.has(member.key) ? member.key : null;
    if (dialect === 'payload' && member.kind !== 'string' && member.kind !== 'null') typeMismatch = true;
    if (name === null) continue;
    const field = name as OpFieldName;
    if (member.kind === 'string') {
      fields[field] = member.value;
    } else if (member.kind === 'null') {
      if (dialect === 'payload') fields[field] = '';
    } else {
      typeMismatch = true;
    }
  }
  return typeMismatch ? null : fields;
}

/** Minimal push encoding: direct up to 75 bytes, OP_PUSHDATA1 up to 255, OP_PUSHDATA2 (little-endian) beyond. */
export function pushData(data: Uint8Array): Uint8Array {
  if (data.length <= MAX_DIRECT_PUSH) return concatBytes(Uint8Array.of(data.length), data);
  if (data.length <= 0xff) return concatBytes(Uint8Array.of(OP_PUSHDATA1, data.length), data);
  if (data.length <= 0xffff) {
    return concatBytes(Uint8Array.of(OP_PUSHDATA2, data.length & 0xff, data.length >> 8), data);
  }
  throw new RangeError(`cannot push ${data.length} bytes`);
}

const utf8Encoder = new TextEncoder();

/**
 * `signerScript ‖ 00 63 07 "kasplex" ‖ 00 ‖ push(json) ‖ 68`, the envelope of Kasplex's makeP2SH / MakeP2shKasplex.
 * Their OP_PUSHDATA2 length is written big-endian, which never shows because they only build short send envelopes;
 * this builder writes the little-endian length that the script engine and the parser read.
 */
export function buildEnvelopeScript(signerScript: Uint8Array, json: string): Uint8Array {
  const content = utf8Encoder.encode(json);
  if (content.length === 0) throw new RangeError('the op JSON is empty');
  return concatBytes(
    signerScript,
    Uint8Array.of(OP_0, OP_IF, PROTOCOL_TAG.length),
    PROTOCOL_TAG,
    Uint8Array.of(OP_0),
    pushData(content),
    Uint8Array.of(OP_ENDIF),
  );
}

/** Op JSON in the order the fields are given (so `send` comes out byte-exact as `{"p":"krc-20","op":"send","tick":…}`). */
export function opJson(op: Readonly<Record<string, string>>): string {
  return JSON.stringify(op);
}

/**
 * The redeem script of a commit/reveal pair for a single key: 32-byte x-only (Schnorr, OP_CHECKSIG) or 33-byte
 * compressed (ECDSA, OP_CHECKSIGECDSA). Throws when the script would exceed the 520-byte element limit.
 */
export function buildRedeemScript(publicKey: Uint8Array, op: Readonly<Record<string, string>> | string): Uint8Array {
  const script = buildEnvelopeScript(singleKeySignerScript(publicKey), typeof op === 'string' ? op : opJson(op));
  if (script.length > MAX_REDEEM_SCRIPT_SIZE) {
    throw new RangeError(`the redeem script is ${script.length} bytes; at most ${MAX_REDEEM_SCRIPT_SIZE} can be pushed`);
  }
  return script;
}

/** The commit output's script public key: P2SH of the redeem script (`aa 20 blake2b256(redeem) 87`). */
export function commitScriptPublicKey(redeemScript: Uint8Array): ScriptPublicKey {
  return payToScriptHashScript(redeemScript);
}

export function commitAddress(redeemScript: Uint8Array, prefix: AddressPrefix): string {
  return scriptHashAddress(redeemScript, prefix);
}

/** The reveal input's signature script: `<push signature‖sighash type> <push redeemScript>`. */
export function buildRevealSignatureScript(signatureWithHashType: Uint8Array, redeemScript: Uint8Array): Uint8Array {
  return concatBytes(pushData(signatureWithHashType), pushData(redeemScript));
}

/** The listing P2SH that a `list` reveal's outputs[0] must pay to: the seller's signer with the lowercase send JSON. */
export function sendRedeemScript(signerScript: Uint8Array, tickOrCa: string, key: 'tick' | 'ca' = 'tick'): Uint8Array {
  return buildEnvelopeScript(signerScript, `{"p":"krc-20","op":"send","${key}":"${tickOrCa.toLowerCase()}"}`);
}

export interface SignRevealOptions {
  hashType?: SigHashType;
  reusedValues?: SigHashReusedValues;
  /** BIP340 auxiliary randomness; random when omitted. */
  auxRand?: Uint8Array;
  backend?: Secp256k1Backend;
}

/**
 * The signature script of a reveal input spending P2SH(`redeemScript`), whose single-key signer is `privateKey`'s
 * Schnorr (32-byte) or ECDSA (33-byte) key: the script engine runs `<sig> <key> OP_CHECKSIG(ECDSA)` and skips the
 * envelope. The input's sig-op count must be at least 1 and already set (it is signed).
 */
export function signRevealInput(
  tx: Transaction,
  inputIndex: number,
  privateKey: Uint8Array,
  spentEntries: readonly UtxoEntry[],
  redeemScript: Uint8Array,
  options: SignRevealOptions = {},
): Uint8Array {
  const { hashType = SIG_HASH_ALL, reusedValues = new SigHashReusedValues(tx), auxRand, backend = nobleSecp256k1 } = options;
  const signer = parseRedeemScript(redeemScript)?.signer;
  if (!signer || signer.kind === 'multisig') throw new RangeError('the redeem script is not a single-key envelope');
  const ecdsa = signer.kind === 'ecdsa';
  const ownKey = ecdsa ? backend.ecdsaPublicKey(privateKey) : backend.schnorrPublicKey(privateKey);
  if (!equalBytes(ownKey, signer.publicKey)) {
    throw new RangeError('the private key does not belong to the envelope signer');
  }
  const signature = ecdsa
    ? signEcdsa(calcEcdsaSignatureHash(tx, inputIndex, spentEntries, hashType, reusedValues), privateKey, backend)
    : signSchnorr(calcSchnorrSignatureHash(tx, inputIndex, spentEntries, hashType, reusedValues), privateKey, auxRand, backend);
  return buildRevealSignatureScript(Uint8Array.of(...signature, hashType), redeemScript);
}
