/**
 * Coinbase payload codec (consensus/src/processes/coinbase.rs): u64le blue score ‖ u64le subsidy ‖
 * u16le script public key version ‖ u8 script length ‖ script ‖ extra data (the rest, e.g. "<node version>/…").
 */
import { ByteWriter } from './bytes';
import type { ScriptPublicKey } from './types';

export interface CoinbaseData {
  blueScore: bigint;
  subsidy: bigint;
  scriptPublicKey: ScriptPublicKey;
  extraData: Uint8Array;
}

export interface CoinbasePayloadLimits {
  scriptPublicKeyMaxLength: number;
  maxPayloadLength: number;
}

/** coinbase_payload_script_public_key_max_len and max_coinbase_payload_len, equal on every network. */
export const COINBASE_PAYLOAD_LIMITS: CoinbasePayloadLimits = { scriptPublicKeyMaxLength: 150, maxPayloadLength: 204 };

const FIXED_PREFIX_LENGTH = 8 + 8 + 2 + 1;

export type CoinbasePayloadErrorCode =
  | 'payload-too-short'
  | 'payload-too-long'
  | 'script-too-long'
  | 'script-truncated';

export class CoinbasePayloadError extends Error {
  override name = 'CoinbasePayloadError';

  constructor(
    readonly code: CoinbasePayloadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function scriptTooLong(length: number, limits: CoinbasePayloadLimits): CoinbasePayloadError {
  return new CoinbasePayloadError(
    'script-too-long',
    `coinbase payload script public key length is ${length} ` +
      `while the maximum allowed length is ${limits.scriptPublicKeyMaxLength}`,
  );
}

/** Encodes like serialize_coinbase_payload, which checks only the script length. */
export function encodeCoinbasePayload(data: CoinbaseData, limits = COINBASE_PAYLOAD_LIMITS): Uint8Array {
  const scriptLength = data.scriptPublicKey.script.length;
  if (scriptLength > limits.scriptPublicKeyMaxLength) throw scriptTooLong(scriptLength, limits);
  return new ByteWriter()
    .u64(data.blueScore)
    .u64(data.subsidy)
    .u16(data.scriptPublicKey.version)
    .u8(scriptLength)
    .bytes(data.scriptPublicKey.script)
    .bytes(data.extraData)
    .finish();
}

/** Decodes like deserialize_coinbase_payload, with the same checks in the same order. */
export function decodeCoinbasePayload(payload: Uint8Array, limits = COINBASE_PAYLOAD_LIMITS): CoinbaseData {
  if (payload.length < FIXED_PREFIX_LENGTH) {
    throw new CoinbasePayloadError(
      'payload-too-short',
      `coinbase payload length is ${payload.length} while the minimum allowed length is ${FIXED_PREFIX_LENGTH}`,
    );
  }
  if (payload.length > limits.maxPayloadLength) {
    throw new CoinbasePayloadError(
      'payload-too-long',
      `coinbase payload length is ${payload.length} while the maximum allowed length is ${limits.maxPayloadLength}`,
    );
  }
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const scriptLength = view.getUint8(18);
  if (scriptLength > limits.scriptPublicKeyMaxLength) throw scriptTooLong(scriptLength, limits);
  const scriptEnd = FIXED_PREFIX_LENGTH + scriptLength;
  if (payload.length < scriptEnd) {
    throw new CoinbasePayloadError(
      'script-truncated',
      `coinbase payload length is ${payload.length} bytes but it needs to be at least ${scriptEnd} bytes long ` +
        'in order to accommodate the script public key',
    );
  }
  return {
    blueScore: view.getBigUint64(0, true),
    subsidy: view.getBigUint64(8, true),
    scriptPublicKey: { version: view.getUint16(16, true), script: payload.slice(FIXED_PREFIX_LENGTH, scriptEnd) },
    extraData: payload.slice(scriptEnd),
  };
}
