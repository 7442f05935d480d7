import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunFolderBackend } from './run-folder';

const KNOWN = ['wasm', 'cpu', 'webgpu'] as const;

describe('readRunFolderBackend', () => {
  it('reads the backend a run folder trained on, and nothing from a folder without one or with an unknown name', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'run-backend-'));
    expect(readRunFolderBackend(dir, KNOWN)).toBeUndefined();
    writeFileSync(path.join(dir, 'backend.txt'), 'webgpu\n');
    expect(readRunFolderBackend(dir, KNOWN)).toBe('webgpu');
    writeFileSync(path.join(dir, 'backend.txt'), 'tensorflow\n');
    expect(readRunFolderBackend(dir, KNOWN)).toBeUndefined();
  });
});
