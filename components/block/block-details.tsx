'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { ShowApiCall } from '@/components/show-api-call';
import { StackedTable, type StackedColumn } from '@/components/stacked-table';
import { AddressLink, BlockLink, Card, CopyButton, ErrorState, Facts, Kas, TimeAgo, TransactionLink } from '@/components/ui';
import type { NodeBlock } from '@/lib/api/endpoints/node-format';
import { acceptedRootMeaning, LANE_NAMES, lanesTouched } from '@/lib/web/block-lanes';
import type { BlockMiner } from '@/lib/web/block-miner';
import { formatInteger } from '@/lib/web/format';
import { useResource } from '@/lib/web/queries';
import { resources, type ResultOf } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';
import { BlockNeighbourhood } from './block-neighbourhood';

const TRANSACTION_COLUMNS: readonly StackedColumn[] = [
  { label: 'Transaction' },
  { label: 'Kind' },
  { label: 'Version', alignRight: true },
  { label: 'Inputs', alignRight: true },
  { label: 'Outputs', alignRight: true },
  { label: 'Output total', alignRight: true },
];

const LANE_COLUMNS: readonly StackedColumn[] = [
  { label: 'Subnetwork id' },
  { label: 'Kind' },
  { label: 'Transactions', alignRight: true },
  { label: 'Gas', alignRight: true },
];

const COINBASE_SUBNETWORK = '0100000000000000000000000000000000000000';
/** Children and chain membership of a block near the tip keep changing; refresh at this pace. */
const REFRESH_MS = 10_000;
/** The DAA range link around a block spans this many scores each side. */
const RANGE_HALF_WIDTH = 50n;

function HashList({ hashes, empty }: { hashes: readonly string[]; empty: string }) {
  if (hashes.length === 0) return <span className="text-slate-500 dark:text-slate-400">{empty}</span>;
  return (
    <ul className="space-y-0.5">
      {hashes.map((hash) => (
        <li key={hash}>
          <BlockLink hash={hash} copy />
        </li>
      ))}
    </ul>
  );
}

function Badge({ tone, children }: { tone: 'chain' | 'off'; children: ReactNode }) {
  const style =
    tone === 'chain'
      ? 'border-teal-600 bg-teal-50 text-teal-900 dark:border-teal-500 dark:bg-teal-950 dark:text-teal-100'
      : 'border-slate-400 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100';
  return <span className={`rounded-full border px-2 py-0.5 text-xs font-medium ${style}`}>{children}</span>;
}

function ChainExplanation({ block }: { block: NodeBlock }) {
  const verbose = block.verboseData;
  if (verbose === undefined) return null;
  if (verbose.isChainBlock) {
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This is a <strong>chain block</strong>: it lies on the selected parent chain of the virtual block. A chain block
        accepts the transactions of its merge set — its selected parent and the {verbose.mergeSetBluesHashes.length}{' '}
        blue and {verbose.mergeSetRedsHashes.length} red blocks it merges — so those transactions take effect with it,
        unless they conflict with one already accepted.
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-700 dark:text-slate-300">
      This block is <strong>not on the selected chain</strong>. Its transactions are not accepted by the block itself:
      they are accepted by the chain block that merges it (the transaction pages name that accepting block). Blocks leave
      or join the chain as the DAG grows, so this can still change for blocks near the tip.
    </p>
  );
}

