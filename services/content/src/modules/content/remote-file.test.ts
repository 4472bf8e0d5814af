import { describe, expect, it } from 'vitest';
import type { ContentChange } from '@quire/contracts';
import { prefetchFiles } from './remote-file.ts';

const byUrl = (n: number, from = 0): ContentChange => ({
  operation: 'insert_files',
  files: Array.from({ length: n }, (_, i) => ({
    name: `f${from + i}.png`,
    url: `http://127.0.0.1:9/f${from + i}.png`,
  })),
});

describe('prefetchFiles', () => {
  it('refuses a write giving more files by URL than the cap, naming the first one past it, before fetching any', async () => {
    const config = { QUIRE_ALLOW_PRIVATE_FETCH: false, QUIRE_OUTBOUND_FETCH: false, QUIRE_CONTENT_MAX_URL_FILES: 20 };
    await expect(prefetchFiles(config, [byUrl(15), byUrl(10, 15)], 1024)).rejects.toMatchObject({
      reason: 'invalid_input',
      message:
        'Invalid request: changes.1.files.5.url: a content write fetches at most 20 files by URL; give the others as base64 or in another write',
    });
  });

  it('counts a URL given twice once, and fetches up to the cap (failures reported per file)', async () => {
    const config = { QUIRE_ALLOW_PRIVATE_FETCH: false, QUIRE_OUTBOUND_FETCH: false, QUIRE_CONTENT_MAX_URL_FILES: 2 };
    const fetchFile = await prefetchFiles(config, [byUrl(2), byUrl(2)], 1024);
    await expect(fetchFile('http://127.0.0.1:9/f0.png')).rejects.toThrow();
  });
});
