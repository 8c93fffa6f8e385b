import { describe, expect, it } from 'vitest';
import { chartView } from './chart-view';

describe('chart view', () => {
  it('reads the range and currency from the URL, defaulting what is missing or unknown', () => {
    expect(chartView({})).toEqual({ interval: '1d', currency: 'usd' });
    expect(chartView({ interval: '7d', currency: 'kas' })).toEqual({ interval: '7d', currency: 'kas' });
    expect(chartView({ interval: ['1y', '7d'], currency: 'eur' })).toEqual({ interval: '1y', currency: 'usd' });
  });
});
