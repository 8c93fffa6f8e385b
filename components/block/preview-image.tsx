/**
 * The generated link-preview card (OpenGraph/Twitter image) of the entity pages, drawn with next/og's ImageResponse in
 * the font it bundles (no network). Text stays ASCII so no fallback font is ever fetched.
 */
import { ImageResponse } from 'next/og';

export const PREVIEW_SIZE = { width: 1200, height: 630 } as const;
export const PREVIEW_CONTENT_TYPE = 'image/png';

export interface PreviewFact {
  label: string;
  value: string;
}

export interface PreviewCard {
  kind: string;
  /** The hash, id or address; wrapped over lines as needed. */
  identifier: string;
  status?: { text: string; tone: 'ok' | 'wait' | 'warn' };
  facts: PreviewFact[];
}

const TONES = { ok: '#0f766e', wait: '#0369a1', warn: '#b45309' } as const;

function ascii(text: string): string {
  return text.replace(/[–—]/g, '-').replace(/…/g, '...').replace(/[^\x20-\x7e]/g, '');
}

export function previewImage(card: PreviewCard): ImageResponse {
  return new ImageResponse(
    (
      <div
        style={{
          width: '100%',
          height: '100%',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
          padding: 64,
          background: '#020617',
          color: '#f8fafc',
          fontSize: 32,
        }}
      >
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <div style={{ display: 'flex', fontSize: 40, color: '#2dd4bf' }}>dagboard</div>
          <div style={{ display: 'flex', fontSize: 32, color: '#94a3b8' }}>{ascii(card.kind)}</div>
        </div>
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          <div style={{ display: 'flex', fontSize: 40, lineHeight: 1.3, wordBreak: 'break-all', color: '#e2e8f0' }}>
            {ascii(card.identifier)}
          </div>
          {card.status !== undefined && (
            <div style={{ display: 'flex', marginTop: 24 }}>
              <div
                style={{
                  display: 'flex',
                  padding: '8px 20px',
                  borderRadius: 999,
                  background: TONES[card.status.tone],
                  color: '#ffffff',
                  fontSize: 30,
                }}
              >
                {ascii(card.status.text)}
              </div>
            </div>
          )}
        </div>
        <div style={{ display: 'flex', gap: 48 }}>
          {card.facts.map((fact) => (
            <div key={fact.label} style={{ display: 'flex', flexDirection: 'column' }}>
              <div style={{ display: 'flex', fontSize: 24, color: '#94a3b8' }}>{ascii(fact.label)}</div>
              <div style={{ display: 'flex', fontSize: 36 }}>{ascii(fact.value)}</div>
            </div>
          ))}
        </div>
      </div>
    ),
    PREVIEW_SIZE,
  );
}
