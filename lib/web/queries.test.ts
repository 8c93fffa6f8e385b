import { describe, expect, it } from 'vitest';
import { loadedItems } from './queries';

describe('loadedItems', () => {
  it('keeps page order and the first copy of an item that shifted onto the next page', () => {
    const pages = [{ rows: ['c', 'b'] }, { rows: ['b', 'a'] }];
    expect(loadedItems(pages, (page) => page.rows, (row) => row)).toEqual(['c', 'b', 'a']);
    expect(loadedItems(undefined, (page: { rows: string[] }) => page.rows, (row) => row)).toEqual([]);
  });
});
