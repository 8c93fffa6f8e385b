/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its wasm and data files from its own package directory at run time.
  serverExternalPackages: ['@electric-sql/pglite'],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
