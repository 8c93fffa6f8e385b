import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { E2E_API_KEY } from './settings';

export { E2E_API_KEY, E2E_DEVNET_SEED } from './settings';

export const HASH = /^[0-9a-f]{64}$/;
export const DECIMAL = /^(0|[1-9]\d*)$/;
export const HEX = /^([0-9a-f]{2})*$/;
export const DEVNET_ADDRESS = /^kaspadev:[a-z0-9]{61,63}$/;

export const keyed = { 'x-api-key': E2E_API_KEY };

export async function post(request: APIRequestContext, path: string, data: unknown): Promise<APIResponse> {
  return request.post(path, { headers: keyed, data });
}

export async function json<T = Record<string, unknown>>(response: APIResponse, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

export function expectKeys(value: unknown, keys: readonly string[], optional: readonly string[] = []): void {
  expect(value).toBeInstanceOf(Object);
  const present = Object.keys(value as object);
  for (const key of keys) expect(present, `missing ${key}`).toContain(key);
  for (const key of present) expect([...keys, ...optional], `unexpected field ${key}`).toContain(key);
}

export function expectInteger(value: unknown): void {
  expect(typeof value).toBe('number');
  expect(Number.isInteger(value)).toBe(true);
}

export function expectDecimal(value: unknown): void {
  expect(typeof value).toBe('string');
  expect(value).toMatch(DECIMAL);
}

export function expectHashList(value: unknown): void {
  expect(Array.isArray(value)).toBe(true);
  for (const hash of value as unknown[]) expect(hash).toMatch(HASH);
}

/** §2.2, read responses. */
export function expectReadTransaction(tx: Record<string, unknown>, options: { verbose: boolean }): void {
  expectKeys(
    tx,
    ['version', 'inputs', 'outputs', 'lockTime', 'subnetworkId', 'gas', 'payload', 'mass', 'storageMass', ...(options.verbose ? ['verboseData'] : [])],
  );
  expect(tx.storageMass, 'storageMass is kaspad 2.0.1’s name for mass').toBe(tx.mass);
  expectInteger(tx.version);
  expectDecimal(tx.lockTime);
  expect(tx.subnetworkId).toMatch(/^[0-9a-f]{40}$/);
  expectDecimal(tx.gas);
  expect(tx.payload).toMatch(/^0x([0-9a-f]{2})*$/);
  expectDecimal(tx.mass);
  for (const input of tx.inputs as Record<string, unknown>[]) {
    // Version 1 inputs commit to a compute budget (Toccata), version 0 inputs to their sig-op count only.
    expectKeys(input, ['previousOutpoint', 'signatureScript', 'sequence', 'sigOpCount', ...((tx.version as number) >= 1 ? ['computeBudget'] : [])]);
    const outpoint = input.previousOutpoint as Record<string, unknown>;
    expectKeys(outpoint, ['transactionId', 'index']);
    expect(outpoint.transactionId).toMatch(HASH);
    expectInteger(outpoint.index);
    expect(input.signatureScript).toMatch(HEX);
    expectDecimal(input.sequence);
    expectInteger(input.sigOpCount);
  }
  for (const output of tx.outputs as Record<string, unknown>[]) {
    expectKeys(output, ['value', 'scriptPublicKey'], ['verboseData', 'covenant']);
    if (output.covenant !== undefined) {
      expectKeys(output.covenant, ['authorizingInput', 'covenantId']);
      expect((output.covenant as Record<string, unknown>).covenantId).toMatch(HASH);
    }
    expectDecimal(output.value);
    expect(typeof output.scriptPublicKey).toBe('string');
    expect(output.scriptPublicKey).toMatch(/^[0-9a-f]{4}([0-9a-f]{2})*$/);
    if (output.verboseData !== undefined) {
      const verbose = output.verboseData as Record<string, unknown>;
      expectKeys(verbose, ['scriptPublicKeyType', 'scriptPublicKeyAddress']);
      // Payments are P2PK; the devnet's KRC-20 commits pay P2SH addresses.
      expect(['pubkey', 'scripthash']).toContain(verbose.scriptPublicKeyType);
      expect(verbose.scriptPublicKeyAddress).toMatch(DEVNET_ADDRESS);
    }
  }
  if (options.verbose) {
    const verbose = tx.verboseData as Record<string, unknown>;
    expectKeys(verbose, ['transactionId', 'hash', 'computeMass', 'blockHash', 'blockTime']);
    expect(verbose.transactionId).toMatch(HASH);
    expect(verbose.hash).toMatch(HASH);
    expectDecimal(verbose.computeMass);
    expect(verbose.blockHash).toMatch(HASH);
    expectDecimal(verbose.blockTime);
  }
}

/** §2.3 header; templates have no hash. */
export function expectHeader(header: Record<string, unknown>, options: { withHash: boolean }): void {
  const fields = [
    'version',
    'parentsByLevel',
    'hashMerkleRoot',
    'acceptedIdMerkleRoot',
    'utxoCommitment',
    'timestamp',
    'bits',
    'nonce',
    'daaScore',
    'blueWork',
    'blueScore',
    'pruningPoint',
  ];
  expectKeys(header, options.withHash ? ['hash', ...fields] : fields);
  if (options.withHash) expect(header.hash).toMatch(HASH);
  expectInteger(header.version);
  expect(Array.isArray(header.parentsByLevel)).toBe(true);
  for (const level of header.parentsByLevel as unknown[]) expectHashList(level);
  for (const field of ['hashMerkleRoot', 'acceptedIdMerkleRoot', 'utxoCommitment', 'pruningPoint']) {
    expect(header[field]).toMatch(HASH);
  }
  for (const field of ['timestamp', 'nonce', 'daaScore', 'blueScore']) expectDecimal(header[field]);
  expectInteger(header.bits);
  expect(header.blueWork).toMatch(/^[0-9a-f]+$/);
}

/** §2.3 block of getBlock / getBlocks. */
export function expectReadBlock(block: Record<string, unknown>, options: { transactions: boolean }): void {
  expectKeys(block, ['header', 'transactions', 'verboseData']);
  expectHeader(block.header as Record<string, unknown>, { withHash: true });
  const transactions = block.transactions as Record<string, unknown>[];
  if (options.transactions) {
    expect(transactions.length).toBeGreaterThan(0);
    for (const tx of transactions) expectReadTransaction(tx, { verbose: true });
  } else {
    expect(transactions).toEqual([]);
  }
  const verbose = block.verboseData as Record<string, unknown>;
  expectKeys(verbose, [
    'hash',
    'difficulty',
    'selectedParentHash',
    'transactionIds',
    'isHeaderOnly',
    'blueScore',
    'childrenHashes',
    'mergeSetBluesHashes',
    'mergeSetRedsHashes',
    'isChainBlock',
  ]);
  expect(verbose.hash).toBe((block.header as Record<string, unknown>).hash);
  expect(typeof verbose.difficulty).toBe('number');
  expect(verbose.selectedParentHash).toMatch(HASH);
  expectHashList(verbose.transactionIds);
  expect(typeof verbose.isHeaderOnly).toBe('boolean');
  expectInteger(verbose.blueScore);
  expect(String(verbose.blueScore)).toBe((block.header as Record<string, unknown>).blueScore);
  expectHashList(verbose.childrenHashes);
  expectHashList(verbose.mergeSetBluesHashes);
  expectHashList(verbose.mergeSetRedsHashes);
  expect(typeof verbose.isChainBlock).toBe('boolean');
}

/** §2.5. */
export function expectMempoolEntry(entry: Record<string, unknown>): void {
  expectKeys(entry, ['fee', 'transaction', 'isOrphan']);
  expectDecimal(entry.fee);
  expect(typeof entry.isOrphan).toBe('boolean');
  expectReadTransaction(entry.transaction as Record<string, unknown>, { verbose: true });
}

/** The devnet's output scripts (without the version): P2PK payments and the KRC-20 commits' P2SH. */
const DEVNET_SCRIPTS: Record<string, RegExp> = { pubkey: /^20[0-9a-f]{64}ac$/, scripthash: /^aa20[0-9a-f]{64}87$/ };

export function expectDevnetScript(script: unknown, type: unknown): void {
  expect(Object.keys(DEVNET_SCRIPTS)).toContain(type);
  expect(script).toMatch(DEVNET_SCRIPTS[type as string]!);
}

/** The problem+json body every error has. */
export async function expectProblem(response: APIResponse, status: number, code: string): Promise<Record<string, unknown>> {
  expect(response.status(), await response.text()).toBe(status);
  expect(response.headers()['content-type']).toContain('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, statusCode: status, code });
  expect(typeof body.detail).toBe('string');
  expect(body.requestId).toBe(response.headers()['x-request-id']);
  return body;
}

export async function dagInfo(request: APIRequestContext): Promise<{ sink: string; virtualDaaScore: string }> {
  return json(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
}
