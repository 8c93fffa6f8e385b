/**
 * Kaspa addresses (CashAddr-style: 5-bit groups of version byte ‖ payload, 40-bit polymod checksum over the prefix)
 * and the standard script public keys they stand for. Sources: crypto/addresses/src/lib.rs, bech32.rs;
 * crypto/txscript/src/standard.rs, script_class.rs.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blake2b256 } from './hashing';
import type { ScriptPublicKey } from './types';

export const ADDRESS_PREFIXES = ['kaspa', 'kaspatest', 'kaspasim', 'kaspadev'] as const;
export type AddressPrefix = (typeof ADDRESS_PREFIXES)[number];

export const AddressVersion = { PubKey: 0, PubKeyECDSA: 1, ScriptHash: 8 } as const;
export type AddressVersion = (typeof AddressVersion)[keyof typeof AddressVersion];

const PAYLOAD_LENGTHS: Record<AddressVersion, number> = { 0: 32, 1: 33, 8: 32 };
const VERSION_NAMES: Record<AddressVersion, string> = { 0: 'PubKey', 1: 'PubKeyECDSA', 8: 'ScriptHash' };

export interface Address {
  prefix: AddressPrefix;
  version: AddressVersion;
  /** x-only key (PubKey), compressed key (PubKeyECDSA) or BLAKE2b-256 script hash (ScriptHash). */
  payload: Uint8Array;
}

export type AddressErrorCode =
  | 'missing_prefix'
  | 'unknown_prefix'
  | 'mixed_case'
  | 'bad_character'
  | 'bad_checksum'
  | 'wrong_length'
  | 'unknown_version';

export class AddressError extends Error {
  override name = 'AddressError';

  constructor(
    readonly code: AddressErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isAddressPrefix(value: string): value is AddressPrefix {
  return (ADDRESS_PREFIXES as readonly string[]).includes(value);
}

export function isAddressVersion(value: number): value is AddressVersion {
  return value === 0 || value === 1 || value === 8;
}

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CHARSET_INDEX = new Map([...CHARSET].map((char, index) => [char, index]));
const CHECKSUM_LENGTH = 8;
/** The polymod generators, each 40 bits split into the high 8 and the low 32 bits. */
const GENERATORS: readonly (readonly [number, number])[] = [
  [0x98, 0xf2bc8e61],
  [0x79, 0xb76d99e2],
  [0xf3, 0x3e5fb3c4],
  [0xae, 0x2eabe2a8],
  [0x1e, 0x4f43e470],
];

/**
 * The 40-bit BCH checksum: polymod(prefix_5bit ‖ 0 ‖ data ‖ 0×8), its state kept as two 32-bit halves because
 * JavaScript bit operators are 32-bit. Returned as an exact number.
 */
function checksum(prefix: string, data: readonly number[]): number {
  const values = new Uint8Array(prefix.length + 1 + data.length + CHECKSUM_LENGTH);
  for (let i = 0; i < prefix.length; i++) values[i] = prefix.charCodeAt(i) & 0x1f;
  values.set(data, prefix.length + 1);
  let high = 0;
  let low = 1;
  for (const value of values) {
    const top = high >>> 3;
    high = ((high & 0x07) << 5) | (low >>> 27);
    low = ((low << 5) | value) >>> 0;
    for (let bit = 0; bit < GENERATORS.length; bit++) {
      if ((top >>> bit) & 1) {
        const [generatorHigh, generatorLow] = GENERATORS[bit]!;
        high ^= generatorHigh;
        low = (low ^ generatorLow) >>> 0;
      }
    }
  }
  return high * 2 ** 32 + ((low ^ 1) >>> 0);
}

/** 8-bit to 5-bit groups, most significant bit first, the last group right-padded with zeros. */
function toFiveBit(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out.push((buffer >> bits) & 0x1f);
    }
  }
  if (bits > 0) out.push((buffer << (5 - bits)) & 0x1f);
  return out;
}

