import Link from 'next/link';
import type { ReactNode } from 'react';

export interface ProblemText {
  status: number;
  title: string;
  detail: string;
}

/** A problem+json body from a server-side /v1 call, reduced to what a page shows. */
export function problemText(status: number, body: unknown): ProblemText {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return {
    status,
    title: typeof problem.title === 'string' ? problem.title : `Request failed (${status})`,
    detail: typeof problem.detail === 'string' ? problem.detail : '',
  };
}

/** A page-level explanation of why a request cannot be answered (bad input, limits), with a way on. */
export function RequestProblem({
  heading,
  problem,
  children,
  backHref,
  backLabel = 'Back to the dashboard',
}: {
  heading: string;
  problem: ProblemText;
  children?: ReactNode;
  backHref: string;
  backLabel?: string;
}) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-semibold tracking-tight">{heading}</h1>
      <div role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        <p className="font-medium">
          {problem.title} <span className="font-normal">(HTTP {problem.status})</span>
        </p>
        {problem.detail !== '' && <p className="mt-1 break-words">{problem.detail}</p>}
        {children}
      </div>
      <p className="mt-6">
        <Link href={backHref} className="text-teal-700 hover:underline dark:text-teal-400">
          {backLabel}
        </Link>
      </p>
    </main>
  );
}
