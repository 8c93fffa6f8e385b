export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  try {
    const { getRuntime } = await import('./lib/runtime');
    await getRuntime();
    const { installV1RequestResolver } = await import('./lib/serving/v1-fast-path');
    installV1RequestResolver();
    const { installKaspaRestNodeHandler } = await import('./lib/serving/kaspa-rest');
    installKaspaRestNodeHandler();
    const { installWsUpgradeHandler } = await import('./lib/stream/install');
    installWsUpgradeHandler(async () => (await getRuntime()).stream());
  } catch (error) {
    console.error('[dagboard] start-up failed:', error instanceof Error ? error.message : error);
  }
}
