import Link from 'next/link';
import { pages } from '@/lib/web/urls';
import { LiveStatusBadge } from './live-provider';
import { MainNavigation } from './main-navigation';
import { SearchBox } from './search-box';
import { ThemeToggle } from './theme-toggle';

/**
 * The site's header, one wrapping row. From 1024 px: logo, navigation, search, status and theme, on one line (the
 * navigation's gaps and the search box's minimum narrow below 1280 px so they fit). Below: logo, status,
 * theme and a menu button on the first line, the search box on its own line, and the opened menu under it.
 */
export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 lg:gap-x-3 xl:gap-x-4">
        <Link href={pages.home()} className="flex items-center gap-2 text-lg font-semibold tracking-tight text-teal-700 dark:text-teal-400">
          <svg viewBox="0 0 32 32" width="22" height="22" aria-hidden="true">
            <rect width="32" height="32" rx="7" className="fill-teal-700 dark:fill-teal-500" />
            <path d="M9 10.5 16 16M9 21.5 16 16M16 16h7.5" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
            <circle cx="9" cy="10.5" r="2.8" fill="#fff" />
            <circle cx="9" cy="21.5" r="2.8" fill="#fff" />
            <circle cx="16" cy="16" r="2.8" fill="#fff" />
            <circle cx="23.5" cy="16" r="2.8" fill="#fff" />
          </svg>
          dagboard
        </Link>
        <MainNavigation />
        <div className="order-3 w-full lg:order-none lg:w-auto lg:min-w-32 lg:flex-1 xl:min-w-48">
          <SearchBox />
        </div>
        <div className="order-1 ml-auto flex items-center gap-2 lg:order-none lg:ml-0">
          <LiveStatusBadge />
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
