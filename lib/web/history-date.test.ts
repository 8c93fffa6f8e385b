import { describe, expect, it } from 'vitest';
import { parseHistoryDate } from './history-date';

describe('parseHistoryDate', () => {
  it('reads a day as everything before the next UTC midnight', () => {
    expect(parseHistoryDate('2024-02-28')).toEqual({ day: '2024-02-28', beforeTime: Date.UTC(2024, 1, 29) });
    expect(parseHistoryDate('2024-12-31')).toEqual({ day: '2024-12-31', beforeTime: Date.UTC(2025, 0, 1) });
  });

  it('refuses what is not a calendar day', () => {
    for (const text of [undefined, '', '2024-2-28', '2023-02-29', '2024-13-01', '2024-00-10', 'yesterday', '2024-02-28T00:00']) {
      expect(parseHistoryDate(text)).toBeNull();
    }
  });
});
