/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its wasm and data files from its own package directory at run time; prom-client's default metrics
  // reach for node built-ins (perf_hooks, v8) that are best left to Node.
  serverExternalPackages: ['@electric-sql/pglite', 'prom-client'],
  poweredByHeader: false,
  // kaspa-rest-server's routes include a trailing slash (/kaspa-rest/transactions/count/); a redirect without CORS
  // headers would fail its cross-origin clients.
  skipTrailingSlashRedirect: true,
  reactStrictMode: true,
};

export default nextConfig;