/** 5-bit groups back to bytes; trailing padding bits are dropped, as rusty-kaspa does. */
function toEightBit(groups: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.floor((groups.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const group of groups) {
    buffer = ((buffer << 5) | group) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

function checksumGroups(value: number): number[] {
  const groups: number[] = [];
  for (let shift = 35; shift >= 0; shift -= 5) groups.push(Math.floor(value / 2 ** shift) % 32);
  return groups;
}

/**
 * The codec alone: no check of the prefix, the version or the payload length. rusty-kaspa's own test vectors use
 * test-only prefixes ("a", "b") with arbitrary payloads, which only this layer accepts.
 */
export function encodeCashAddress(prefix: string, version: number, payload: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + 1);
  bytes[0] = version;
  bytes.set(payload, 1);
  const data = toFiveBit(bytes);
  let text = `${prefix}:`;
  for (const group of data) text += CHARSET[group];
  for (const group of checksumGroups(checksum(prefix, data))) text += CHARSET[group];
  return text;
}

interface SplitAddress {
  prefix: string;
  body: string;
}

function splitAddress(text: string): SplitAddress {
  const colon = text.indexOf(':');
  if (colon < 0) {
    throw new AddressError(
      'missing_prefix',
      'The address has no network prefix: it should start with "kaspa:" (or "kaspatest:", "kaspasim:", "kaspadev:").',
    );
  }
  const lower = text.toLowerCase();
  if (lower !== text && text.toUpperCase() !== text) {
    throw new AddressError(
      'mixed_case',
      'The address mixes upper- and lower-case letters; Kaspa addresses are written in lower case.',
    );
  }
  return { prefix: lower.slice(0, colon), body: lower.slice(colon + 1) };
}

function decodeBody(prefix: string, body: string): { version: number; payload: Uint8Array } {
  const groups: number[] = [];
  for (let position = 0; position < body.length; position++) {
    const char = body[position]!;
    const group = CHARSET_INDEX.get(char);
    if (group === undefined) {
      throw new AddressError(
        'bad_character',
        `The address contains ${JSON.stringify(char)} as character ${prefix.length + 2 + position}, which never ` +
          'appears in a Kaspa address (the letters b, i, o and the digit 1 are not used).',
      );
    }
    groups.push(group);
  }
  if (groups.length < CHECKSUM_LENGTH + 2) {
    throw new AddressError(
      'wrong_length',
      `The address is too short (${body.length} characters after the prefix); it may have been cut off.`,
    );
  }
  const data = groups.slice(0, -CHECKSUM_LENGTH);
  const expected = checksumGroups(checksum(prefix, data));
  if (expected.some((group, index) => group !== groups[data.length + index])) {
    throw new AddressError(
      'bad_checksum',
      'The address checksum does not match: a character is mistyped, missing or extra. Copy the address again.',
    );
  }
  const bytes = toEightBit(data);
  return { version: bytes[0]!, payload: bytes.slice(1) };
}

/** Decodes any prefix and version (see `encodeCashAddress`). Upper-case input is accepted and read as lower case. */
export function decodeCashAddress(text: string): { prefix: string; version: number; payload: Uint8Array } {
  const { prefix, body } = splitAddress(text);
  return { prefix, ...decodeBody(prefix, body) };
}

function checkPayloadLength(version: AddressVersion, payload: Uint8Array): void {
  const expected = PAYLOAD_LENGTHS[version];
  if (payload.length !== expected) {
    throw new AddressError(
      'wrong_length',
      `A ${VERSION_NAMES[version]} address carries ${expected} bytes, but this one carries ${payload.length}.`,
    );
  }
}

function unknownPrefix(prefix: string): AddressError {
  return new AddressError(
    'unknown_prefix',
    `Unknown address prefix ${JSON.stringify(prefix)}: expected one of ${ADDRESS_PREFIXES.join(', ')}.`,
  );
}

function unknownVersion(version: number): AddressError {
  return new AddressError(
    'unknown_version',
    `Unknown address version ${version}: expected 0 (PubKey), 1 (PubKeyECDSA) or 8 (ScriptHash).`,
  );
}

export function encodeAddress(address: Address): string {
  if (!isAddressPrefix(address.prefix)) throw unknownPrefix(address.prefix);
  if (!isAddressVersion(address.version)) {
    throw unknownVersion(address.version);
  }
  checkPayloadLength(address.version, address.payload);
  return encodeCashAddress(address.prefix, address.version, address.payload);
}

/**
 * Parses an address of one of the four networks. Throws AddressError. The prefix is checked before anything else,
 * as rusty-kaspa does. Like rusty-kaspa, padding bits beyond the payload are ignored, so `encodeAddress` of the
 * result is the canonical spelling; unlike it, an all-upper-case address is accepted.
 */
export function decodeAddress(text: string): Address {
  const { prefix, body } = splitAddress(text);
  if (!isAddressPrefix(prefix)) throw unknownPrefix(prefix);
  const { version, payload } = decodeBody(prefix, body);
  if (!isAddressVersion(version)) {
    throw unknownVersion(version);
  }
  checkPayloadLength(version, payload);
  return { prefix, version, payload };
}

export function isValidAddress(text: string): boolean {
  try {
    decodeAddress(text);
    return true;
  } catch (error) {
    if (error instanceof AddressError) return false;
    throw error;
  }
}

const OP_DATA_32 = 0x20;
const OP_DATA_33 = 0x21;
const OP_EQUAL = 0x87;
const OP_BLAKE2B = 0xaa;
const OP_CHECK_SIG_ECDSA = 0xab;
const OP_CHECK_SIG = 0xac;

/** The only script public key version the script engine knows; classified scripts all use it. */
export const STANDARD_SCRIPT_VERSION = 0;

export type ScriptClass = 'nonstandard' | 'pubkey' | 'pubkeyecdsa' | 'scripthash';

export function isPayToPublicKeyScript(script: Uint8Array): boolean {
  return script.length === 34 && script[0] === OP_DATA_32 && script[33] === OP_CHECK_SIG;
}

export function isPayToPublicKeyEcdsaScript(script: Uint8Array): boolean {
  return script.length === 35 && script[0] === OP_DATA_33 && script[34] === OP_CHECK_SIG_ECDSA;
}

export function isPayToScriptHashScript(script: Uint8Array): boolean {
  return script.length === 35 && script[0] === OP_BLAKE2B && script[1] === OP_DATA_32 && script[34] === OP_EQUAL;
}

/** kaspad's script class names (the strings of gRPC `scriptPublicKeyType`). */
export function scriptClassOf(scriptPublicKey: ScriptPublicKey): ScriptClass {
  if (scriptPublicKey.version !== STANDARD_SCRIPT_VERSION) return 'nonstandard';
  const { script } = scriptPublicKey;
  if (isPayToPublicKeyScript(script)) return 'pubkey';
  if (isPayToPublicKeyEcdsaScript(script)) return 'pubkeyecdsa';
  if (isPayToScriptHashScript(script)) return 'scripthash';
  return 'nonstandard';
}

function requireLength(bytes: Uint8Array, length: number, what: string): void {
  if (bytes.length !== length) throw new RangeError(`${what} must be ${length} bytes, got ${bytes.length}`);
}

export function payToPublicKeyScript(xOnlyPublicKey: Uint8Array): ScriptPublicKey {
  requireLength(xOnlyPublicKey, 32, 'an x-only public key');
  return { version: STANDARD_SCRIPT_VERSION, script: Uint8Array.of(OP_DATA_32, ...xOnlyPublicKey, OP_CHECK_SIG) };
}

export function payToPublicKeyEcdsaScript(compressedPublicKey: Uint8Array): ScriptPublicKey {
  requireLength(compressedPublicKey, 33, 'a compressed public key');
  return {
    version: STANDARD_SCRIPT_VERSION,
    script: Uint8Array.of(OP_DATA_33, ...compressedPublicKey, OP_CHECK_SIG_ECDSA),
  };
}

function payToScriptHash(scriptHash: Uint8Array): ScriptPublicKey {
  requireLength(scriptHash, 32, 'a script hash');
  return { version: STANDARD_SCRIPT_VERSION, script: Uint8Array.of(OP_BLAKE2B, OP_DATA_32, ...scriptHash, OP_EQUAL) };
}

/** P2SH commits to the unkeyed BLAKE2b-256 of the redeem script. */
export function payToScriptHashScript(redeemScript: Uint8Array): ScriptPublicKey {
  return payToScriptHash(blake2b256(redeemScript));
}

export function addressToScriptPublicKey(address: Address | string): ScriptPublicKey {
  const { version, payload } = typeof address === 'string' ? decodeAddress(address) : address;
  switch (version) {
    case AddressVersion.PubKey:
      return payToPublicKeyScript(payload);
    case AddressVersion.PubKeyECDSA:
      return payToPublicKeyEcdsaScript(payload);
    case AddressVersion.ScriptHash:
      return payToScriptHash(payload);
  }
}

/** The address a script public key pays to, or null when the script is not one of the three standard forms. */
export function extractScriptPublicKeyAddress(scriptPublicKey: ScriptPublicKey, prefix: AddressPrefix): Address | null {
  const { script } = scriptPublicKey;
  switch (scriptClassOf(scriptPublicKey)) {
    case 'pubkey':
      return { prefix, version: AddressVersion.PubKey, payload: script.slice(1, 33) };
    case 'pubkeyecdsa':
      return { prefix, version: AddressVersion.PubKeyECDSA, payload: script.slice(1, 34) };
    case 'scripthash':
      return { prefix, version: AddressVersion.ScriptHash, payload: script.slice(2, 34) };
    case 'nonstandard':
      return null;
  }
}

export function scriptPublicKeyToAddress(scriptPublicKey: ScriptPublicKey, prefix: AddressPrefix): string | null {
  const address = extractScriptPublicKeyAddress(scriptPublicKey, prefix);
  return address && encodeAddress(address);
}

function requirePoint(publicKey: Uint8Array): void {
  if (!secp256k1.utils.isValidPublicKey(publicKey)) throw new RangeError('not a valid secp256k1 public key');
}

function requireXOnlyPoint(xOnlyPublicKey: Uint8Array): void {
  if (!secp256k1.utils.isValidPublicKey(Uint8Array.of(0x02, ...xOnlyPublicKey), true)) {
    throw new RangeError('not a valid x-only public key: no curve point has this x coordinate');
  }
}

/**
 * The Schnorr (PubKey) address of a public key given x-only (32 bytes), compressed (33) or uncompressed (65):
 * the payload is the x coordinate, as the wallet's `PublicKey.toAddress` does.
 */
export function schnorrAddressFromPublicKey(publicKey: Uint8Array, prefix: AddressPrefix): string {
  if (publicKey.length === 32) {
    requireXOnlyPoint(publicKey);
    return encodeAddress({ prefix, version: AddressVersion.PubKey, payload: publicKey });
  }
  if (publicKey.length !== 33 && publicKey.length !== 65) {
    throw new RangeError(
      `a public key is 32 (x-only), 33 (compressed) or 65 (uncompressed) bytes, got ${publicKey.length}`,
    );
  }
  requirePoint(publicKey);
  return encodeAddress({ prefix, version: AddressVersion.PubKey, payload: publicKey.slice(1, 33) });
}

/** The ECDSA (PubKeyECDSA) address of a compressed (33-byte) or uncompressed (65-byte) public key. */
export function ecdsaAddressFromPublicKey(publicKey: Uint8Array, prefix: AddressPrefix): string {
  if (publicKey.length !== 33 && publicKey.length !== 65) {
    throw new RangeError(`an ECDSA address needs a 33- or 65-byte public key, got ${publicKey.length}`);
  }
  requirePoint(publicKey);
  const compressed = publicKey.length === 33 ? publicKey : secp256k1.Point.fromBytes(publicKey).toBytes(true);
  return encodeAddress({ prefix, version: AddressVersion.PubKeyECDSA, payload: compressed });
}

export function scriptHashAddress(redeemScript: Uint8Array, prefix: AddressPrefix): string {
  return encodeAddress({ prefix, version: AddressVersion.ScriptHash, payload: blake2b256(redeemScript) });
}
