/**
 * The devnet's secp256k1 backend: libsecp256k1 compiled to WebAssembly (tiny-secp256k1), several times faster than
 * the pure-JavaScript reference in lib/kaspa/signing.ts, which the node needs to verify and sign 100 tx/s on one core.
 * It yields the very signatures the reference does (both are BIP340 and RFC 6979 low-S); signing.test.ts-style
 * agreement is checked in secp256k1-wasm.test.ts. tiny-secp256k1 throws on encodings it cannot parse (a key that is
 * not on the curve, a scalar at or above the group order), which verification reports as an invalid signature.
 */
import * as tiny from 'tiny-secp256k1';
import type { Secp256k1Backend } from '../../kaspa/signing';

function refusesToThrow(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

export const wasmSecp256k1: Secp256k1Backend = {
  name: 'libsecp256k1-wasm',
  schnorrPublicKey: (privateKey) => tiny.xOnlyPointFromScalar(privateKey),
  ecdsaPublicKey: (privateKey) => {
    const publicKey = tiny.pointFromScalar(privateKey, true);
    if (publicKey === null) throw new RangeError('the private key is not a valid secp256k1 scalar');
    return publicKey;
  },
  signSchnorr: (hash, privateKey, auxRand) => tiny.signSchnorr(hash, privateKey, auxRand),
  verifySchnorr: (signature, hash, xOnlyPublicKey) => refusesToThrow(() => tiny.verifySchnorr(hash, xOnlyPublicKey, signature)),
  signEcdsa: (hash, privateKey) => tiny.sign(hash, privateKey),
  verifyEcdsa: (signature, hash, compressedPublicKey) =>
    refusesToThrow(() => tiny.verify(hash, compressedPublicKey, signature, true)),
};
