'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { Suspense, useEffect, useRef, useState } from 'react';

/** Navigations quicker than this show no bar. */
const SHOW_AFTER_MS = 120;
/** A navigation that never lands (a failed fetch, a link to the same page) stops showing after this. */
const GIVE_UP_MS = 20_000;

type Phase = 'idle' | 'waiting' | 'running' | 'done';

/**
 * The in-app page a click or submit is about to open, or null when the browser (or nobody) handles it. Read in the
 * capture phase, before Next's link and form handlers take the event over.
 */
function internalDestination(event: MouseEvent | SubmitEvent): URL | null {
  let url: URL;
  if (event instanceof SubmitEvent) {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (form === null || form.method.toLowerCase() !== 'get' || form.target !== '') return null;
    url = new URL(form.action, window.location.href);
    url.search = new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString();
  } else {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(anchor instanceof HTMLAnchorElement) || (anchor.target !== '' && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
    url = new URL(anchor.href, window.location.href);
  }
  const here = new URL(window.location.href);
  if (url.origin !== here.origin) return null;
  if (url.pathname === here.pathname && url.search === here.search) return null;
  return url;
}

function Bar() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const [phase, setPhase] = useState<Phase>('idle');
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const [landedAt, setLandedAt] = useState(`${pathname}?${search}`);

  const location = `${pathname}?${search}`;
  if (location !== landedAt) {
    setLandedAt(location);
    if (phase === 'waiting') setPhase('idle');
    else if (phase === 'running') setPhase('done');
  }

  useEffect(() => {
    const clear = () => {
      for (const timer of timers.current) clearTimeout(timer);
      timers.current = [];
    };
    const start = (event: MouseEvent | SubmitEvent) => {
      if (internalDestination(event) === null) return;
      clear();
      setPhase('waiting');
      timers.current.push(
        setTimeout(() => setPhase((current) => (current === 'waiting' ? 'running' : current)), SHOW_AFTER_MS),
        setTimeout(() => setPhase('idle'), GIVE_UP_MS),
      );
    };
    document.addEventListener('click', start, true);
    document.addEventListener('submit', start, true);
    return () => {
      clear();
      document.removeEventListener('click', start, true);
      document.removeEventListener('submit', start, true);
    };
  }, []);

  useEffect(() => {
    if (phase !== 'done') return;
    const timer = setTimeout(() => setPhase('idle'), 300);
    return () => clearTimeout(timer);
  }, [phase]);

  if (phase === 'idle' || phase === 'waiting') return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading the page"
      data-testid="navigation-progress"
      data-phase={phase}
      className="pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5"
    >
      <div
        className={`h-full bg-teal-500 shadow-[0_0_6px] shadow-teal-500 dark:bg-teal-400 ${
          phase === 'done' ? 'w-full opacity-0 transition-[width,opacity] duration-300' : 'animate-[navigation-progress_8s_cubic-bezier(0.1,0.7,0.3,1)_forwards]'
        }`}
      />
    </div>
  );
}

/**
 * A thin bar at the top of the window from a click on an in-app link (or a search) until the new page's URL is in
 * place: Next keeps the old page up while the server renders the next one, which takes seconds under load.
 */
export function NavigationProgress() {
  return (
    <Suspense fallback={null}>
      <Bar />
    </Suspense>
  );
}
