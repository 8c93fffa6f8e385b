import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headerHash } from '../kaspa/header';
import { BlockLogError, openBlockLog } from './block-log';
import { FORK_NEVER } from './params';
import { createTestDevnet } from './test-support/devnet-harness';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dagboard-block-log-'));
  dirs.push(dir);
  return dir;
}

describe('block log', () => {
  it('records the genesis once and reads back appended blocks in order, byte for byte', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const blocks = [devnet.mine(), devnet.mine(), devnet.mine()];

    const log = openBlockLog({ dir });
    expect(log.genesis).toBeUndefined();
    log.writeGenesis({ networkId: 'devnet', timestamp: 1_750_000_000_000n, bits: 0x207fffff, toccataActivation: 30n });
    expect(() => log.writeGenesis({ networkId: 'devnet', timestamp: 1n, bits: 1, toccataActivation: 0n })).toThrow(BlockLogError);
    for (const block of blocks) log.append(block);
    log.close();
    expect(() => log.append(blocks[0]!)).toThrow(BlockLogError);

    const reopened = openBlockLog({ dir });
    expect(reopened.genesis).toEqual({ networkId: 'devnet', timestamp: 1_750_000_000_000n, bits: 0x207fffff, toccataActivation: 30n });
    const read = reopened.readBlocks();
    expect(read).toEqual(blocks);
    expect(read.map((block) => headerHash(block.header))).toEqual(blocks.map((block) => headerHash(block.header)));
    reopened.close();
  });

  it('sets aside a chain recorded under another Toccata activation and keeps one recorded under the same', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const block = devnet.mine();
    const log = openBlockLog({ dir, toccataActivation: FORK_NEVER });
    log.writeGenesis({ networkId: 'devnet', timestamp: 5n, bits: 0x207fffff, toccataActivation: FORK_NEVER });
    log.append(block);
    log.close();
    expect(readFileSync(join(dir, 'genesis.json'), 'utf8')).toContain('"toccataActivation":"never"');

    const same = openBlockLog({ dir, toccataActivation: FORK_NEVER });
    expect(same.superseded).toBeUndefined();
    expect(same.genesis?.toccataActivation).toBe(FORK_NEVER);
    expect(same.readBlocks()).toEqual([block]);
    same.close();

    const other = openBlockLog({ dir, toccataActivation: 0n });
    expect(other.genesis).toBeUndefined();
    expect(other.readBlocks()).toEqual([]);
    expect(other.superseded?.recordedActivation).toBe(FORK_NEVER);
    const archivedTo = other.superseded!.archivedTo;
    expect(archivedTo.startsWith(join(dir, 'superseded-'))).toBe(true);
    expect(readdirSync(archivedTo).sort()).toEqual(['blocks.jsonl', 'genesis.json']);
    other.writeGenesis({ networkId: 'devnet', timestamp: 6n, bits: 0x207fffff, toccataActivation: 0n });
    other.close();
    expect(openBlockLog({ dir, toccataActivation: 0n }).genesis?.timestamp).toBe(6n);
  });

  it('reads a genesis record from before Toccata support as a Crescendo chain', () => {
    const dir = temporaryDir();
    writeFileSync(join(dir, 'genesis.json'), '{"format":1,"networkId":"devnet","timestamp":7,"bits":545259519}\n');
    expect(openBlockLog({ dir }).genesis).toEqual({ networkId: 'devnet', timestamp: 7n, bits: 545259519, toccataActivation: FORK_NEVER });
    expect(openBlockLog({ dir, toccataActivation: 0n }).superseded?.recordedActivation).toBe(FORK_NEVER);
  });

  it('cuts a torn last line so later appends start on a fresh line', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const [first, second] = [devnet.mine(), devnet.mine()];
    const log = openBlockLog({ dir });
    log.append(first);
    log.flush();
    log.close();
    appendFileSync(join(dir, 'blocks.jsonl'), '{"header":{"version":1,"parentsBy');

    const reopened = openBlockLog({ dir });
    expect(reopened.readBlocks()).toEqual([first]);
    reopened.append(second);
    reopened.close();
    expect(readFileSync(join(dir, 'blocks.jsonl'), 'utf8').split('\n')).toHaveLength(3);
    expect(openBlockLog({ dir }).readBlocks()).toEqual([first, second]);
  });

  it('refuses a line that is not a block', () => {
    const dir = temporaryDir();
    appendFileSync(join(dir, 'blocks.jsonl'), '{"header":42}\n');
    expect(() => openBlockLog({ dir }).readBlocks()).toThrow(/blocks\.jsonl:1 is not a block/);
  });
});
