import { describe, expect, it } from 'vitest';
import { AddressVersion, decodeAddress, encodeAddress, scriptHashAddress, type AddressPrefix } from '../kaspa/address';
import { bytesToHex, concatBytes, hexToBytes } from '../kaspa/bytes';
import { blake2b256 } from '../kaspa/hashing';
import { readVectors } from '../kaspa/test-support/vectors';
import {
  MAX_REDEEM_SCRIPT_SIZE,
  buildEnvelopeScript,
  buildRedeemScript,
  buildRevealSignatureScript,
  commitAddress,
  commitScriptPublicKey,
  decodeOpJson,
  envelopeSenderAddress,
  extractRedeemScript,
  multisigSignerScript,
  parseEnvelopeInput,
  parseRedeemScript,
  pushData,
  sendRedeemScript,
  singleKeySignerScript,
  type Envelope,
} from './envelope';
import { normalizeOpName, normalizeProtocol, normalizeTick } from './operations';
import { PLACEHOLDER_SIGNATURE, ecdsaParty, schnorrParty } from './test-support/transactions';

interface ScriptVector {
  id: string;
  kind: 'redeemScript' | 'signatureScript' | 'derived';
  network: string;
  redeemScriptHex?: string;
  signatureScriptHex?: string;
  context?: Record<string, unknown>;
  expected: Record<string, unknown>;
}

interface Krc20Vectors {
  scriptVectors: ScriptVector[];
}

const vectors = readVectors<Krc20Vectors>('krc20-vectors.json');

function prefixOf(network: string): AddressPrefix {
  return network === 'mainnet' ? 'kaspa' : 'kaspatest';
}

function vector(id: string): ScriptVector {
  const found = vectors.scriptVectors.find((entry) => entry.id === id);
  if (!found) throw new Error(`missing vector ${id}`);
  return found;
}

function envelopeOf(entry: ScriptVector): Envelope {
  const envelope = entry.signatureScriptHex
    ? parseEnvelopeInput(hexToBytes(entry.signatureScriptHex))
    : parseRedeemScript(hexToBytes(entry.redeemScriptHex!));
  if (!envelope) throw new Error(`vector ${entry.id} did not parse`);
  return envelope;
}

function publicKeyOf(envelope: Envelope): Uint8Array {
  if (envelope.signer.kind === 'multisig') throw new Error('expected a single-key signer');
  return envelope.signer.publicKey;
}

const text = new TextDecoder();