function TransactionsTable({ block }: { block: NodeBlock }) {
  const totals = block.transactions.reduce((sum, transaction) => sum + transaction.outputs.reduce((s, o) => s + BigInt(o.value), 0n), 0n);
  if (block.transactions.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No transactions.</p>;
  return (
    <StackedTable
      label="Transactions in this block"
      caption="Transactions in this block"
      columns={TRANSACTION_COLUMNS}
      density="detail"
      footer={
        <tr className="border-t border-slate-300 font-medium dark:border-slate-700">
          <td data-label="All" className="py-1 pr-3">{block.transactions.length} transactions</td>
          <td className="py-1 pr-3" />
          <td className="py-1 pr-3" />
          <td data-label="Inputs" className="py-1 pr-3 text-right tabular-nums">
            {block.transactions.reduce((sum, transaction) => sum + transaction.inputs.length, 0)}
          </td>
          <td data-label="Outputs" className="py-1 pr-3 text-right tabular-nums">
            {block.transactions.reduce((sum, transaction) => sum + transaction.outputs.length, 0)}
          </td>
          <td data-label="Output total" className="py-1 text-right">
            <Kas sompi={totals} />
          </td>
        </tr>
      }
    >
      {block.transactions.map((transaction, index) => {
        const id = transaction.verboseData?.transactionId ?? block.verboseData?.transactionIds[index] ?? '';
        const total = transaction.outputs.reduce((sum, output) => sum + BigInt(output.value), 0n);
        return (
          <tr key={id || index} className="border-t border-slate-100 dark:border-slate-800">
            <td data-label="Transaction" className="py-1 pr-3">{id === '' ? '—' : <TransactionLink id={id} copy />}</td>
            <td data-label="Kind" className="py-1 pr-3">{transaction.subnetworkId === COINBASE_SUBNETWORK ? 'coinbase' : 'transfer'}</td>
            <td data-label="Version" className="py-1 pr-3 text-right tabular-nums">{transaction.version}</td>
            <td data-label="Inputs" className="py-1 pr-3 text-right tabular-nums">{transaction.inputs.length}</td>
            <td data-label="Outputs" className="py-1 pr-3 text-right tabular-nums">{transaction.outputs.length}</td>
            <td data-label="Output total" className="py-1 text-right">
              <Kas sompi={total} />
            </td>
          </tr>
        );
      })}
    </StackedTable>
  );
}

function LanesTable({ block }: { block: NodeBlock }) {
  const lanes = lanesTouched(block.transactions);
  if (lanes.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No transactions, so no lanes.</p>;
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        A transaction&apos;s subnetwork id is its sequencing lane (KIP-21); user lanes carry version 1 transactions and may
        charge gas.
      </p>
      <StackedTable
        label="Lanes touched by this block"
        caption="Lanes (subnetworks) of this block's transactions"
        columns={LANE_COLUMNS}
        density="detail"
        testId="block-lanes"
      >
        {lanes.map((lane) => (
          <tr key={lane.subnetworkId} className="border-t border-slate-100 dark:border-slate-800">
            <td data-label="Subnetwork id" className="py-1 pr-3 font-mono break-all">{lane.subnetworkId}</td>
            <td data-label="Kind" className="py-1 pr-3">{LANE_NAMES[lane.shape]}</td>
            <td data-label="Transactions" className="py-1 pr-3 text-right tabular-nums">{formatInteger(lane.transactions)}</td>
            <td data-label="Gas" className="py-1 text-right tabular-nums">{formatInteger(lane.gas)}</td>
          </tr>
        ))}
      </StackedTable>
    </div>
  );
}

/** Who mined the block and its subsidy (from its coinbase payload); what its coinbase pays to the merged blocks. */
function MinerCard({ miner }: { miner: BlockMiner }) {
  return (
    <Card title="Miner and reward">
      <Facts
        items={[
          {
            label: 'Miner',
            value: miner.address === null ? 'a non-standard script' : <AddressLink address={miner.address} full copy />,
            hint: 'The address the miner asked to be paid at, from the block’s coinbase payload',
          },
          {
            label: 'Subsidy',
            value: <span data-testid="block-subsidy"><Kas sompi={miner.subsidy} digits={8} /></span>,
            hint: 'The block’s subsidy at its DAA score; its miner is paid it, with fees, by the chain block that merges it as blue',
          },
          {
            label: 'Coinbase pays',
            value: <Kas sompi={miner.coinbasePays} digits={8} />,
            hint: 'What this block’s coinbase pays: the subsidies and fees of the blue blocks it merges, to their miners',
          },
          { label: 'Miner’s tag', value: <span className="font-mono break-all">{miner.extraData === '' ? '—' : miner.extraData}</span> },
        ]}
      />
    </Card>
  );
}

/** `miner` is read on the server (blockMiner), which keeps address encoding out of the page's script. */
export function BlockDetails({
  hash,
  initialData,
  miner,
}: {
  hash: string;
  initialData: ResultOf<typeof resources.block>;
  miner: BlockMiner | null;
}) {
  const body = { hash, includeTransactions: true };
  const query = useResource(resources.block, { body }, { initialData, refetchInterval: REFRESH_MS, staleTime: REFRESH_MS });
  const block = query.data?.block ?? initialData.block;
  const { header, verboseData: verbose } = block;
  const daaScore = BigInt(header.daaScore);
  const rangeStart = daaScore > RANGE_HALF_WIDTH ? daaScore - RANGE_HALF_WIDTH : 0n;
  const parents = header.parentsByLevel[0] ?? [];
  const acceptedRoot = acceptedRootMeaning(header.version);

  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Block</h1>
        {verbose !== undefined && (
          <Badge tone={verbose.isChainBlock ? 'chain' : 'off'}>{verbose.isChainBlock ? 'Chain block' : 'Not a chain block'}</Badge>
        )}
        <span className="ml-auto">
          <ShowApiCall request={{ route: resources.block.route, body }} />
        </span>
      </div>
      <p className="flex min-w-0 items-center font-mono text-sm break-all" data-testid="block-hash">
        {hash}
        <CopyButton text={hash} label="Copy block hash" />
      </p>
      {query.error !== null && <ErrorState error={query.error} onRetry={() => void query.refetch()} />}

      <Card title="Header and GHOSTDAG">
        <Facts
          items={[
            { label: 'Time', value: <TimeAgo time={Number(header.timestamp)} /> },
            {
              label: 'DAA score',
              value: (
                <Link href={pages.daaRange(rangeStart, daaScore + RANGE_HALF_WIDTH)} className="text-teal-700 hover:underline dark:text-teal-400">
                  {formatInteger(header.daaScore)}
                </Link>
              ),
              hint: 'Difficulty-adjustment score: counts the blocks in the past of this block; about 10 per second on this network',
            },
            { label: 'Blue score', value: formatInteger(header.blueScore), hint: 'Number of blue blocks in the past of this block' },
            { label: 'Blue work', value: <span className="font-mono">{header.blueWork}</span>, hint: 'Accumulated proof of work of the blue past (hex)' },
            { label: 'Difficulty', value: verbose === undefined ? '—' : verbose.difficulty.toLocaleString('en') },
            { label: 'Bits', value: `0x${header.bits.toString(16)}` },
            { label: 'Nonce', value: <span className="font-mono">{header.nonce}</span> },
            {
              label: 'Header version',
              value: <span data-testid="header-version">{header.version}</span>,
              hint: 'Version 2 from the Toccata hard fork on, version 1 before',
            },
            { label: 'Merkle root', value: <span className="font-mono break-all">{header.hashMerkleRoot}</span> },
            {
              label: acceptedRoot.label,
              value: <span className="font-mono break-all" data-testid="accepted-root">{header.acceptedIdMerkleRoot}</span>,
              hint: acceptedRoot.hint,
            },
            { label: 'UTXO commitment', value: <span className="font-mono break-all">{header.utxoCommitment}</span> },
            { label: 'Pruning point', value: <BlockLink hash={header.pruningPoint} copy /> },
          ]}
        />
      </Card>

      {miner !== null && <MinerCard miner={miner} />}

      <Card title="Place in the DAG">
        <div className="space-y-3">
          <ChainExplanation block={block} />
          <BlockNeighbourhood
            hash={hash}
            parents={parents}
            selectedParent={verbose?.selectedParentHash || undefined}
            mergeSetReds={verbose?.mergeSetRedsHashes ?? []}
            childBlocks={verbose?.childrenHashes ?? []}
          />
          <Facts
            items={[
              {
                label: 'Selected parent',
                value: verbose?.selectedParentHash ? <BlockLink hash={verbose.selectedParentHash} copy /> : '— (genesis)',
              },
              { label: `Parents (${parents.length})`, value: <HashList hashes={parents} empty="None (genesis)" /> },
              {
                label: `Children (${verbose?.childrenHashes.length ?? 0})`,
                value: <HashList hashes={verbose?.childrenHashes ?? []} empty="None yet" />,
              },
              {
                label: `Merge set blues (${verbose?.mergeSetBluesHashes.length ?? 0})`,
                value: <HashList hashes={verbose?.mergeSetBluesHashes ?? []} empty="None" />,
              },
              {
                label: `Merge set reds (${verbose?.mergeSetRedsHashes.length ?? 0})`,
                value: <HashList hashes={verbose?.mergeSetRedsHashes ?? []} empty="None" />,
              },
            ]}
          />
        </div>
      </Card>

      <Card title="Lanes touched">
        <LanesTable block={block} />
      </Card>

      <Card title={`Transactions (${block.transactions.length})`}>
        <TransactionsTable block={block} />
      </Card>
    </main>
  );
}
