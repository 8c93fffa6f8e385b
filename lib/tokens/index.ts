/**
 * lib/tokens owns KRC-20 (Kasplex): parsing operations from transactions, applying them in opScore order with the
 * protocol's rules, token state and its undo log, and the market math (fills, candles, stats); storage lives in
 * lib/db, and the token indexer that follows the chain index and feeds the engine in lib/indexer/token-indexer.ts
 * (this folder knows nothing of the database).
 *
 * - envelope.ts: the commit/reveal inscription envelope (parser, sender address, JSON decoding, builders).
 * - operations.ts: op normalisation and validation, the ops a transaction carries, the reveal fee.
 * - engine.ts: the state machine (tokens, balances, market orders, blacklist) with a per-block undo log; its state
 *   records and store in engine-state.ts, each op's rules in engine-ops.ts.
 * - market.ts: fills, prices in KAS per token, OHLC candles in KAS and USD, {t, h, m, tf} stats.
 * - profile.ts: per-network activation windows (mainnet, and test networks with every op live from DAA 0).
 *
 * Pure: no I/O. Amounts are bigint in smallest units (tokens) or sompi (KAS); numbers appear only at the edge.
 *
 * Server-side parts with I/O, imported by path and not re-exported here (they would pull node modules into pages):
 * - kas-usd.ts: the KAS/USD sources (fixed, HTTP feed, seeded simulation).
 * - registry.ts: the operator's token registry file (devnet-registry.json ships for the devnet's tokens).
 */
export * from './profile';
export * from './envelope';
export * from './operations';
export * from './engine';
export * from './market';
export { readJsonTopLevel, type JsonMember, type JsonTopLevel, type JsonValueKind } from './json-entries';
