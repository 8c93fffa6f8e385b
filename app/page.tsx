export default function HomePage() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-semibold tracking-tight">dagboard</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        A self-hostable Kaspa block explorer and metered chain-data API.
      </p>
    </main>
  );
}
