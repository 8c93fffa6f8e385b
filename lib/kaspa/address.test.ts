import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_PREFIXES,
  AddressError,
  type AddressErrorCode,
  AddressVersion,
  addressToScriptPublicKey,
  decodeAddress,
  decodeCashAddress,
  ecdsaAddressFromPublicKey,
  encodeAddress,
  encodeCashAddress,
  isValidAddress,
  payToScriptHashScript,
  schnorrAddressFromPublicKey,
  scriptClassOf,
  scriptHashAddress,
  scriptPublicKeyToAddress,
  type AddressPrefix,
  type ScriptClass,
} from './address';
import { bytesToHex, hexToBytes } from './bytes';
import { readVectors } from './test-support/vectors';

interface AddressVectors {
  encodeDecode: { vectors: { prefix: string; version: number; payloadHex: string; expected: string }[] };
  invalid: { vectors: { address: string; expectedError: string }[] };
  scriptPublicKey: {
    vectors: {
      name: string;
      scriptPublicKey: { version: number; script: string };
      prefix: AddressPrefix;
      expectedAddress: string | null;
      expectedClass: ScriptClass;
    }[];
  };
  fromPublicKey: { vectors: { name: string; publicKey: string; expected: string }[] };
  derived: {
    name: string;
    privateKey?: string;
    xOnlyPublicKey?: string;
    compressedPublicKey?: string;
    expected?: string;
    expectedByPrefix?: Record<AddressPrefix, string>;
    redeemScript?: string;
    scriptHash?: string;
    scriptPublicKey?: { version: number; script: string };
  }[];
  decodeOnly: { address: string; decodedVersion: number; decodedPayload: string }[];
}

const { addresses } = readVectors<{ addresses: AddressVectors }>('kaspa-vectors.json');

function errorCode(action: () => unknown): AddressErrorCode | 'no error' {
  try {
    action();
    return 'no error';
  } catch (error) {
    if (error instanceof AddressError) return error.code;
    throw error;
  }
}

function derived(name: string) {
  const vector = addresses.derived.find((entry) => entry.name.startsWith(name));
  if (!vector) throw new Error(`no derived address vector "${name}"`);
  return vector;
}

const SOURCE_ERRORS: Record<string, AddressErrorCode> = {
  "DecodingError('1')": 'bad_character',
  'InvalidPrefix("kaspa1")': 'unknown_prefix',
  MissingPrefix: 'missing_prefix',
  BadChecksum: 'bad_checksum',
};

