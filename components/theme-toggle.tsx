'use client';

import { useEffect, useSyncExternalStore } from 'react';

type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'dagboard-theme';
const NEXT_CHOICE: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' };
const ICON: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

/** Runs before first paint (inlined in <head>) so the page never flashes the wrong theme. */
export const THEME_BOOT_SCRIPT = `(function(){try{var c=localStorage.getItem('${STORAGE_KEY}');var d=c==='dark'||(c!=='light'&&matchMedia('(prefers-color-scheme: dark)').matches);document.documentElement.classList.toggle('dark',d);document.documentElement.dataset.theme=c||'system';}catch(e){}})();`;

function apply(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.dataset.theme = choice;
}

function storedChoice(): ThemeChoice {
  const stored = localStorage.getItem(STORAGE_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

const THEME_EVENT = 'dagboard-theme-change';

function subscribeTheme(listener: () => void): () => void {
  const media = matchMedia('(prefers-color-scheme: dark)');
  const handleSystemChange = () => {
    apply(storedChoice());
    listener();
  };
  media.addEventListener('change', handleSystemChange);
  window.addEventListener('storage', listener);
  window.addEventListener(THEME_EVENT, listener);
  return () => {
    media.removeEventListener('change', handleSystemChange);
    window.removeEventListener('storage', listener);
    window.removeEventListener(THEME_EVENT, listener);
  };
}

export function ThemeToggle() {
  const choice = useSyncExternalStore<ThemeChoice>(subscribeTheme, storedChoice, () => 'system');
  // The boot script set the class before paint; should React ever re-create the document's attributes (recovering
  // from a failed hydration), this puts the reader's theme back.
  useEffect(() => apply(storedChoice()), []);

  function handleClick() {
    const next = NEXT_CHOICE[choice];
    if (next === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, next);
    apply(next);
    window.dispatchEvent(new Event(THEME_EVENT));
  }

  return (
    <button
      type="button"
      onClick={handleClick}
      className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      aria-label={`${LABEL[choice]} (click to change)`}
      title={LABEL[choice]}
      data-testid="theme-toggle"
    >
      <span aria-hidden="true">{ICON[choice]}</span>
    </button>
  );
}
