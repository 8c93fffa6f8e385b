'use client';

import { useEffect, useRef } from 'react';
import { LoadingRows } from './ui';

interface Props {
  /** The list's pages (useCursorPages): whether there is a next one, whether it is loading, and how to load it. */
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  /** Read by screen readers while the next page loads. */
  loadingLabel: string;
  /** The button for readers who do not scroll (or whose screen is taller than the list). */
  buttonLabel: string;
}

/** The foot of an infinite list: loads the next page as the reader nears the end, or on the button. */
export function LoadMore({ pages, loadingLabel, buttonLabel }: Props) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (element === null || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <>
      <div ref={sentinel} aria-hidden="true" />
      {isFetchingNextPage && <LoadingRows rows={3} label={loadingLabel} />}
      {hasNextPage && !isFetchingNextPage && (
        <button
          type="button"
          onClick={() => void fetchNextPage()}
          className="mt-3 w-full rounded-md border border-slate-300 py-2 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {buttonLabel}
        </button>
      )}
    </>
  );
}
