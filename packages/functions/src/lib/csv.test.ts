import { describe, expect, it } from 'vitest';
import { cellText, csvLine, rowLines, time } from './csv';

describe('CSV cells', () => {
  it('prefixes text that a spreadsheet would run as a formula with a quote (OWASP CSV injection)', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(cellText(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(cellText('a=b')).toBe('a=b');
    expect(cellText(-5)).toBe('-5');
    expect(cellText(['=x', 'y'])).toBe("'=x; y");
  });

  it('quotes fields holding quotes, commas or line breaks and ends lines with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', ''])).toBe('a,"b,c","say ""hi""","two\nlines",\r\n');
    expect(cellText(null)).toBe('');
    expect(cellText({ price: [1, 2] })).toBe('{"price":[1,2]}');
  });

  it('writes each time as ISO and as its Jalali date with Tehran time, empty when absent', () => {
    const columns = time('at');
    expect(columns.map((c) => c.header)).toEqual(['at', 'atJalali']);
    expect(rowLines(columns, [{ at: '2026-11-20T08:00:00.000Z' }, { at: null }])).toBe(
      '2026-11-20T08:00:00.000Z,1405/08/29 11:30:00\r\n,\r\n',
    );
  });
});
