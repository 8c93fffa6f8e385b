/**
 * lib/kaspa: pure Kaspa consensus primitives, written from rusty-kaspa's consensus code (the authority), as of the
 * Toccata hard fork (rusty-kaspa v2.0.1) with the Crescendo rules kept where blocks before it need them.
 *
 * Owns: byte encodings and the keyed hash domains; header hashes (versions 1 and 2); transaction ids (v0 BLAKE2b, v1
 * BLAKE3), hashes and compute commits; merkle roots and the Crescendo accepted-id root; KIP-17 covenant ids, the
 * covenants context and genesis binding (covenant.ts); KIP-21 subnetwork/lane shapes (subnetwork.ts), the
 * sequencing-commitment hashes (seq-commit.ts), the active-lanes sparse merkle tree (lanes-tree.ts) with its proofs
 * (smt-proof.ts) and a chain block's whole commitment with lane expiry (seq-commit-block.ts); coinbase payloads and
 * the subsidy schedule; signature hashes (Schnorr and ECDSA, six hash types, v0 and v1), signing and P2PK
 * verification; the txscript engine under Crescendo and Toccata rules with script-unit metering (script-engine.ts over
 * script-parse.ts, script-stack.ts and the opcode families in script-opcodes/) and covenant templates whose scripts
 * enforce their successors (covenant-templates.ts); addresses and
 * script classes; compute, storage and transient mass, script units and compute budgets, block mass and lane limits
 * and the relay fee; compact bits, work, difficulty and kHeavyHash proof of work; MuHash3072 UTXO commitments (with
 * covenant ids); exact sompi/KAS amounts.
 *
 * No I/O: every function maps bytes and numbers to bytes and numbers. Hashes are Uint8Array in natural byte order and
 * u64 quantities are bigint.
 */
export * from './bytes';
export * from './hashing';
export * from './types';
export * from './transaction';
export * from './header';
export * from './merkle';
export * from './seq-commit';
export * from './lanes-tree';
export * from './smt-proof';
export * from './seq-commit-block';
export * from './subnetwork';
export * from './coinbase';
export * from './subsidy';
export * from './sighash';
export * from './signing';
export * from './script-engine';
export * from './address';
export * from './pow';
export * from './muhash';
export * from './mass';
export * from './covenant';
export * from './covenant-templates';
export * from './amount';
