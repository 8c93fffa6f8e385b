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
