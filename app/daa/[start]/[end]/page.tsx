import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { problemText, RequestProblem } from '@/components/block/request-problem';
import { DaaRangeView, type TimeJump } from '@/components/daa/daa-range-view';
import { timeToDaaScore } from '@/components/daa/time-to-daa';
import { MAX_DAA_SCORE_RANGE } from '@/lib/api/http/schemas';
import { getRuntime } from '@/lib/runtime';
import { pageResource, plainMetadata, shareMetadata } from '@/lib/serving/page-support';
import { formatInteger } from '@/lib/web/format';
import { resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

type Search = Record<string, string | string[] | undefined>;
interface Props {
  params: Promise<{ start: string; end: string }>;
  searchParams: Promise<Search>;
}

const DECIMAL = /^(0|[1-9]\d{0,19})$/;
/** Half the width of a lookup while mapping a time to a DAA score. */
const TIME_LOOKUP_HALF_WIDTH = 100n;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `?all=1` shows every block in the range, not only chain blocks. */
function allBlocks(search: Search): boolean {
  return first(search.all) === '1';
}

function centred(score: bigint, width: bigint): { start: bigint; end: bigint } {
  const start = score > width / 2n ? score - width / 2n : 0n;
  return { start, end: start + width };
}

/** "2026-11-22T04:30" (a datetime-local field, read as UTC), or any ISO 8601 time with a zone; epoch ms or null. */
function parseTime(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?(Z|[+-]\d{2}:\d{2})?$/.test(trimmed)) return null;
  const zoned = /(Z|[+-]\d{2}:\d{2})$/.test(trimmed) || !trimmed.includes('T') ? trimmed : `${trimmed}Z`;
  const time = Date.parse(zoned);
  return Number.isNaN(time) ? null : time;
}

async function resolveTime(time: number) {
  const runtime = await getRuntime();
  const info = await pageResource(resources.dagInfo);
  if (!info.ok) return null;
  const { virtualDaaScore } = info.body;
  return timeToDaaScore({
    time,
    virtualDaaScore: BigInt(virtualDaaScore),
    now: Date.now(),
    blocksPerSecond: runtime.env.DEVNET_BLOCKS_PER_SECOND,
    halfWidth: TIME_LOOKUP_HALF_WIDTH,
    blocksBetween: async (start, end) => {
      const result = await pageResource(resources.daaRange, {
        params: { daa_score_start: start.toString(), daa_score_end: end.toString() },
        query: { chain_blocks_only: true },
      });
      if (!result.ok) return [];
      return result.body.blocks.map((block) => ({
        daaScore: BigInt(block.daaScore),
        timestamp: Date.parse(block.timestamp),
      }));
    },
  });
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { start, end } = await params;
  const all = allBlocks(await searchParams);
  if (!DECIMAL.test(start) || !DECIMAL.test(end)) return plainMetadata('Invalid DAA range');
  return shareMetadata({
    path: pages.daaRange(start, end, all ? { all: 1 } : undefined),
    title: `DAA scores ${formatInteger(start)}–${formatInteger(end)}`,
    description: `The ${all ? 'blocks' : 'chain blocks'} and transactions of the Kaspa DAG with DAA scores from ${formatInteger(
      start,
    )} to ${formatInteger(end)}.`,
  });
}

export default async function DaaRangePage({ params, searchParams }: Props) {
  const { start, end } = await params;
  const search = await searchParams;
  const all = allBlocks(search);
  const allQuery = all ? { all: 1 } : {};
  // Not a range (ends that are not whole numbers, an end below the start): the branded 404, as Next's pages can
  // answer 404 but not 400.
  if (!DECIMAL.test(start) || !DECIMAL.test(end) || BigInt(end) < BigInt(start)) notFound();
  const width = BigInt(end) >= BigInt(start) && BigInt(end) - BigInt(start) <= MAX_DAA_SCORE_RANGE ? BigInt(end) - BigInt(start) : 100n;

  const scoreText = first(search.score);
  if (scoreText !== undefined && DECIMAL.test(scoreText.trim())) {
    const target = centred(BigInt(scoreText.trim()), width);
    redirect(pages.daaRange(target.start, target.end, allQuery));
  }
  let timeJump: TimeJump | null = null;
  const atText = first(search.at);
  if (atText !== undefined) {
    const time = parseTime(atText);
    if (time === null) {
      timeJump = { error: `"${atText}" is not a time. Use a date and time such as 2026-11-22T04:30 (UTC).` };
    } else {
      const resolved = await resolveTime(time);
      if (resolved === null) {
        timeJump = { error: 'The node did not answer; try again.' };
      } else {
        const target = centred(resolved.score, width);
        redirect(
          pages.daaRange(target.start, target.end, {
            ...allQuery,
            time,
            estimate: resolved.estimate,
            found: resolved.score,
            exact: resolved.exact ? 1 : 0,
            clamped: resolved.clamped ?? undefined,
          }),
        );
      }
    }
  }
  const shownTime = first(search.time);
  const found = first(search.found);
  const estimate = first(search.estimate);
  if (timeJump === null && shownTime !== undefined && found !== undefined && estimate !== undefined && DECIMAL.test(shownTime)) {
    const clamped = first(search.clamped);
    timeJump = {
      time: Number(shownTime),
      estimate,
      found,
      exact: first(search.exact) === '1',
      clamped: clamped === 'future' || clamped === 'past' ? clamped : null,
    };
  }

  const call = {
    params: { daa_score_start: start, daa_score_end: end },
    query: { chain_blocks_only: !all, include_transactions: true },
  };
  const result = await pageResource(resources.daaRange, call);
  if (!result.ok) {
    const tooWide = result.status === 400 && BigInt(end) - BigInt(start) > MAX_DAA_SCORE_RANGE;
    return (
      <RequestProblem
        heading={tooWide ? 'DAA range too wide' : 'Cannot show this DAA range'}
        problem={problemText(result.status, result.body)}
        backHref={tooWide ? pages.daaRange(start, BigInt(start) + MAX_DAA_SCORE_RANGE, allQuery) : pages.daaRange(0n, 100n)}
        backLabel={tooWide ? `Show the first ${formatInteger(MAX_DAA_SCORE_RANGE)} scores of it` : 'Open the first range'}
      >
        {tooWide && (
          <p className="mt-2">
            A range spans at most {formatInteger(MAX_DAA_SCORE_RANGE)} DAA scores (the API&apos;s limit); this one spans{' '}
            {formatInteger(BigInt(end) - BigInt(start))}.
          </p>
        )}
      </RequestProblem>
    );
  }
  return (
    <DaaRangeView
      start={start}
      end={end}
      allBlocks={all}
      maxWidth={MAX_DAA_SCORE_RANGE.toString()}
      timeJump={timeJump}
      blocksPerSecond={(await getRuntime()).env.DEVNET_BLOCKS_PER_SECOND}
      initialData={result.body}
    />
  );
}