describe('krc20-vectors.json script vectors', () => {
  const parsed = vectors.scriptVectors.filter((entry) => entry.kind !== 'derived');

  it.each(parsed.map((entry) => [entry.id, entry] as const))('%s: key, JSON and sender', (_id, entry) => {
    const envelope = envelopeOf(entry);
    if (entry.expected.pubkey !== undefined) expect(bytesToHex(publicKeyOf(envelope))).toBe(entry.expected.pubkey);
    expect(envelope.signer.kind).toBe('schnorr');
    expect(text.decode(envelope.content)).toBe(entry.expected.json);
    const from = entry.expected.from ?? entry.expected.sellerAddressFromPubkey;
    if (from !== undefined) expect(envelopeSenderAddress(envelope, prefixOf(entry.network))).toBe(from);
  });

  it.each(parsed.map((entry) => [entry.id, entry] as const))('%s: commit P2SH of the redeem script', (_id, entry) => {
    const envelope = envelopeOf(entry);
    const prefix = prefixOf(entry.network);
    const spk = entry.expected.p2shScriptPublicKey ?? entry.expected.redeemP2shScriptPublicKey;
    const address = entry.expected.p2shAddress ?? entry.expected.redeemP2shAddress ?? entry.expected.p2shAddress_computed;
    if (spk !== undefined) expect(bytesToHex(commitScriptPublicKey(envelope.redeemScript).script)).toBe(spk);
    expect(commitAddress(envelope.redeemScript, prefix)).toBe(address);
  });

  it('redeem-transfer-KASP-mainnet: the JSON is pushed with OP_PUSHDATA1 (0x8a bytes)', () => {
    const envelope = envelopeOf(vector('redeem-transfer-KASP-mainnet'));
    const redeem = envelope.redeemScript;
    const at = 34 + 1 + 10;
    expect([redeem[at], redeem[at + 1]]).toEqual([0x4c, 0x8a]);
    expect(envelope.content.length).toBe(0x8a);
  });

  it('reveal-sigscript-mint-cypu-mainnet: push layout, SIGHASH_ALL and the normalised op', () => {
    const entry = vector('reveal-sigscript-mint-cypu-mainnet');
    const script = hexToBytes(entry.signatureScriptHex!);
    expect(script[0]).toBe(0x41);
    expect(script[65]).toBe(0x01);
    const redeem = extractRedeemScript(script)!;
    expect(script.length - redeem.length).toBe((entry.expected.redeemScriptStartHexOffset as number) / 2);
    expect(bytesToHex(blake2b256(redeem))).toBe((entry.expected.redeemP2shScriptPublicKey as string).slice(4, 68));
    const fields = decodeOpJson(envelopeOf(entry).content)!;
    expect({ p: normalizeProtocol(fields.p), op: normalizeOpName(fields.op), tick: normalizeTick(fields.tick) }).toEqual(
      entry.expected.normalized,
    );
  });

  it('pskt-seller-send-KFWFS-testnet: SIGHASH_SINGLE|ANYONECANPAY, the spent UTXO is the redeem P2SH, output 0 pays the seller key', () => {
    const entry = vector('pskt-seller-send-KFWFS-testnet');
    const script = hexToBytes(entry.signatureScriptHex!);
    expect(script[65]).toBe(0x84);
    const envelope = envelopeOf(entry);
    const context = entry.context as { spentUtxoScriptPublicKey: string; sellerOutput0: { scriptPublicKey: string } };
    expect(bytesToHex(commitScriptPublicKey(envelope.redeemScript).script)).toBe(context.spentUtxoScriptPublicKey);
    expect(bytesToHex(envelope.signerScript)).toBe(context.sellerOutput0.scriptPublicKey);
  });

  it('redeem-mint-WARE-uppercase-p-testnet: "KRC-20" is accepted as p', () => {
    const fields = decodeOpJson(envelopeOf(vector('redeem-mint-WARE-uppercase-p-testnet')).content)!;
    expect(normalizeProtocol(fields.p)).toBe('KRC-20');
  });

  it('market-order-uScript-koba-testnet: the lowercase send envelope of the seller key is the order uScript and uAddr', () => {
    const entry = vector('market-order-uScript-koba-testnet');
    const record = (entry.context as { apiMarketRecord: { tick: string; from: string; uAddr: string } }).apiMarketRecord;
    const seller = envelopeOf(entry);
    const uScript = sendRedeemScript(seller.signerScript, record.tick);
    expect(bytesToHex(uScript)).toBe(entry.redeemScriptHex);
    expect(scriptHashAddress(uScript, 'kaspatest')).toBe(record.uAddr);
    expect(envelopeSenderAddress(seller, 'kaspatest')).toBe(record.from);
  });

  it('redeem-with-op1-metadata-lane-mainnet: 292 bytes, the OP_1 lane is metadata p1 and the JSON follows', () => {
    const entry = vector('redeem-with-op1-metadata-lane-mainnet');
    const envelope = envelopeOf(entry);
    const metadata = entry.expected.metadataField as { dataHex: string };
    expect(envelope.redeemScript.length).toBe(entry.expected.lengthBytes);
    expect(envelope.metadata?.field).toBe('p1');
    expect(bytesToHex(envelope.metadata!.data)).toBe(metadata.dataHex);
  });

  it('derived-lowercase-send-KFWFS: the listing P2SH built from the sdk-kiwi seller key', () => {
    const entry = vector('derived-lowercase-send-KFWFS');
    const seller = envelopeOf(vector('pskt-seller-send-KFWFS-testnet'));
    const uScript = sendRedeemScript(seller.signerScript, 'KFWFS');
    expect(bytesToHex(uScript)).toBe(entry.redeemScriptHex);
    expect(bytesToHex(commitScriptPublicKey(uScript).script)).toBe(entry.expected.p2shScriptPublicKey);
    expect(scriptHashAddress(uScript, 'kaspatest')).toBe(entry.expected.p2shAddress);
  });

  it.each(['redeem-transfer-KASP-mainnet', 'redeem-mint-WARE-uppercase-p-testnet', 'market-order-uScript-koba-testnet'])(
    '%s: buildRedeemScript reproduces the script byte for byte',
    (id) => {
      const entry = vector(id);
      const envelope = envelopeOf(entry);
      const rebuilt = buildRedeemScript(publicKeyOf(envelope), text.decode(envelope.content));
      expect(bytesToHex(rebuilt)).toBe(entry.redeemScriptHex);
    },
  );
});

