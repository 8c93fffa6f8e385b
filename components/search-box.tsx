import Form from 'next/form';
import { pages } from '@/lib/web/urls';

/** A GET form to /search: a client navigation once hydrated, a plain form submission before (and without) JavaScript. */
export function SearchBox({ id = 'site-search' }: { id?: string }) {
  return (
    <Form action={pages.search()} role="search" className="flex min-w-0 flex-1">
      <label htmlFor={id} className="sr-only">
        Search by transaction id, block hash, address, covenant id, DAA score or token ticker
      </label>
      <input
        id={id}
        name="q"
        type="search"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder="Transaction, block, address, covenant, DAA score or ticker"
        className="w-full min-w-0 rounded-l-md border border-slate-300 bg-white px-3 py-1.5 text-base sm:text-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-teal-500 dark:border-slate-700 dark:bg-slate-900 dark:placeholder:text-slate-400"
      />
      <button
        type="submit"
        className="rounded-r-md border border-l-0 border-slate-300 bg-teal-700 px-3 text-sm font-medium text-white hover:bg-teal-800 dark:border-slate-700"
      >
        Search
      </button>
    </Form>
  );
}
