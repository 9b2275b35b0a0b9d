import { describe, expect, it } from 'vitest';
import { chosenPath, dialogFilters, fileControl, inWorkFolder } from './fileField';

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

  it('keeps a chosen file as its path in the work folder, and refuses one elsewhere', () => {
    expect(inWorkFolder('/home/aki/work/data/請求書.xlsx', '/home/aki/work')).toBe('data/請求書.xlsx');
    expect(inWorkFolder('/home/aki/work/data/in.csv', '/home/aki/work/')).toBe('data/in.csv');
    expect(inWorkFolder('/home/aki/workshop/in.csv', '/home/aki/work')).toBeNull();
    expect(inWorkFolder('/home/aki/work/../secret.csv', '/home/aki/work')).toBeNull();
    expect(inWorkFolder('/home/aki/work', '/home/aki/work')).toBeNull();
    expect(inWorkFolder('C:\\Users\\Aki\\Work\\data\\in.csv', 'c:\\users\\aki\\work')).toBe('data/in.csv');
    expect(inWorkFolder('/tmp/in.csv', null)).toBeNull();
  });
});
