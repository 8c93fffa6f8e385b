import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { getRuntime } from '@/lib/runtime';
import { pageResource, shareMetadata } from '@/lib/serving/page-support';
import { V1_API_HANDLERS } from '@/lib/serving/v1-handlers';
import { formatInteger } from '@/lib/web/format';
import { pages } from '@/lib/web/urls';
import { resources } from '@/lib/web/resources';
import { classifyQuery, entitiesText, networkName, type HashEntity, type QueryKind } from './search-rules';

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** A DAA score opens the range this wide around it. */
const DAA_RANGE_WIDTH = 100n;
const LINK = 'text-teal-700 hover:underline dark:text-teal-400';

function queryOf(search: Record<string, string | string[] | undefined>): string {
  const value = search.q;
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const query = queryOf(await searchParams).trim();
  return {
    ...(await shareMetadata({
      path: pages.search(query === '' ? undefined : query),
      title: query === '' ? 'Search' : `Search: ${query}`,
      description: 'Find Kaspa transactions, blocks, addresses, DAA scores and KRC-20 tokens.',
    })),
    robots: { index: false },
  };
}

interface Match {
  entity: HashEntity;
  href: string;
  label: string;
  detail: string;
}

async function hashMatches(hash: string): Promise<Match[]> {
  const [indexed, block, covenant] = await Promise.all([
    pageResource(resources.transaction, { params: { id: hash } }),
    pageResource(resources.block, { body: { hash, includeTransactions: false } }),
    pageResource(resources.covenant, { params: { covenantId: hash } }),
  ]);
  let transaction = indexed.ok;
  if (!transaction && indexed.status === 404) {
    const pending = await pageResource(resources.mempoolEntry, {
      body: { transactionId: hash, includeOrphanPool: true, filterTransactionPool: false },
    });
    transaction = pending.ok;
  }
  const matches: Match[] = [];
  if (transaction) matches.push({ entity: 'transaction', href: pages.transaction(hash), label: 'Transaction', detail: hash });
  if (block.ok) matches.push({ entity: 'block', href: pages.block(hash), label: 'Block', detail: hash });
  if (covenant.ok) {
    const { state } = covenant.body.covenant;
    matches.push({ entity: 'covenant', href: pages.covenant(hash), label: `Covenant (${state})`, detail: hash });
  }
  return matches;
}

async function tokenExists(ticker: string): Promise<boolean> {
  if (V1_API_HANDLERS[resources.tokenMetadata.route] === undefined) return false;
  return (await pageResource(resources.tokenMetadata, { params: { ticker } })).ok;
}

function Notice({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section aria-label={heading} className="rounded-md border border-dashed border-slate-300 p-6 text-sm dark:border-slate-700" data-testid="search-empty">
      <h2 className="text-base font-semibold">{heading}</h2>
      <div className="mt-2 space-y-2 text-slate-700 dark:text-slate-300">{children}</div>
    </section>
  );
}

function Help() {
  return (
    <ul className="list-disc space-y-1 pl-5">
      <li>a transaction id, block hash or covenant id: 64 hexadecimal characters;</li>
      <li>an address, with its network prefix (such as kaspa: or kaspadev:) or without it;</li>
      <li>a DAA score: a whole number, which opens the blocks around it;</li>
      <li>a KRC-20 token ticker: 4 to 6 letters.</li>
    </ul>
  );
}

async function resolve(kind: QueryKind): Promise<{ redirectTo: string } | { view: ReactNode }> {
  switch (kind.kind) {
    case 'empty':
      return { view: <Notice heading="Search the explorer">You can search for:<Help /></Notice> };
    case 'hash': {
      const matches = await hashMatches(kind.hash);
      const only = matches[0];
      if (matches.length === 1 && only !== undefined) return { redirectTo: only.href };
      if (matches.length > 1) {
        return {
          view: (
            <section aria-label="Matches">
              <p className="text-sm text-slate-700 dark:text-slate-300">
                This hash names {entitiesText(matches.map((match) => match.entity))}. Which did you mean?
              </p>
              <ul className="mt-3 space-y-2" data-testid="search-results">
                {matches.map((match) => (
                  <li key={match.href} className="rounded-md border border-slate-200 p-3 dark:border-slate-800">
                    <Link href={match.href} className={LINK}>
                      {match.label}
                    </Link>
                    <p className="font-mono text-xs break-all text-slate-600 dark:text-slate-400">{match.detail}</p>
                  </li>
                ))}
              </ul>
            </section>
          ),
        };
      }
      return {
        view: (
          <Notice heading="No transaction, block or covenant with this hash">
            <p>
              Neither the index (transactions and covenants), the node&apos;s mempool nor the node&apos;s blocks hold <span className="font-mono break-all">{kind.hash}</span>.
              It may belong to another network, be older than the node&apos;s pruning point, or not exist yet.
            </p>
          </Notice>
        ),
      };
    }
    case 'short-hex':
      return {
        view: (
          <Notice heading="Incomplete hash">
            <p>
              Transaction ids, block hashes and covenant ids are 64 hexadecimal characters; this one has {kind.length}. Paste the
              whole hash.
            </p>
          </Notice>
        ),
      };
    case 'daa-score': {
      const start = kind.score > DAA_RANGE_WIDTH / 2n ? kind.score - DAA_RANGE_WIDTH / 2n : 0n;
      return { redirectTo: pages.daaRange(start, start + DAA_RANGE_WIDTH) };
    }
    case 'daa-score-too-large':
      return {
        view: (
          <Notice heading="Number too large">
            <p>A DAA score is at most {formatInteger(2n ** 64n - 1n)}.</p>
          </Notice>
        ),
      };
    case 'address':
      return { redirectTo: pages.address(kind.address) };
    case 'wrong-network': {
      const network = networkName((await (await getRuntime()).api.context.addressPrefix()));
      return {
        view: (
          <Notice heading={`A ${networkName(kind.prefix)} address`}>
            <p>
              <span className="font-mono break-all">{kind.address}</span> is a valid address of {networkName(kind.prefix)} (prefix{' '}
              <span className="font-mono">{kind.prefix}:</span>), but this explorer follows a {network} node, whose
              addresses have another prefix. The same key has a different address on each network, and this node
              knows nothing about the other one.
            </p>
          </Notice>
        ),
      };
    }
    case 'bad-address':
      return {
        view: (
          <Notice heading="Not a valid address">
            <p>{kind.message}</p>
          </Notice>
        ),
      };
    case 'ticker':
      if (await tokenExists(kind.ticker)) return { redirectTo: pages.token(kind.ticker) };
      return {
        view: (
          <Notice heading="Nothing found">
            <p>No KRC-20 token with the ticker {kind.ticker} is known here.</p>
            <Help />
          </Notice>
        ),
      };
    case 'unknown':
      return {
        view: (
          <Notice heading="Nothing found">
            <p>The search did not recognise this. You can search for:</p>
            <Help />
          </Notice>
        ),
      };
  }
}

export default async function SearchPage({ searchParams }: Props) {
  const query = queryOf(await searchParams);
  const prefix = await (await getRuntime()).api.context.addressPrefix();
  const outcome = await resolve(classifyQuery(query, prefix));
  if ('redirectTo' in outcome) redirect(outcome.redirectTo);
  return (
    <main className="mx-auto max-w-3xl space-y-4 px-4 py-8">
      <h1 className="text-2xl font-semibold tracking-tight">Search</h1>
      {query.trim() !== '' && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Results for <q className="font-mono break-all">{query.trim()}</q>
        </p>
      )}
      {outcome.view}
    </main>
  );
}
