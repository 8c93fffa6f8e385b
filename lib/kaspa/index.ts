/**
 * lib/kaspa: pure Kaspa consensus primitives, written from rusty-kaspa's consensus code (the authority).
 *
 * Owns: byte encodings and the keyed hash domains; header hashes; transaction ids (v0 BLAKE2b, v1 BLAKE3) and
 * hashes; merkle roots and the Crescendo accepted-id root; KIP-21 sequencing-commitment hashes; coinbase payloads
 * and the subsidy schedule; signature hashes (Schnorr and ECDSA, six hash types), signing and P2PK verification; a
 * script engine for P2SH redeem scripts such as the KRC-20 envelope (script-engine.ts);
 * addresses and script classes; compute, storage and transient mass and the relay fee; compact bits, work,
 * difficulty and kHeavyHash proof of work; MuHash3072 UTXO commitments; exact sompi/KAS amounts.
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
export * from './amount';
