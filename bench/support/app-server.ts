/**
 * Benchmarks that need the whole app start it here: `node server.mjs` (after `next build`) in its own process group,
 * with a scratch DATA_DIR, and stop it (group SIGTERM, then SIGKILL) and remove the directory afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface AppServer {
  process: ChildProcess;
  dataDir: string;
  base: string;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Nearest-rank percentile of an ascending list, NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function assertPortFree(port: number): Promise<void> {
  const taken = await fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is already in use; pick another with --port or measure it with --url`);
}

/** Starts the built app on `port` with `env` over the process environment; the caller names the scratch directory. */
export function startApp(port: number, label: string, env: Record<string, string>): AppServer {
  const dataDir = mkdtempSync(join(tmpdir(), `dagboard-bench-${label}-`));
  const child = spawn('node', ['server.mjs', '-p', String(port), '-H', '127.0.0.1'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', DATA_DIR: dataDir, DEVNET_RPC_PORT: '0', ...env },
  });
  return { process: child, dataDir, base: `http://127.0.0.1:${port}` };
}

export async function waitForHealth(base: string, server: ChildProcess | undefined): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server !== undefined && server.exitCode !== null) throw new Error(`the app exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`${base} did not become healthy within 180 s`);
}

export async function stopApp(server: AppServer): Promise<void> {
  const pid = server.process.pid;
  // A process ended by a signal keeps exitCode null and sets signalCode instead.
  const running = () => server.process.exitCode === null && server.process.signalCode === null;
  if (pid !== undefined && running()) {
    const exited = new Promise((resolve) => server.process.once('exit', resolve));
    process.kill(-pid, 'SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (running()) process.kill(-pid, 'SIGKILL');
  }
  rmSync(server.dataDir, { recursive: true, force: true });
}
