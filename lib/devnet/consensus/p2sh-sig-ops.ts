/**
 * The static sig-op count kaspad 2.0.1's mempool holds P2SH inputs to (crypto/txscript/src/lib.rs
 * `post_toccata_p2sh_sig_scanner`, used by check_transaction_standard.rs before and after activation alike).
 */
import { isPayToScriptHashScript } from '../../kaspa/address';
import {
  MAX_PUB_KEYS_PER_MULTISIG,
  OP_16,
  OP_CHECKMULTISIG,
  OP_CHECKMULTISIGECDSA,
  OP_CHECKMULTISIGVERIFY,
  OP_CHECKSIG,
  OP_CHECKSIGECDSA,
  OP_CHECKSIGVERIFY,
  OP_PUSHDATA4,
  OP_TRUE,
  parseScript,
  ScriptError,
  type ParsedOpcode,
} from '../../kaspa/script-engine';

/** crypto/txscript/src/opcodes/mod.rs: Toccata's signature checks over a message from the stack. */
const OP_CHECKSIG_FROM_STACK = 0xd7;
const OP_CHECKSIG_FROM_STACK_ECDSA = 0xd8;

const SINGLE_SIG_OPS: ReadonlySet<number> = new Set([
  OP_CHECKSIG,
  OP_CHECKSIGVERIFY,
  OP_CHECKSIGECDSA,
  OP_CHECKSIG_FROM_STACK,
  OP_CHECKSIG_FROM_STACK_ECDSA,
]);
const MULTISIG_OPS: ReadonlySet<number> = new Set([OP_CHECKMULTISIG, OP_CHECKMULTISIGVERIFY, OP_CHECKMULTISIGECDSA]);

function parsedOrNull(script: Uint8Array): ParsedOpcode[] | null {
  try {
    return [...parseScript(script)];
  } catch (error) {
    if (error instanceof ScriptError) return null;
    throw error;
  }
}

/**
 * A data push read as a script number without the minimal-encoding rule (`deserialize_i64(data, false)`), when it
 * is a valid multisig key count 1..20; null otherwise (longer than 8 bytes, out of range).
 */
function pushedKeyCount(data: Uint8Array): number | null {
  if (data.length === 0 || data.length > 8) return null;
  const last = data[data.length - 1]!;
  let magnitude = BigInt(last & 0x7f);
  for (let index = data.length - 2; index >= 0; index--) magnitude = (magnitude << 8n) + BigInt(data[index]!);
  const value = last & 0x80 ? -magnitude : magnitude;
  return value >= 1n && value <= BigInt(MAX_PUB_KEYS_PER_MULTISIG) ? Number(value) : null;
}

/**
 * Sig ops of the redeem script (the signature script's last push) of a P2SH spend: one per signature check, for a
 * multisig the key count pushed right before it (OP_1..OP_16 or any data push of 1..20) or else 20. Zero when the
 * spent script is not P2SH or either script does not parse.
 */
export function p2shSigOpCount(signatureScript: Uint8Array, scriptPublicKey: Uint8Array): number {
  if (!isPayToScriptHashScript(scriptPublicKey)) return 0;
  const signatureOps = parsedOrNull(signatureScript);
  const last = signatureOps?.at(-1);
  if (!last) return 0;
  const redeemOps = parsedOrNull(last.data);
  if (!redeemOps) return 0;
  let sigOps = 0;
  let keyCount: number | null = null;
  for (const { opcode, data } of redeemOps) {
    const precedingKeyCount = keyCount;
    keyCount = null;
    if (SINGLE_SIG_OPS.has(opcode)) sigOps += 1;
    else if (MULTISIG_OPS.has(opcode)) sigOps += precedingKeyCount ?? MAX_PUB_KEYS_PER_MULTISIG;
    else if (opcode >= OP_TRUE && opcode <= OP_16) keyCount = opcode - OP_TRUE + 1;
    else if (opcode <= OP_PUSHDATA4) keyCount = pushedKeyCount(data);
  }
  return sigOps;
}