describe('parseEnvelopeInput', () => {
  const signer = schnorrParty(1);
  const json = '{"p":"krc-20","op":"mint","tick":"ABCD"}';
  const redeem = buildEnvelopeScript(signer.signerScript, json);

  it('round-trips a reveal built by the builders', () => {
    const envelope = parseEnvelopeInput(buildRevealSignatureScript(PLACEHOLDER_SIGNATURE, redeem))!;
    expect(bytesToHex(envelope.redeemScript)).toBe(bytesToHex(redeem));
    expect(text.decode(envelope.content)).toBe(json);
    expect(envelopeSenderAddress(envelope, 'kaspadev')).toBe(signer.address);
    expect(envelope.metadata).toBeNull();
  });

  it('rejects signature scripts of 69 bytes or fewer', () => {
    const shortRedeem = concatBytes(signer.signerScript, Uint8Array.of(0x00, 0x63, 0x07), new TextEncoder().encode('kasplex'), Uint8Array.of(0x00, 0x01, 0x7b, 0x68));
    expect(shortRedeem.length).toBe(48);
    expect(parseEnvelopeInput(concatBytes(Uint8Array.of(0x13), new Uint8Array(19), pushData(shortRedeem)))).toBeNull();
    expect(parseEnvelopeInput(concatBytes(Uint8Array.of(0x14), new Uint8Array(20), pushData(shortRedeem)))).not.toBeNull();
  });

  it('requires the last push to end the script and hold at least 47 bytes', () => {
    const padded = concatBytes(pushData(new Uint8Array(30)), pushData(new Uint8Array(46)));
    expect(extractRedeemScript(padded)).toBeNull();
    expect(extractRedeemScript(concatBytes(pushData(new Uint8Array(30)), pushData(new Uint8Array(47))))).not.toBeNull();
    const trailing = concatBytes(buildRevealSignatureScript(PLACEHOLDER_SIGNATURE, redeem), Uint8Array.of(0x51));
    expect(parseEnvelopeInput(trailing)).toBeNull();
  });

  it('walks at most 16 pushes and only push opcodes', () => {
    const fifteen = concatBytes(...new Array<Uint8Array>(15).fill(Uint8Array.of(0x01, 0xff)), pushData(redeem));
    const sixteen = concatBytes(...new Array<Uint8Array>(16).fill(Uint8Array.of(0x01, 0xff)), pushData(redeem));
    expect(parseEnvelopeInput(fifteen)).not.toBeNull();
    expect(parseEnvelopeInput(sixteen)).toBeNull();
    expect(parseEnvelopeInput(concatBytes(Uint8Array.of(0x76), pushData(PLACEHOLDER_SIGNATURE), pushData(redeem)))).toBeNull();
  });

  it('accepts OP_PUSHDATA2 (little-endian length) for the redeem script and the JSON', () => {
    const long = `{"p":"krc-20","op":"mint","tick":"ABCD","pad":"${'x'.repeat(300)}"}`;
    const longRedeem = buildEnvelopeScript(signer.signerScript, long);
    const sigScript = buildRevealSignatureScript(PLACEHOLDER_SIGNATURE, longRedeem);
    expect(sigScript[66]).toBe(0x4d);
    expect(text.decode(parseEnvelopeInput(sigScript)!.content)).toBe(long);
  });

  it('compares "kasplex" case-insensitively and rejects other tags', () => {
    const upper = concatBytes(signer.signerScript, Uint8Array.of(0x00, 0x63, 0x07), new TextEncoder().encode('KaSpLeX'), Uint8Array.of(0x00), pushData(new TextEncoder().encode(json)), Uint8Array.of(0x68));
    expect(parseRedeemScript(upper)).not.toBeNull();
    const other = concatBytes(signer.signerScript, Uint8Array.of(0x00, 0x63, 0x07), new TextEncoder().encode('kasplax'), Uint8Array.of(0x00), pushData(new TextEncoder().encode(json)), Uint8Array.of(0x68));
    expect(parseRedeemScript(other)).toBeNull();
  });

  it('needs OP_0 + JSON: metadata alone or an immediate OP_ENDIF carries no op', () => {
    const head = concatBytes(signer.signerScript, Uint8Array.of(0x00, 0x63, 0x07), new TextEncoder().encode('kasplex'));
    expect(parseRedeemScript(concatBytes(head, Uint8Array.of(0x68), new Uint8Array(8)))).toBeNull();
    expect(parseRedeemScript(concatBytes(head, Uint8Array.of(0x51), pushData(new Uint8Array(4)), Uint8Array.of(0x68)))).toBeNull();
    expect(parseRedeemScript(concatBytes(head, Uint8Array.of(0x52), pushData(new Uint8Array(4)), Uint8Array.of(0x68)))).toBeNull();
    const both = parseRedeemScript(
      concatBytes(head, Uint8Array.of(0x5f), pushData(Uint8Array.of(9)), Uint8Array.of(0x00), pushData(new TextEncoder().encode(json)), Uint8Array.of(0x68)),
    )!;
    expect(both.metadata).toEqual({ field: 'p15', data: Uint8Array.of(9) });
    expect(text.decode(both.content)).toBe(json);
  });

  it('derives a version 1 address from an ECDSA (33-byte, OP_CHECKSIGECDSA) signer', () => {
    const ecdsa = ecdsaParty(2);
    const envelope = parseRedeemScript(buildRedeemScript(ecdsa.publicKey, json))!;
    expect(envelope.signer.kind).toBe('ecdsa');
    const address = envelopeSenderAddress(envelope, 'kaspadev');
    expect(decodeAddress(address).version).toBe(AddressVersion.PubKeyECDSA);
    expect(address).toBe(ecdsa.address);
  });

  it('rejects a 32-byte key with OP_CHECKSIGECDSA and a 33-byte key with OP_CHECKSIG', () => {
    const ecdsa = ecdsaParty(2);
    const tail = concatBytes(Uint8Array.of(0x00, 0x63, 0x07), new TextEncoder().encode('kasplex'), Uint8Array.of(0x00), pushData(new TextEncoder().encode(json)), Uint8Array.of(0x68));
    expect(parseRedeemScript(concatBytes(Uint8Array.of(0x20), signer.publicKey, Uint8Array.of(0xab), tail))).toBeNull();
    expect(parseRedeemScript(concatBytes(Uint8Array.of(0x21), ecdsa.publicKey, Uint8Array.of(0xac), tail))).toBeNull();
  });

  it('derives the P2SH (version 8) address of the canonical multisig script', () => {
    const keys = [schnorrParty(3).publicKey, schnorrParty(4).publicKey];
    const multisig = multisigSignerScript(1, keys);
    expect(multisig[multisig.length - 1]).toBe(0xae);
    const envelope = parseRedeemScript(buildEnvelopeScript(multisig, json))!;
    expect(envelope.signer).toEqual({ kind: 'multisig', required: 1, publicKeys: keys });
    expect(envelopeSenderAddress(envelope, 'kaspadev')).toBe(
      encodeAddress({ prefix: 'kaspadev', version: AddressVersion.ScriptHash, payload: blake2b256(multisig) }),
    );
  });

  it('spells a multisig with any ECDSA key with OP_CHECKMULTISIGECDSA, whatever opcode the script used', () => {
    const keys = [schnorrParty(3).publicKey, ecdsaParty(5).publicKey];
    const canonical = multisigSignerScript(2, keys);
    expect(canonical[canonical.length - 1]).toBe(0xa9);
    const written = Uint8Array.of(...canonical.subarray(0, canonical.length - 1), 0xae);
    const envelope = parseRedeemScript(buildEnvelopeScript(written, json))!;
    expect(bytesToHex(envelope.signerScript)).toBe(bytesToHex(canonical));
  });

  it('rejects a multisig whose key count differs from OP_n, and an OP_16 start', () => {
    const keys = [schnorrParty(3).publicKey, schnorrParty(4).publicKey];
    const script = multisigSignerScript(1, keys);
    const wrongCount = Uint8Array.of(...script.subarray(0, script.length - 2), 0x53, 0xae);
    expect(parseRedeemScript(buildEnvelopeScript(wrongCount, json))).toBeNull();
    const sixteen = Uint8Array.of(0x60, ...script.subarray(1));
    expect(parseRedeemScript(buildEnvelopeScript(sixteen, json))).toBeNull();
  });
});

