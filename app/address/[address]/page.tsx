import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AddressBalance } from '@/components/address/address-balance';
import { AddressHistory } from '@/components/address/address-history';
import { AddressQr } from '@/components/address/address-qr';
import { AddressTokens } from '@/components/address/address-tokens';
import { ShowApiCall } from '@/components/show-api-call';
import { CopyButton, ErrorState } from '@/components/ui';
import { pageResource, shareMetadata } from '@/lib/serving/page-support';
import { ADDRESS_HISTORY_PAGE_SIZE, resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';
import { summarizeUtxos } from '@/lib/web/utxo-summary';
import { parseHistoryDate } from '@/lib/web/history-date';
import { decodeSegment } from '@/lib/api/http/http';

export const dynamic = 'force-dynamic';

interface PageProps {
  params: Promise<{ address: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const address = decodeSegment((await params).address);
  return shareMetadata({
    path: pages.address(address),
    title: `Address ${address}`,
    description: `Balance, UTXOs and the full transaction history of the Kaspa address ${address}.`,
    ownImage: true,
  });
}

export default async function AddressPage({ params, searchParams }: PageProps) {
  const address = decodeSegment((await params).address);
  const query = await searchParams;
  const acceptedOnly = query.accepted_only === 'true';
  const jump = parseHistoryDate(typeof query.before === 'string' ? query.before : undefined);
  const [history, utxos] = await Promise.all([
    pageResource(resources.addressHistory, {
      params: { address },
      query: { limit: ADDRESS_HISTORY_PAGE_SIZE, accepted_only: acceptedOnly || undefined, before_time: jump?.beforeTime },
    }),
    pageResource(resources.utxos, { body: { addresses: [address] } }),
  ]);

  // Not an address of this network: the branded 404 (Next's pages can answer 404, not 400).
  if (history.status === 400 || history.status === 404) notFound();
  if (!history.ok) {
    const problem = history.body as { title?: string; detail?: string };
    return (
      <main className="mx-auto max-w-7xl px-4 py-6">
        <h1 className="mb-4 text-xl font-semibold">Address</h1>
        <ErrorState title={problem.title ?? 'Not a valid address'} detail={problem.detail ?? address} />
      </main>
    );
  }

  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <AddressQr address={address} />
        <div className="min-w-0">
          <h1 className="text-xl font-semibold">Address</h1>
          <p className="mt-1 flex items-center font-mono text-sm break-all" data-testid="address-full">
            {address}
            <CopyButton text={address} label="Copy address" />
          </p>
          <p className="mt-2 text-sm">
            <Link
              href={pages.wallet({ addresses: [address] })}
              className="text-teal-700 hover:underline dark:text-teal-400"
              data-testid="view-whole-wallet"
            >
              View the whole wallet
            </Link>
            <span className="text-slate-600 dark:text-slate-400">
              {' '}
              · opens this address in the wallet view, where its wallet’s other addresses or extended public key can be added
            </span>
          </p>
          <div className="mt-2">
            <ShowApiCall
              request={{
                route: 'GET /v1/addresses/{address}/transactions',
                params: { address },
                query: {
                  limit: String(ADDRESS_HISTORY_PAGE_SIZE),
                  ...(acceptedOnly ? { accepted_only: 'true' } : {}),
                  ...(jump === null ? {} : { before_time: String(jump.beforeTime) }),
                },
              }}
            />
          </div>
        </div>
      </header>
      <AddressBalance
        address={address}
        initialSummary={utxos.ok ? summarizeUtxos(utxos.body.entries) : null}
      />
      <AddressTokens address={address} />
      <section aria-labelledby="history-heading">
        <h2 id="history-heading" className="mb-3 text-lg font-semibold">
          Transactions
        </h2>
        <AddressHistory
          key={`${acceptedOnly} ${jump?.day ?? ''}`}
          address={address}
          acceptedOnly={acceptedOnly}
          jump={jump}
          initialPage={history.body}
        />
      </section>
    </main>
  );
}
