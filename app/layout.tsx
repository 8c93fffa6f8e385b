import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { LiveProvider } from '@/components/live-provider';
import { NavigationProgress } from '@/components/navigation-progress';
import { Providers } from '@/components/providers';
import { SiteHeader } from '@/components/site-header';
import { THEME_BOOT_SCRIPT } from '@/components/theme-toggle';
import { ServerNowProvider } from '@/components/ui';
import { DEFAULT_PREVIEW_IMAGE, requestOrigin, requestTime } from '@/lib/serving/page-support';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  return {
    // Absolute preview-image URLs name the host the reader used (behind a proxy, its forwarded host).
    metadataBase: new URL(await requestOrigin()),
    title: { default: 'dagboard', template: '%s · dagboard' },
    description: 'A self-hostable Kaspa block explorer and metered chain-data API.',
    applicationName: 'dagboard',
    manifest: '/manifest.webmanifest',
    icons: {
      icon: [
        { url: '/favicon.ico', sizes: '16x16 32x32 48x48' },
        { url: '/icon.svg', type: 'image/svg+xml' },
      ],
      apple: '/apple-touch-icon.png',
    },
    openGraph: { siteName: 'dagboard', type: 'website', images: [DEFAULT_PREVIEW_IMAGE] },
    twitter: { card: 'summary_large_image', images: [DEFAULT_PREVIEW_IMAGE.url] },
  };
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#020617' },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2 dark:focus:bg-slate-900">
          Skip to content
        </a>
        <ServerNowProvider now={requestTime()}>
          <Providers>
            <LiveProvider>
              <NavigationProgress />
              <SiteHeader />
              <div id="main">{children}</div>
            </LiveProvider>
          </Providers>
        </ServerNowProvider>
      </body>
    </html>
  );
}