describe('builders', () => {
  it('pushData picks direct, OP_PUSHDATA1 and OP_PUSHDATA2 encodings', () => {
    expect(bytesToHex(pushData(new Uint8Array(75)).subarray(0, 1))).toBe('4b');
    expect(bytesToHex(pushData(new Uint8Array(76)).subarray(0, 2))).toBe('4c4c');
    expect(bytesToHex(pushData(new Uint8Array(256)).subarray(0, 3))).toBe('4d0001');
  });

  it('buildRedeemScript refuses scripts over the 520-byte element limit', () => {
    const key = schnorrParty(1).publicKey;
    const fits = `{"p":"krc-20","x":"${'a'.repeat(MAX_REDEEM_SCRIPT_SIZE - 34 - 14 - 3 - 20)}"}`;
    expect(buildRedeemScript(key, fits).length).toBeLessThanOrEqual(MAX_REDEEM_SCRIPT_SIZE);
    expect(() => buildRedeemScript(key, `${fits.slice(0, -2)}aaaaaaaa"}`)).toThrow(RangeError);
  });

  it('commit address and script public key commit to blake2b-256 of the redeem script', () => {
    const redeem = buildRedeemScript(schnorrParty(1).publicKey, { p: 'krc-20', op: 'mint', tick: 'ABCD' });
    const address = commitAddress(redeem, 'kaspadev');
    expect(address.startsWith('kaspadev:p')).toBe(true);
    expect(bytesToHex(decodeAddress(address).payload)).toBe(bytesToHex(blake2b256(redeem)));
    expect(bytesToHex(commitScriptPublicKey(redeem).script)).toBe(`aa20${bytesToHex(blake2b256(redeem))}87`);
  });

  it('singleKeySignerScript rejects keys that are neither 32 nor 33 bytes', () => {
    expect(() => singleKeySignerScript(new Uint8Array(31))).toThrow(RangeError);
  });
});

