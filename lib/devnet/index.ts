/**
 * lib/devnet: the embedded Kaspa devnet node, the default data source when KASPA_RPC_URL is unset.
 *
 * Owns consensus under Crescendo-era rules as rusty-kaspa v1.0.x validated mainnet (10 blocks/s, GHOSTDAG k=124,
 * header version 1, transaction version 0): genesis, header and body validation, GHOSTDAG, reachability, DAA windows
 * and difficulty, parents by level, the virtual and its selected chain, UTXO acceptance with MuHash commitments and
 * coinbase rewards; the mempool (v1.0.x policy, orphans, replacement) and fee estimator; block templates (one per
 * virtual state shared by all miners, kaspad's template cache); a wRPC JSON server speaking kaspad's wire protocol
 * with kaspad's method handlers and notifications; simulated miners with network delay (parallel blocks, shallow chain
 * reorganisations) and partitions about once a minute (red blocks); deterministic wallets and a traffic generator; and
 * a block log that makes the chain survive restarts.
 *
 * Callers talk to the node through the wRPC protocol (lib/rpc), exactly as they would to a real kaspad.
 */
export { createDevnetNode, DEVNET_SERVER_VERSION } from './node';
export type { DevnetNode, DevnetNodeEvent, DevnetNodeOptions, DevnetNodeStats } from './node';
