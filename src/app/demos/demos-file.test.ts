import { describe, expect, it } from 'vitest';
import { chooseDroppedDemos, parseObsKeys, refusalText } from './demos-file';

const file = (name: string) => ({ name });

describe('chooseDroppedDemos', () => {
  it('takes the one .demos file among those given, whatever the case of its extension', () => {
    const demos = file('Reach.DEMOS');
    expect(chooseDroppedDemos([file('notes.txt'), demos])).toEqual({ kind: 'demos', file: demos });
  });

  it('takes a dataset with what travels with it: an .hdf5 or .h5, or a train.npz and its normalization.npz', () => {
    const d4rl = file('hopper-medium-v2.hdf5');
    expect(chooseDroppedDemos([d4rl])).toEqual({ kind: 'dataset', files: [d4rl] });
    expect(chooseDroppedDemos([file('low_dim.H5')])).toEqual({ kind: 'dataset', files: [file('low_dim.H5')] });
    const pair = [file('train.npz'), file('normalization.npz')];
    expect(chooseDroppedDemos([...pair, file('README.md')])).toEqual({ kind: 'dataset', files: pair });
  });

  it('refuses none, several, a mix, or other files with a sentence naming them', () => {
    expect(chooseDroppedDemos([])).toBe('No file was dropped: drop a .demos file or a dataset, or click to choose one.');
    expect(chooseDroppedDemos([file('a.demos'), file('b.demos')])).toBe('2 .demos files were dropped: drop one at a time.');
    expect(chooseDroppedDemos([file('a.demos'), file('b.hdf5')])).toBe('a.demos, b.hdf5 were dropped together: drop the .demos file or the dataset, not both.');
    expect(chooseDroppedDemos([file('policy.flowtune')])).toBe('policy.flowtune is neither a .demos file nor a dataset: drop demos recorded here or by npm run demos, a D4RL or robomimic .hdf5, or a train.npz with its normalization.npz.');
    expect(chooseDroppedDemos([file('a.json'), file('b.bin')])).toMatch(/^a\.json, b\.bin are neither \.demos files nor datasets: /);
  });
});

describe('refusalText', () => {
  it('names the file unless the worker’s sentence already names one of those dropped, ending in one full stop', () => {
    expect(refusalText('bad.demos', 'header length 9999 exceeds the file size (12 bytes)')).toBe('bad.demos was refused: header length 9999 exceeds the file size (12 bytes).');
    expect(refusalText('bad.demos', 'bad.demos is for task lift, not reach.')).toBe('bad.demos is for task lift, not reach.');
    expect(refusalText(['train.npz', 'normalization.npz'], "normalization.npz's obs_min holds 17 values but train.npz's states have 11")).toBe("normalization.npz's obs_min holds 17 values but train.npz's states have 11.");
    expect(refusalText(['a.npz', 'b.npz'], 'the demos flow is recording')).toBe('a.npz and b.npz were refused: the demos flow is recording.');
  });
});

describe('parseObsKeys', () => {
  it('splits robomimic obs keys at commas, spaces trimmed, and gives nothing for an empty field', () => {
    expect(parseObsKeys(' object, robot0_eef_pos ,robot0_eef_quat')).toEqual(['object', 'robot0_eef_pos', 'robot0_eef_quat']);
    expect(parseObsKeys('  ')).toBeUndefined();
  });
});
