/**
 * Copying text from a click, wherever the site is served. `navigator.clipboard` exists only in a secure context
 * (https, or http on localhost), so a deployment opened over plain http on a LAN address has none; there the text is
 * copied through a selected, off-screen textarea and `document.execCommand('copy')`, which browsers still honour for
 * a user's click. Browser-only.
 */

/** How the text reached the clipboard, or `blocked` when neither way worked (the caller lets the reader copy by hand). */
export type CopyOutcome = 'copied' | 'copied-by-fallback' | 'blocked';

function copyThroughSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.setAttribute('aria-hidden', 'true');
  Object.assign(area.style, { position: 'fixed', top: '0', left: '0', width: '1px', height: '1px', opacity: '0' });
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  focused?.focus();
  return copied;
}

export async function copyText(text: string): Promise<CopyOutcome> {
  if (typeof navigator.clipboard?.writeText === 'function') {
    try {
      await navigator.clipboard.writeText(text);
      return 'copied';
    } catch {
      // Refused (no permission, document not focused): the selection route may still work.
    }
  }
  return copyThroughSelection(text) ? 'copied-by-fallback' : 'blocked';
}

/** What the copy button says after a click. */
export function copyOutcomeText(outcome: CopyOutcome): string {
  switch (outcome) {
    case 'copied':
      return 'Copied';
    case 'copied-by-fallback':
      return 'Copied (no clipboard access on this page, so the browser’s copy command was used)';
    case 'blocked':
      return 'The browser blocked copying: the text is selected below, press Ctrl+C (⌘C on a Mac)';
  }
}
