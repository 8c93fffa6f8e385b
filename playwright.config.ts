import { defineConfig } from '@playwright/test';
import { E2E_API_KEY, E2E_COINBASE_MATURITY, E2E_DEVNET_SEED, E2E_PRUNING_DEPTH, E2E_TOCCATA_ACTIVATION } from './e2e/api/settings';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 60_000,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'api', testDir: './e2e/api' },
    { name: 'ui', testDir: './e2e/ui' },
  ],
  webServer: {
    command: `node server.mjs -p ${port} -H 127.0.0.1`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NEXT_TELEMETRY_DISABLED: '1',
      DATA_DIR: './data/e2e',
      DATABASE_URL: 'memory://',
      DEVNET_PERSIST: 'false',
      DEVNET_SEED: E2E_DEVNET_SEED,
      API_KEYS: E2E_API_KEY,
      DEVNET_RPC_PORT: '0',
      DEVNET_COINBASE_MATURITY: String(E2E_COINBASE_MATURITY),
      DEVNET_TOCCATA_ACTIVATION: String(E2E_TOCCATA_ACTIVATION),
      DEVNET_PRUNING_DEPTH: String(E2E_PRUNING_DEPTH),
      // e2e/api/webhooks.spec.ts receives deliveries on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // e2e/api/stream.spec.ts forces a reorganisation.
      DEVNET_CONTROLS: 'true',
    },
  },
});
