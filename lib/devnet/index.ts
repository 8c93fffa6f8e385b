/**
 * lib/devnet: the embedded Kaspa devnet node, the default data source when KASPA_RPC_URL is unset.
 *
 * Owns consensus as rusty-kaspa v2.0.1 validates it (10 blocks/s, GHOSTDAG k=124): Crescendo rules (header version 1,
 * transaction version 0) before the Toccata activation DAA score (DEVNET_TOCCATA_ACTIVATION, from genesis by default)
 * and Toccata's from it (header version 2 with the first parent the selected parent, version 1 coinbases, v0 and v1
 * transactions with covenants, script-unit metering and lane limits, the KIP-21 sequencing commitment in the
 * accepted-id root with lane proofs): genesis, header and body validation, GHOSTDAG, reachability, DAA windows and
 * difficulty, parents by level, the virtual and its selected chain, UTXO acceptance with MuHash commitments (covenant
 * ids included) and coinbase rewards; the mempool (v2.0.1 policy by activation, orphans, replacement) and fee estimator; block templates (one per
 * virtual state shared by all miners, kaspad's template cache); a wRPC JSON server speaking kaspad's wire protocol
 * with kaspad's method handlers and notifications; simulated miners with network delay (parallel blocks, shallow chain
 * reorganisations) and partitions about once a minute (red blocks); deterministic wallets and a traffic generator; and
 * a block log that makes the chain survive restarts (and sets aside a chain recorded under another activation).
 *
 * Its folders import one way, each only the ones before it:
 *   - consensus/  the rules and state: params, genesis, header and body validation, GHOSTDAG, reachability, DAA and
 *                 difficulty, parents, transaction validation and script units, UTXO diffs and acceptance, the virtual,
 *                 pruning and its snapshot, the template's transaction selection
 *   - mempool/    the pool (v2.0.1 policy by activation, orphans, replacement) and the fee estimator
 *   - mining/     miners with network delay and partitions, the bootstrap outputs of a new chain
 *   - traffic/    deterministic wallets (HD included), the payment, token and covenant traffic on its own thread
 *   - server/     the wRPC JSON server and kaspad's method handlers, notifications and process metrics
 * The top-level files assemble them: node.ts (the node, with node-persistence.ts, node-block-flow.ts,
 * in-process-rpc.ts and forced-reorg.ts), block-log.ts (persistence), worker.ts and main.ts (the embedded and
 * standalone entry points).
 *
 * Callers talk to the node through the wRPC protocol (lib/rpc), exactly as they would to a real kaspad.
 */
export { createDevnetNode, DEVNET_SERVER_VERSION } from './node';
export type { DevnetNode, DevnetNodeEvent, DevnetNodeOptions, DevnetNodeStats } from './node';
