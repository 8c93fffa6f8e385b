/** Shared by playwright.config.ts (the app's environment) and the api tests. */

/** Seeded into the app through API_KEYS. */
export const E2E_API_KEY = 'dgb_e2e_api_key_for_playwright_only';
/** The app's DEVNET_SEED: the devnet's wallets derive from it. */
export const E2E_DEVNET_SEED = 'e2e';
/**
 * The app's DEVNET_COINBASE_MATURITY: ten seconds of blocks instead of Kaspa's hundred, so the token traffic (deploys
 * pay 1,000 KAS from matured coinbase) starts sooner.
 */
export const E2E_COINBASE_MATURITY = 100;
/**
 * The app's DEVNET_TOCCATA_ACTIVATION: the e2e chain starts under Crescendo and crosses the Toccata fork five seconds
 * in, as mainnet did mid-chain, so one chain holds both eras. The traffic's coins mature after it (DAA 100).
 */
export const E2E_TOCCATA_ACTIVATION = 50;

/**
 * The app's DEVNET_PRUNING_DEPTH: specs read blocks from the start of the run (the Toccata crossing, early indexed
 * blocks) through the node methods, which a pruned node no longer answers, so the e2e chain never prunes (about three
 * hours of chain); pruning itself is tested in lib/devnet.
 */
export const E2E_PRUNING_DEPTH = 100_000;
