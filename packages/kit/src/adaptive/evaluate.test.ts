import { describe, expect, it } from 'vitest';
import { conditionReadsVisitor } from './condition.ts';
import { evaluateDocument, hidesBlocks, type EvaluableNode } from './evaluate.ts';

const text = (t: string): EvaluableNode => ({ type: 'paragraph', nodes: [{ type: 'text', data: { t } }] });
const ifBlock = (expression: string, ...nodes: EvaluableNode[]): EvaluableNode => ({
  type: 'if',
  data: { expression },
  nodes,
});
const doc = (...nodes: EvaluableNode[]): EvaluableNode => ({ type: 'document', nodes });
const as = (claims: Record<string, unknown>) => ({ context: { visitor: { claims } } });

describe('evaluateDocument', () => {
  const source = doc(
    text('everyone'),
    ifBlock('visitor.claims.plan == "pro"', text('pro'), ifBlock('visitor.claims.beta', text('pro beta'))),
    ifBlock('!visitor.claims.plan', text('anonymous')),
    { type: 'tabs', fragments: [{ type: 'tab', nodes: [ifBlock('visitor.claims.beta', text('beta tab'))] }] },
    ifBlock('not ( valid', text('never')),
  );
  const strings = (n: EvaluableNode) => JSON.stringify(n);

  it('keeps what the claims select, in place of its condition; drops the rest, conditions and all', () => {
    const pro = strings(evaluateDocument(source, as({ plan: 'pro', beta: true })));
    expect(pro).toContain('"pro"');
    expect(pro).toContain('pro beta');
    expect(pro).toContain('beta tab');
    expect(pro).not.toMatch(/anonymous|never|"if"|visitor|expression/);
    const anonymous = strings(evaluateDocument(source, as({ unsigned: {} })));
    expect(anonymous).toContain('anonymous');
    expect(anonymous).not.toMatch(/"pro"|beta|never|"if"|visitor/);
    // In order: the selected content where its block was.
    expect(evaluateDocument(source, as({ plan: 'pro' })).nodes!.map((n) => n.nodes?.[0]?.data?.t ?? n.type)).toEqual([
      'everyone',
      'pro',
      'tabs',
    ]);
  });

  it('leaves the input alone, and returns a document without conditions as it is', () => {
    const frozen = JSON.parse(JSON.stringify(source));
    evaluateDocument(source, as({}));
    expect(source).toEqual(frozen);
    const plain = doc(text('a'));
    expect(evaluateDocument(plain, as({}))).toBe(plain);
    expect(hidesBlocks(source, as({ plan: 'pro', beta: true }))).toBe(true); // the unparsable one
    expect(hidesBlocks(doc(ifBlock('visitor.claims.x', text('x'))), as({ x: 1 }))).toBe(false);
  });

  it('deterministic-only decides the conditions that do not read the visitor, and no other', () => {
    const mixed = doc(
      ifBlock('1 == 2', text('never')),
      ifBlock('true', text('always')),
      ifBlock('visitor.claims.a', text('a')),
    );
    const out = strings(evaluateDocument(mixed, { ...as({}), mode: 'deterministic' }));
    expect(out).toContain('always');
    expect(out).not.toContain('never');
    expect(out).toContain('visitor.claims.a');
    expect(conditionReadsVisitor('["a"].includes(visitor.claims.plan)')).toBe(true);
    expect(conditionReadsVisitor('visitor')).toBe(true);
    expect(conditionReadsVisitor('1 < 2 && "x".startsWith("x")')).toBe(false);
    expect(conditionReadsVisitor('not ( valid')).toBe(true);
  });
});
