/**
 * The KRC-20 operation a transaction's reveal input (Kasplex envelope) or payload carries, decoded for display on the
 * server with lib/tokens' parser. It shows what was written; whether the token indexer applied it (activation, fees,
 * balances) is the token pages' business.
 */
import type { AddressPrefix } from '../../lib/kaspa/address';
import { hexToBytes } from '../../lib/kaspa/bytes';
import { OP_FIELD_NAMES, decodeOpJson, envelopeSenderAddress, normalizeProtocol, parseEnvelopeInput, type OpFields } from '../../lib/tokens';

export interface DecodedKrc20 {
  source: 'envelope' | 'payload';
  /** The input whose signature script carries the envelope; null for a payload op. */
  inputIndex: number | null;
  /** The envelope's signer, or the address input 0 spends from for a payload op; null when unknown. */
  sender: string | null;
  /** The op's fields that are set, in Kasplex's field order. */
  fields: [string, string][];
  /** The op JSON as written. */
  json: string;
}

export interface Krc20Source {
  payload: string;
  inputs: { signatureScript: string; previousAddress?: string | null }[];
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

function setFields(fields: OpFields): [string, string][] {
  return OP_FIELD_NAMES.filter((name) => fields[name] !== '').map((name) => [name, fields[name]]);
}

function hexBytes(hex: string): Uint8Array | null {
  const plain = hex.startsWith('0x') ? hex.slice(2) : hex;
  return /^([0-9a-f]{2})*$/i.test(plain) ? hexToBytes(plain.toLowerCase()) : null;
}

/** The first KRC-20 op of the transaction: an envelope on any input, else a KRC-20 JSON payload; null when none. */
export function decodeKrc20Operation(transaction: Krc20Source, prefix: AddressPrefix): DecodedKrc20 | null {
  for (const [inputIndex, input] of transaction.inputs.entries()) {
    const script = hexBytes(input.signatureScript);
    const envelope = script && parseEnvelopeInput(script);
    if (!envelope) continue;
    const fields = decodeOpJson(envelope.content, 'envelope');
    if (fields === null || normalizeProtocol(fields.p) === null) continue;
    return {
      source: 'envelope',
      inputIndex,
      sender: envelopeSenderAddress(envelope, prefix),
      fields: setFields(fields),
      json: utf8.decode(envelope.content),
    };
  }
  const payload = hexBytes(transaction.payload);
  if (payload === null || payload.length === 0) return null;
  const fields = decodeOpJson(payload, 'payload');
  if (fields === null || normalizeProtocol(fields.p) === null) return null;
  return {
    source: 'payload',
    inputIndex: null,
    sender: transaction.inputs[0]?.previousAddress ?? null,
    fields: setFields(fields),
    json: utf8.decode(payload),
  };
}
