import { describe, expect, it } from 'vitest';
import { chosenPath, dialogFilters, fileControl } from './fileField';

describe('file fields', () => {
  it('offers the file dialog only inside the desktop app', () => {
    expect(fileControl('tauri')).toEqual({ text: true, choose: true });
    expect(fileControl('http')).toEqual({ text: true, choose: false });
  });

  it('filters the dialog by the accepted extensions', () => {
    expect(dialogFilters('.csv, XLSX ,*.tsv')).toEqual([{ name: '.csv, .xlsx, .tsv', extensions: ['csv', 'xlsx', 'tsv'] }]);
    expect(dialogFilters('.csv,.csv')).toEqual([{ name: '.csv', extensions: ['csv'] }]);
    expect(dialogFilters('')).toEqual([]);
    expect(dialogFilters(null)).toEqual([]);
    expect(dialogFilters('*')).toEqual([]);
  });

  it('reads what the dialog gave', () => {
    expect(chosenPath('/w/a.csv')).toBe('/w/a.csv');
    expect(chosenPath(['/w/a.csv', '/w/b.csv'])).toBe('/w/a.csv');
    expect(chosenPath([])).toBeNull();
    expect(chosenPath(null)).toBeNull();
  });
});
