import { expect, test } from '@playwright/test';
import { pages } from '../../lib/web/urls';
import { E2E_API_KEY, E2E_TOCCATA_ACTIVATION } from '../api/settings';

const keyed = { 'x-api-key': E2E_API_KEY };

interface RangeBlock {
  hash: string;
  version: number;
  daaScore: number;
  isChainBlock: boolean;
  transactionIds: string[];
}
interface RangeTransaction {
  transactionId: string;
  subnetworkId: string;
}

const COINBASE_SUBNETWORK = '01' + '00'.repeat(19);

test.describe('one chain across the Toccata fork', () => {
  test('blocks before the activation are Crescendo blocks and after it Toccata blocks, in the node format, the index and the block page', async ({
    page,
    request,
  }) => {
    const start = E2E_TOCCATA_ACTIVATION - 10;
    const end = E2E_TOCCATA_ACTIVATION + 10;
    const range = await request.get(`/v1/blocks/daa-score/${start}/${end}?include_transactions=true`, { headers: keyed });
    expect(range.status()).toBe(200);
    const body = (await range.json()) as { blocks: RangeBlock[]; transactions: RangeTransaction[] };
    const chainBlocks = body.blocks.filter((block) => block.isChainBlock);
    const before = chainBlocks.filter((block) => block.daaScore < E2E_TOCCATA_ACTIVATION);
    const after = chainBlocks.filter((block) => block.daaScore >= E2E_TOCCATA_ACTIVATION);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    for (const block of body.blocks) expect(block.version).toBe(block.daaScore < E2E_TOCCATA_ACTIVATION ? 1 : 2);

    const coinbaseVersion = async (block: RangeBlock): Promise<number> => {
      const response = await request.post('/v1/rpc/getBlock', { headers: keyed, data: { hash: block.hash, includeTransactions: true } });
      expect(response.status()).toBe(200);
      const { block: nodeBlock } = (await response.json()) as {
        block: { header: { version: number }; transactions: { version: number; subnetworkId: string }[] };
      };
      expect(nodeBlock.header.version).toBe(block.version);
      const coinbase = nodeBlock.transactions[0]!;
      expect(coinbase.subnetworkId).toBe(COINBASE_SUBNETWORK);
      return coinbase.version;
    };
    expect(await coinbaseVersion(before.at(-1)!)).toBe(0);
    expect(await coinbaseVersion(after[0]!)).toBe(1);

    await page.goto(pages.block(before.at(-1)!.hash));
    await expect(page.getByTestId('header-version')).toHaveText('1');
    await expect(page.getByRole('main').getByText('Accepted id merkle root', { exact: true })).toBeVisible();
    await page.goto(pages.block(after[0]!.hash));
    await expect(page.getByTestId('header-version')).toHaveText('2');
    await expect(page.getByRole('main').getByText('Sequencing commitment (KIP-21)', { exact: true })).toBeVisible();
  });
});
