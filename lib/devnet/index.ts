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
 * Callers talk to the node through the wRPC protocol (lib/rpc), exactly as they would to a real kaspad.
 */
export { createDevnetNode, DEVNET_SERVER_VERSION } from './node';
export type { DevnetNode, DevnetNodeEvent, DevnetNodeOptions, DevnetNodeStats } from './node';
