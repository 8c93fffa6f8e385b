'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useState } from 'react';
import { pages } from '@/lib/web/urls';

const NAVIGATION = [
  { href: pages.home(), label: 'Dashboard' },
  { href: pages.mempool(), label: 'Mempool' },
  { href: pages.fees(), label: 'Fees' },
  { href: pages.statistics(), label: 'Statistics' },
  { href: pages.tokens(), label: 'Tokens' },
  { href: pages.covenants(), label: 'Covenants' },
  { href: pages.wallet(), label: 'Wallet' },
  { href: pages.console(), label: 'API console' },
  { href: pages.docs(), label: 'API docs' },
] as const;

/** The dashboard is current only at "/"; a section is current on its own pages too (a token under Tokens). */
function isCurrent(href: string, pathname: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

function NavigationLinks({ pathname, vertical }: { pathname: string; vertical: boolean }) {
  return (
    <ul className={vertical ? 'grid gap-1 text-base' : 'flex gap-2 text-sm whitespace-nowrap xl:gap-4'}>
      {NAVIGATION.map((item) => {
        const current = isCurrent(item.href, pathname);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={current ? 'page' : undefined}
              className={`${vertical ? 'block rounded px-2 py-2' : 'border-b-2 py-1'} ${
                current
                  ? `font-semibold text-teal-800 dark:text-teal-300 ${vertical ? 'bg-teal-50 dark:bg-teal-950' : 'border-teal-600 dark:border-teal-400'}`
                  : `text-slate-700 hover:text-teal-700 dark:text-slate-300 dark:hover:text-teal-400 ${vertical ? 'hover:bg-slate-100 dark:hover:bg-slate-800' : 'border-transparent'}`
              }`}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The main navigation, as items of the header's wrapping row: the link list from 1024 px, a menu button and its panel
 * below. The current page's link is marked (aria-current); the menu closes when the page changes.
 */
export function MainNavigation() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  const panelId = useId();
  if (open && openedAt !== pathname) setOpen(false);

  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [open]);

  return (
    <>
      <nav aria-label="Main" className="hidden lg:block">
        <NavigationLinks pathname={pathname} vertical={false} />
      </nav>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpenedAt(pathname);
          setOpen(!open);
        }}
        className="order-2 inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 px-2 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 lg:hidden dark:border-slate-700 dark:hover:bg-slate-800"
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
          {open ? <path d="M3.5 3.5l9 9M12.5 3.5l-9 9" /> : <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />}
        </svg>
        Menu
      </button>
      <nav id={panelId} aria-label="Main" hidden={!open} className="order-4 w-full border-t border-slate-200 pt-2 lg:hidden dark:border-slate-800">
        <NavigationLinks pathname={pathname} vertical />
      </nav>
    </>
  );
}
