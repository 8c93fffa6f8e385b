'use client';

import { useState } from 'react';
import { safeIconUrl } from './token-format';

/**
 * A token's registry icon drawn as an image; its first letter in a circle when the registry names none, names
 * something that is not an http(s) URL or a path on this site, or the image does not load.
 */
export function TokenIcon({ ticker, url, size = 24 }: { ticker: string; url: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const source = safeIconUrl(url);
  if (source === null || failed) {
    return (
      <span
        aria-hidden="true"
        className="inline-flex shrink-0 items-center justify-center rounded-full bg-slate-200 font-mono font-semibold text-slate-700 dark:bg-slate-700 dark:text-slate-200"
        style={{ width: size, height: size, fontSize: size * 0.45 }}
      >
        {ticker.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    // Registry icons come from any host the operator names (or this site), so they are not routed through next/image.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={source}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className="shrink-0 rounded-full"
      data-testid="token-icon"
    />
  );
}
