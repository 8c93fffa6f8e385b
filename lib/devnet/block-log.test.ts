import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headerHash } from '../kaspa/header';
import { BlockLogError, blockLogLine, openBlockLog } from './block-log';
import { FORK_NEVER } from './consensus/params';
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
  it('compacts below a snapshot: keeps, checksummed, only the blocks above a blue score, then appends after them', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const blocks = [devnet.mine(), devnet.mine(), devnet.mine(), devnet.mine()];
    const log = openBlockLog({ dir });
    for (const block of blocks.slice(0, 3)) log.append(block);
    expect(log.dropThrough(blocks[1]!.header.blueScore)).toBe(1);
    log.append(blocks[3]!);
    log.close();
    const text = readFileSync(join(dir, 'blocks.jsonl'), 'utf8');
    expect(text.split('\n').filter(Boolean).every((line) => /^[0-9a-f]{8} \{/.test(line))).toBe(true);
    const reopened = openBlockLog({ dir });
    expect(reopened.readBlocks().map((block) => headerHash(block.header))).toEqual(blocks.slice(2).map((block) => headerHash(block.header)));
    expect(reopened.recovery).toBeUndefined();
    reopened.close();
  });

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

  it('drops a torn last record, saving its bytes, so later appends start on a fresh line', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const [first, second] = [devnet.mine(), devnet.mine()];
    const log = openBlockLog({ dir });
    log.append(first);
    log.close();
    const torn = '0badc0de {"header":{"version":1,"parentsBy';
    appendFileSync(join(dir, 'blocks.jsonl'), torn);

    const reopened = openBlockLog({ dir });
    expect(reopened.readBlocks()).toEqual([first]);
    expect(reopened.recovery).toMatchObject({ reason: 'torn', line: 2, keptRecords: 1, droppedRecords: 1, droppedBytes: torn.length });
    expect(readFileSync(reopened.recovery!.savedTo, 'utf8')).toBe(torn);
    reopened.append(second);
    reopened.close();
    expect(readFileSync(join(dir, 'blocks.jsonl'), 'utf8').split('\n')).toHaveLength(3);
    const again = openBlockLog({ dir });
    expect(again.readBlocks()).toEqual([first, second]);
    expect(again.recovery).toBeUndefined();
  });

  it('drops everything from the first record that fails its checksum, never replaying garbage', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const blocks = [devnet.mine(), devnet.mine(), devnet.mine(), devnet.mine()];
    const log = openBlockLog({ dir });
    for (const block of blocks) log.append(block);
    log.close();
    const path = join(dir, 'blocks.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.slice(0, 4).every((line) => /^[0-9a-f]{8} \{/.test(line))).toBe(true);
    // A flipped digit inside the JSON still parses as a block: only the checksum can tell.
    lines[2] = lines[2]!.replace(/"nonce":(\d)/, (_, digit: string) => `"nonce":${(Number(digit) + 1) % 10}`);
    writeFileSync(path, lines.join('\n'));

    const reopened = openBlockLog({ dir });
    expect(reopened.readBlocks()).toEqual(blocks.slice(0, 2));
    expect(reopened.recovery).toMatchObject({ reason: 'checksum', line: 3, keptRecords: 2, droppedRecords: 2 });
    expect(readFileSync(path, 'utf8')).toBe(`${lines.slice(0, 2).join('\n')}\n`);
    expect(readFileSync(reopened.recovery!.savedTo, 'utf8')).toBe(`${lines.slice(2).join('\n')}`);
  });

  it('reads lines of an older log without checksums, and drops a checksummed record that is not a block', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const [first, second] = [devnet.mine(), devnet.mine()];
    const log = openBlockLog({ dir });
    log.append(first);
    log.append(second);
    log.close();
    const path = join(dir, 'blocks.jsonl');
    const legacy = readFileSync(path, 'utf8').split('\n').map((line) => line.slice(9)).join('\n');
    writeFileSync(path, `${legacy}${blockLogLine('{"header":42}')}`);

    const reopened = openBlockLog({ dir });
    expect(reopened.readBlocks()).toEqual([first, second]);
    expect(reopened.recovery).toMatchObject({ reason: 'unreadable', line: 3, keptRecords: 2, droppedRecords: 1 });
    expect(reopened.recovery!.detail).toMatch(/^not a block/);
  });

  it('drops the block replay rejected and everything after it', () => {
    const dir = temporaryDir();
    const devnet = createTestDevnet();
    const blocks = [devnet.mine(), devnet.mine(), devnet.mine()];
    const log = openBlockLog({ dir });
    for (const block of blocks) log.append(block);
    log.close();

    const reopened = openBlockLog({ dir });
    expect(reopened.readBlocks()).toEqual(blocks);
    reopened.dropFrom(1, 'rejected on replay');
    expect(reopened.recovery).toMatchObject({ reason: 'rejected', line: 2, keptRecords: 1, droppedRecords: 2, detail: 'rejected on replay' });
    reopened.append(blocks[1]!);
    reopened.close();
    expect(openBlockLog({ dir }).readBlocks()).toEqual(blocks.slice(0, 2));
  });
});