describe('decodeOpJson', () => {
  it('matches keys case-insensitively (envelope dialect) and keeps the last occurrence', () => {
    const fields = decodeOpJson('{"P":"krc-20","OP":"mint","Tick":"abcd","tick":"efgh"}')!;
    expect([fields.p, fields.op, fields.tick]).toEqual(['krc-20', 'mint', 'efgh']);
    expect(decodeOpJson('{"tick":"efgh","TICK":"abcd"}')!.tick).toBe('abcd');
  });

  it('folds the Kelvin sign into k, as Go does', () => {
    expect(decodeOpJson('{"tic\u212a":"abcd"}')!.tick).toBe('abcd');
  });

  it('drops the op for a non-string known field, ignores unknown keys of any type', () => {
    expect(decodeOpJson('{"p":"krc-20","op":"deploy","tick":"ABCD","max":100,"lim":"1"}')).toBeNull();
    expect(decodeOpJson('{"p":"krc-20","op":"mint","tick":"ABCD","extra":[1,{"a":true}]}')?.tick).toBe('ABCD');
  });

  it('leaves a field unchanged on null (envelope) and reads null as empty (payload)', () => {
    expect(decodeOpJson('{"tick":"ABCD","tick":null}')!.tick).toBe('ABCD');
    expect(decodeOpJson('{"tick":"ABCD","tick":null}', 'payload')!.tick).toBe('');
  });

  it('payload dialect: case-sensitive keys and any non-string value drops the op', () => {
    expect(decodeOpJson('{"TICK":"ABCD"}', 'payload')!.tick).toBe('');
    expect(decodeOpJson('{"tick":"ABCD","n":1}', 'payload')).toBeNull();
  });

  it('rejects invalid JSON and non-object documents; null is an empty op', () => {
    expect(decodeOpJson('{"p":"krc-20",}')).toBeNull();
    expect(decodeOpJson('{"p":"krc-20"} x')).toBeNull();
    expect(decodeOpJson('["krc-20"]')).toBeNull();
    expect(decodeOpJson('"krc-20"')).toBeNull();
    expect(decodeOpJson('null')!.p).toBe('');
    expect(decodeOpJson(Uint8Array.of(0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"p":"krc-20"}')))).toBeNull();
  });

  it('unescapes strings, replacing unpaired surrogates with U+FFFD', () => {
    expect(decodeOpJson('{"tick":"\\u0041BCD"}')!.tick).toBe('ABCD');
    expect(decodeOpJson('{"to":"\\ud800x"}')!.to).toBe('\ufffdx');
    expect(decodeOpJson('{"to":"\\ud83d\\ude00"}')!.to).toBe('\u{1f600}');
  });
});
