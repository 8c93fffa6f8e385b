import Link from 'next/link';
import { pages } from '@/lib/web/urls';
import { LiveStatusBadge } from './live-provider';
import { SearchBox } from './search-box';
import { ThemeToggle } from './theme-toggle';

const NAVIGATION = [
  { href: pages.home(), label: 'Dashboard' },
  { href: pages.mempool(), label: 'Mempool' },
  { href: pages.fees(), label: 'Fees' },
  { href: pages.tokens(), label: 'Tokens' },
  { href: pages.console(), label: 'API console' },
  { href: pages.docs(), label: 'API docs' },
] as const;

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Link href={pages.home()} className="text-lg font-semibold tracking-tight text-teal-700 dark:text-teal-400">
          dagboard
        </Link>
        <nav aria-label="Main" className="order-3 w-full overflow-x-auto sm:order-none sm:w-auto">
          <ul className="flex gap-3 text-sm whitespace-nowrap">
            {NAVIGATION.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className="text-slate-700 hover:text-teal-700 dark:text-slate-300 dark:hover:text-teal-400">
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <SearchBox />
          <LiveStatusBadge />
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
