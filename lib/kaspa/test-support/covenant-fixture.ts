/** A counter covenant's genesis and first continuation, built and signed for real from a seeded owner key. */
import { payToPublicKeyScript } from '../address';
import { buildCovenantContinuation, buildCovenantGenesis, counterTemplate } from '../covenant-templates';
import { blake2b256 } from '../hashing';
import { schnorrPublicKey } from '../signing';

export function counterCovenantLineage(seed: string) {
  const ownerKey = blake2b256(new TextEncoder().encode(seed));
  const owner = schnorrPublicKey(ownerKey);
  const template = counterTemplate(owner, { maxFee: 50_000n });
  const funding = {
    outpoint: { transactionId: blake2b256(new TextEncoder().encode(`${seed}:funding`)), index: 0 },
    entry: { amount: 10_000_000_000n, scriptPublicKey: payToPublicKeyScript(owner), blockDaaScore: 1n, isCoinbase: false },
  };
  const genesis = buildCovenantGenesis({ template, funding, amount: 1_000_000_000n, fee: 10_000n, privateKey: ownerKey });
  const continuation = buildCovenantContinuation({ template, utxo: genesis.utxo, fee: 10_000n, privateKey: ownerKey });
  return { owner, template, genesis, continuation };
}
