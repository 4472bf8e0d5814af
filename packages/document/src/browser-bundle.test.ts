import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles an entry of the package for the browser (Vite's build, browser conditions, no Node polyfills). */
async function bundle(entry: string): Promise<Rolldown.OutputChunk[]> {
  const out = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      lib: { entry, formats: ['es'], fileName: 'document' },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) => o.output.filter((c): c is Rolldown.OutputChunk => c.type === 'chunk'));
}

/** The modules of a bundle that are Node built-ins (Vite makes them `__vite-browser-external`, an empty module). */
const nodeModulesOf = (chunks: Rolldown.OutputChunk[]) =>
  chunks
    .flatMap((c) => [...c.moduleIds, ...c.imports])
    .filter((id) => id.startsWith('__vite-browser-external') || isBuiltin(id.replace(/^\0/, '')));

describe('the package in a browser', () => {
  it('bundles its entry with no Node built-in (node:*, fs, path, crypto, worker_threads…)', async () => {
    const chunks = await bundle('src/index.ts');
    expect(nodeModulesOf(chunks)).toEqual([]);
    // the contract's document schema only (`@quire/contracts/document`), not every operation and the OpenAPI builder
    const ids = chunks.flatMap((c) => c.moduleIds);
    expect(ids.some((id) => id.endsWith('/contracts/src/schemas/document.ts'))).toBe(true);
    expect(ids.filter((id) => /\/contracts\/src\/(index|registry|operations\/)/.test(id))).toEqual([]);
    const code = chunks.map((c) => c.code).join('\n');
    for (const name of ['markdownToDocument', 'documentToMarkdown', 'textOf', 'walk', 'mergeBlocks'])
      expect(
        chunks.some((c) => c.exports.includes(name)),
        name,
      ).toBe(true);
    expect(code).not.toMatch(/\brequire\(["'](node:)?(fs|path|crypto|worker_threads)["']\)/);
  }, 120_000);

  it('fails a module that imports a Node built-in', async () => {
    const chunks = await bundle('src/testing-fixtures/uses-node.ts');
    expect(nodeModulesOf(chunks).length).toBeGreaterThan(0);
  }, 120_000);
});
