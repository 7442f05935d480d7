import { describe, expect, it } from 'vitest';
import { chooseDemosFile, refusalText } from './demos-file';

const file = (name: string) => ({ name });

describe('chooseDemosFile', () => {
  it('takes the one .demos file among those given, whatever the case of its extension', () => {
    const demos = file('Reach.DEMOS');
    expect(chooseDemosFile([file('notes.txt'), demos])).toBe(demos);
  });

  it('refuses none, several, or other files with a sentence naming them', () => {
    expect(chooseDemosFile([])).toMatch(/^No file was dropped/);
    expect(chooseDemosFile([file('a.demos'), file('b.demos')])).toBe('2 .demos files were dropped: drop one at a time.');
    expect(chooseDemosFile([file('policy.flowtune')])).toBe('policy.flowtune is not a .demos file: drop demos recorded here or by npm run demos.');
    expect(chooseDemosFile([file('a.json'), file('b.bin')])).toMatch(/^a\.json, b\.bin are not \.demos files/);
  });
});

describe('refusalText', () => {
  it('names the file unless the worker’s sentence already does, ending in one full stop', () => {
    expect(refusalText('bad.demos', 'header length 9999 exceeds the file size (12 bytes)')).toBe('bad.demos was refused: header length 9999 exceeds the file size (12 bytes).');
    expect(refusalText('bad.demos', 'bad.demos is for task lift, not reach.')).toBe('bad.demos is for task lift, not reach.');
  });
});
