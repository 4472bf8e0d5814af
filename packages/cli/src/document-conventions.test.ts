// One document model (issue 39): markdown is parsed, and HTML escaped, only in packages/document. This test reads
// the syntax tree of every TypeScript file of the repository (services, packages, gateway, the app) and fails
// when a file outside the package imports a markdown/HTML syntax-tree library or escapes HTML by hand.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { Sources, walk, type Finding } from './conventions-ast.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'services', 'packages', 'gateway', 'app/src'],
  { cwd: repoRoot, encoding: 'utf8' },
)
  .split('\n')
  .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !f.startsWith('packages/document/'));
const sources = new Sources(repoRoot);

/**
 * The libraries that read or write markdown or HTML syntax trees: remark, micromark, mdast, unified, unist, hast,
 * rehype, and other markdown parsers. Their one user is packages/document (`@quire/document/syntax` gives the
 * mdast of GitBook's dialect to the few readers of markdown's own structure).
 */
const SYNTAX_LIBRARIES =
  /^(@types\/)?(remark|remark-[\w-]+|micromark|micromark-[\w-]+|mdast|mdast-[\w-]+|unified|unist|unist-[\w-]+|hast|hast-[\w-]+|rehype|rehype-[\w-]+|markdown-it|marked)(\/.*)?$/;

/** Files that may escape HTML their own way, each with its reason. A listed file that no longer does fails too. */
const ESCAPE_EXCEPTIONS: Record<string, string> = {};

const ENTITY = /&(#\d+|#x[\da-f]+|[a-z]+);/i;
const ESCAPED_CHARS = new Set(['&', '<', '>', '"', "'"]);
const stringOf = (n: ts.Node | undefined) =>
  n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined;

/** Where a file imports a syntax-tree library (import, export … from, import(), require()). */
function syntaxImports(sf: ts.SourceFile): Finding[] {
  const out: Finding[] = [];
  walk(sf, (n) => {
    let spec: string | undefined;
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier)
      spec = stringOf(n.moduleSpecifier);
    else if (ts.isCallExpression(n) && (n.expression.kind === ts.SyntaxKind.ImportKeyword || calls(n, 'require')))
      spec = stringOf(n.arguments[0]);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) spec = stringOf(n.argument.literal);
    if (spec && SYNTAX_LIBRARIES.test(spec))
      out.push(`${sources.at(sf, n)}: imports ${spec} (markdown and HTML syntax trees are @quire/document's)`);
  });
  return out;
}

const calls = (n: ts.CallExpression, name: string) => ts.isIdentifier(n.expression) && n.expression.text === name;

/**
 * Where a file escapes HTML by hand: a `.replace(…, '&lt;')` (any character reference as the replacement), or a
 * table mapping `&`, `<`, `>`, `"` or `'` to one (`{ '<': '&lt;' }`).
 */
function handEscapes(sf: ts.SourceFile): Finding[] {
  const out: Finding[] = [];
  walk(sf, (n) => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      /^replace(All)?$/.test(n.expression.name.text) &&
      ENTITY.test(stringOf(n.arguments[1]) ?? '')
    )
      out.push(`${sources.at(sf, n)}: escapes HTML by hand (use esc or html from @quire/document)`);
    if (
      ts.isPropertyAssignment(n) &&
      ESCAPED_CHARS.has(stringOf(n.name) ?? '') &&
      ENTITY.test(stringOf(n.initializer) ?? '')
    )
      out.push(`${sources.at(sf, n)}: an HTML escape table (use esc or html from @quire/document)`);
  });
  return out;
}

const isTest = (f: string) => /\.test\.tsx?$|\.fixtures\.ts$|\/e2e\/|\/testing\//.test(f);

describe('the checks themselves', () => {
  it('find a syntax-tree import and a hand-made escape at their lines', () => {
    const fake = new Sources(repoRoot);
    fake.put(
      'fake.ts',
      [
        "import { unified } from 'unified';",
        "import type { Root } from 'mdast';",
        "export { gfm } from 'micromark-extension-gfm';",
        "import { html } from '@quire/document';",
        "const esc = (s: string) => s.replace(/</g, '&lt;');",
        "const TABLE = { '&': '&amp;', a: '&amp;' };",
        "const plain = 'x'.replace(/a/g, 'b');",
        "const lazy = () => import('remark-parse');",
      ].join('\n'),
    );
    const sf = fake.file('fake.ts')!;
    const lines = (found: Finding[]) => found.map((f) => Number(f.split(':')[1]));
    expect(lines(syntaxImports(sf))).toEqual([1, 2, 3, 8]);
    expect(lines(handEscapes(sf))).toEqual([5, 6]);
  });
});

describe('one document model', () => {
  it('reads every TypeScript file outside packages/document', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.some((f) => f.startsWith('app/src/'))).toBe(true);
  });

  it('parses markdown only in packages/document: no other file imports remark, micromark, mdast, unified…', () => {
    const found = files.flatMap((f) => {
      const sf = sources.file(f);
      return sf ? syntaxImports(sf) : [];
    });
    expect(found).toEqual([]);
  });

  it('escapes HTML only in packages/document (its esc and html template), but for the listed exceptions', () => {
    const found = files
      .filter((f) => !isTest(f))
      .flatMap((f) => {
        const sf = sources.file(f);
        return sf ? handEscapes(sf) : [];
      });
    expect(found.filter((f) => !Object.hasOwn(ESCAPE_EXCEPTIONS, f.split(':')[0]!))).toEqual([]);
    const stale = Object.keys(ESCAPE_EXCEPTIONS).filter((file) => !found.some((f) => f.startsWith(`${file}:`)));
    expect(stale, 'an exception no longer needed: remove it from ESCAPE_EXCEPTIONS').toEqual([]);
  });
});
