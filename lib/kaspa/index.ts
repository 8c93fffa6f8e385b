/**
 * lib/kaspa: pure Kaspa consensus primitives (hashing, serialization, merkle roots, coinbase, subsidy), written from
 * rusty-kaspa's consensus code. No I/O here: every function maps bytes and numbers to bytes and numbers.
 */
export * from './header';
export * from './merkle';
export * from './seq-commit';
export * from './coinbase';
export * from './subsidy';
export * from './sighash';
export * from './signing';
export * from './address';
export * from './pow';
export * from './muhash';
export * from './mass';
export * from './amount';
