/**
 * lib/db owns the database: one `Db` interface over embedded PGlite or PostgreSQL, versioned migrations, and the
 * queries the indexer and API make.
 *   - connection.ts  openDb({ url }): `memory://`, a PGlite data directory, or `postgres://…`; both backends return
 *                    the same JS values (int8 → bigint, numeric → decimal string, bytea → Uint8Array)
 *   - migrations.ts  the schema as ordered, append-only migrations and the lock-guarded runner
 *   - records.ts     the typed records written and read (hashes Uint8Array, u64 bigint)
 *   - writes.ts      the indexer's idempotent batched writes, virtual-chain (acceptance) changes and checkpoints,
 *                    and the indexer's own reads (stored block links)
 *   - digests.ts     an ordered digest per index table (crash recovery compared against a from-scratch reindex)
 *   - lock.ts        the PostgreSQL advisory lock that keeps a database to one writing indexer
 *   - reads.ts       the API's reads: transactions by id, address history pages, blocks by DAA-score range
 * Configuration comes in as arguments; nothing here reads the environment.
 */
export { openDb } from './connection';
export type { Db, OpenDbOptions, Queryable, QueryOptions, QueryResult } from './connection';
export { MIGRATIONS, MigrationError, migrate } from './migrations';
export type { Migration } from './migrations';
export { confirmations, isAccepted } from './records';
export type {
  AddressPage,
  AddressTransaction,
  BlockRecord,
  ChainBlockAcceptance,
  Checkpoint,
  IndexedBlock,
  IndexedTransaction,
  InputRecord,
  OutputRecord,
  TransactionRecord,
  VirtualChainChange,
} from './records';
export {
  ADDRESS_PAGE_LIMIT,
  MAX_DAA_SCORE_RANGE,
  UnknownCursorError,
  getAddressTransactions,
  getBlocksByDaaScore,
  getTransaction,
  getTransactions,
} from './reads';
export type { AddressPageQuery, DaaScoreRangeQuery } from './reads';
export { INDEX_TABLE_COLUMNS, tableDigests } from './digests';
export type { TableDigest } from './digests';
export { acquireIndexerLock, INDEXER_LOCK_KEY } from './lock';
export type { IndexerLock } from './lock';
export type { StoredBlockLinks } from './writes';
export {
  addAcceptances,
  commitAsynchronously,
  getStoredBlockLinks,
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  readCheckpoint,
  removeAcceptances,
  resolvePreviousOutputs,
  setChainBlockFlags,
  writeCheckpoint,
} from './writes';