describe('address codec (crypto/addresses/src/lib.rs::tests)', () => {
  it.each(addresses.encodeDecode.vectors.map((vector) => [vector.expected, vector] as const))('%s', (_name, vector) => {
    const payload = hexToBytes(vector.payloadHex);
    expect(encodeCashAddress(vector.prefix, vector.version, payload)).toBe(vector.expected);
    const decoded = decodeCashAddress(vector.expected);
    expect({ ...decoded, payload: bytesToHex(decoded.payload) }).toEqual({
      prefix: vector.prefix,
      version: vector.version,
      payload: vector.payloadHex,
    });
  });

  it('accepts the network vectors through the validating API', () => {
    const network = addresses.encodeDecode.vectors.filter((vector) => vector.prefix.startsWith('kaspa'));
    expect(network.length).toBeGreaterThan(0);
    for (const vector of network) {
      const address = decodeAddress(vector.expected);
      expect(bytesToHex(address.payload)).toBe(vector.payloadHex);
      expect(encodeAddress(address)).toBe(vector.expected);
    }
  });

  it.each(addresses.invalid.vectors.map((vector) => [vector.expectedError, vector] as const))('rejects %s', (sourceError, vector) => {
    const code = SOURCE_ERRORS[sourceError];
    if (!code) throw new Error(`unmapped source error ${sourceError}`);
    expect(errorCode(() => decodeAddress(vector.address))).toBe(code);
  });

  it('decodes the golang multisig import address (wallet/core/src/compat/gen1.rs)', () => {
    for (const vector of addresses.decodeOnly) {
      const address = decodeAddress(vector.address);
      expect(address.version).toBe(vector.decodedVersion);
      expect(bytesToHex(address.payload)).toBe(vector.decodedPayload);
    }
  });

  it('names the offending character and its position', () => {
    const error = (() => {
      try {
        decodeAddress('kaspa:qqqqqqqqqqqqq1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AddressError);
    expect((error as Error).message).toContain('"1" as character 20');
  });

  it('classifies malformed versions, lengths and case', () => {
    const key = new Uint8Array(32).fill(7);
    expect(errorCode(() => decodeAddress(encodeCashAddress('kaspa', 2, key)))).toBe('unknown_version');
    expect(errorCode(() => decodeAddress(encodeCashAddress('kaspa', 0, key.subarray(1))))).toBe('wrong_length');
    expect(errorCode(() => decodeAddress(encodeCashAddress('kaspa', 1, key)))).toBe('wrong_length');
    expect(errorCode(() => decodeAddress('kaspa:qqqq'))).toBe('wrong_length');
    expect(errorCode(() => decodeAddress('kaspa:'))).toBe('wrong_length');
    expect(errorCode(() => decodeAddress('kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqKx9awp4e'))).toBe('mixed_case');
    expect(errorCode(() => decodeAddress('kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e '))).toBe('bad_character');
    expect(errorCode(() => encodeAddress({ prefix: 'kaspa', version: 0, payload: key.subarray(2) }))).toBe('wrong_length');
    expect(errorCode(() => encodeAddress({ prefix: 'bitcoin' as AddressPrefix, version: 0, payload: key }))).toBe('unknown_prefix');
    expect(isValidAddress('kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4e')).toBe(true);
    expect(isValidAddress('kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqkx9awp4l')).toBe(false);
  });

  it('reads an all-upper-case address as its lower-case form', () => {
    const address = 'kaspa:qp0l70zd5x85ttwd6jv7g3s3a8llzj96d8dncn4zmhv4tlzx5k2jyqh70xmfj';
    expect(encodeAddress(decodeAddress(address.toUpperCase()))).toBe(address);
  });
});

const arbitraryAddress = fc
  .record({
    prefix: fc.constantFrom(...ADDRESS_PREFIXES),
    version: fc.constantFrom(AddressVersion.PubKey, AddressVersion.PubKeyECDSA, AddressVersion.ScriptHash),
    payload: fc.uint8Array({ minLength: 33, maxLength: 33 }),
  })
  .map(({ prefix, version, payload }) => ({
    prefix,
    version,
    payload: version === AddressVersion.PubKeyECDSA ? payload : payload.slice(0, 32),
  }));

describe('address properties', () => {
  it('round-trips every prefix and version through the string form and the script public key', () => {
    fc.assert(
      fc.property(arbitraryAddress, (address) => {
        const text = encodeAddress(address);
        expect(text.startsWith(`${address.prefix}:`)).toBe(true);
        const decoded = decodeAddress(text);
        expect({ ...decoded, payload: bytesToHex(decoded.payload) }).toEqual({ ...address, payload: bytesToHex(address.payload) });
        expect(scriptPublicKeyToAddress(addressToScriptPublicKey(text), address.prefix)).toBe(text);
      }),
    );
  });

  it('detects every single-character substitution', () => {
    const charset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    fc.assert(
      fc.property(arbitraryAddress, fc.nat(), fc.nat({ max: 30 }), (address, position, shift) => {
        const text = encodeAddress(address);
        const bodyStart = address.prefix.length + 1;
        const at = bodyStart + (position % (text.length - bodyStart));
        const replacement = charset[(charset.indexOf(text[at]!) + 1 + shift) % charset.length]!;
        const mutated = text.slice(0, at) + replacement + text.slice(at + 1);
        expect(errorCode(() => decodeAddress(mutated))).toBe('bad_checksum');
      }),
    );
  });

  it('rejects an address whose prefix letter was changed', () => {
    fc.assert(
      fc.property(arbitraryAddress, fc.nat(), fc.integer({ min: 1, max: 25 }), (address, position, shift) => {
        const text = encodeAddress(address);
        const at = position % address.prefix.length;
        const replacement = String.fromCharCode(((text.charCodeAt(at) - 97 + shift) % 26) + 97);
        const code = errorCode(() => decodeAddress(text.slice(0, at) + replacement + text.slice(at + 1)));
        expect(['unknown_prefix', 'bad_checksum']).toContain(code);
      }),
    );
  });

  it('reports mixed case when any one letter is upper-cased', () => {
    fc.assert(
      fc.property(arbitraryAddress, fc.nat(), (address, position) => {
        const text = encodeAddress(address);
        const letters = [...text].flatMap((char, index) => (/[a-z]/.test(char) ? [index] : []));
        const at = letters[position % letters.length]!;
        expect(errorCode(() => decodeAddress(text.slice(0, at) + text[at]!.toUpperCase() + text.slice(at + 1)))).toBe('mixed_case');
      }),
    );
  });
});

describe('script public keys and classes', () => {
  it.each(addresses.scriptPublicKey.vectors.map((vector) => [vector.name, vector] as const))(
    '%s (crypto/txscript/src/standard.rs)',
    (_name, vector) => {
      const scriptPublicKey = { version: vector.scriptPublicKey.version, script: hexToBytes(vector.scriptPublicKey.script) };
      expect(scriptClassOf(scriptPublicKey)).toBe(vector.expectedClass);
      expect(scriptPublicKeyToAddress(scriptPublicKey, vector.prefix)).toBe(vector.expectedAddress);
      if (vector.expectedAddress) {
        const rebuilt = addressToScriptPublicKey(vector.expectedAddress);
        expect({ version: rebuilt.version, script: bytesToHex(rebuilt.script) }).toEqual(vector.scriptPublicKey);
      }
    },
  );

  // crypto/txscript/src/script_class.rs::tests::test_script_class_from_script
  it.each([
    ['valid pubkey script', '204a23f5eef4b2dead811c7efb4f1afbd8df845e804b6c36a4001fc096e13f8151ac', 0, 'pubkey'],
    ['valid pubkey ecdsa script', '21fd4a23f5eef4b2dead811c7efb4f1afbd8df845e804b6c36a4001fc096e13f8151ab', 0, 'pubkeyecdsa'],
    ['valid scripthash script', 'aa204a23f5eef4b2dead811c7efb4f1afbd8df845e804b6c36a4001fc096e13f815187', 0, 'scripthash'],
    ['non standard script (unexpected version)', '204a23f5eef4b2dead811c7efb4f1afbd8df845e804b6c36a4001fc096e13f8151ac', 1, 'nonstandard'],
    ['non standard script (unexpected key len)', '1f4a23f5eef4b2dead811c7efb4f1afbd8df845e804b6c36a4001fc096e13f81ac', 0, 'nonstandard'],
    ['non standard script (unexpected final check sig op)', '204a23f5eef4b2dead811c7efb4f1afbd8df845e804b6c36a4001fc096e13f8151ad', 0, 'nonstandard'],
  ] as const)('%s', (_name, script, version, expected) => {
    expect(scriptClassOf({ version, script: hexToBytes(script) })).toBe(expected);
  });

  it('builds the P2SH script and address of a redeem script (OP_TRUE)', () => {
    const vector = derived('P2SH of redeem script');
    const redeemScript = hexToBytes(vector.redeemScript!);
    const scriptPublicKey = payToScriptHashScript(redeemScript);
    expect({ version: scriptPublicKey.version, script: bytesToHex(scriptPublicKey.script) }).toEqual(vector.scriptPublicKey);
    expect(scriptHashAddress(redeemScript, 'kaspa')).toBe(vector.expected);
    expect(scriptPublicKeyToAddress(scriptPublicKey, 'kaspa')).toBe(vector.expected);
  });
});

describe('addresses from keys', () => {
  it.each(addresses.fromPublicKey.vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    expect(schnorrAddressFromPublicKey(hexToBytes(vector.publicKey), 'kaspa')).toBe(vector.expected);
  });

  it('derives the Schnorr and ECDSA addresses of a private key', () => {
    const schnorrVector = derived('private key (BIP340 test key #1)');
    const privateKey = hexToBytes(schnorrVector.privateKey!);
    expect(bytesToHex(schnorr.getPublicKey(privateKey))).toBe(schnorrVector.xOnlyPublicKey);
    expect(schnorrAddressFromPublicKey(schnorr.getPublicKey(privateKey), 'kaspa')).toBe(schnorrVector.expected);

    const ecdsaVector = derived('same private key -> ECDSA address');
    const compressed = secp256k1.getPublicKey(privateKey, true);
    expect(bytesToHex(compressed)).toBe(ecdsaVector.compressedPublicKey);
    expect(ecdsaAddressFromPublicKey(compressed, 'kaspa')).toBe(ecdsaVector.expected);
    expect(ecdsaAddressFromPublicKey(secp256k1.getPublicKey(privateKey, false), 'kaspa')).toBe(ecdsaVector.expected);
  });

  it('encodes the same key for every network', () => {
    const vector = derived('same x-only key on other networks');
    for (const prefix of ADDRESS_PREFIXES) {
      expect(schnorrAddressFromPublicKey(hexToBytes(vector.xOnlyPublicKey!), prefix)).toBe(vector.expectedByPrefix![prefix]);
    }
  });

  it('refuses keys that are not curve points', () => {
    const notOnCurve = hexToBytes('0000000000000000000000000000000000000000000000000000000000000005');
    expect(() => schnorrAddressFromPublicKey(notOnCurve, 'kaspa')).toThrow(/no curve point/);
    expect(() => ecdsaAddressFromPublicKey(Uint8Array.of(0x02, ...notOnCurve), 'kaspa')).toThrow(/not a valid secp256k1 public key/);
    expect(() => schnorrAddressFromPublicKey(new Uint8Array(20), 'kaspa')).toThrow(/got 20/);
  });
});
