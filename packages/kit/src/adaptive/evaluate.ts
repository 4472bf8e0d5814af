import { conditionHolds, conditionReadsVisitor, type ConditionContext, type ConditionLogger } from './condition.ts';

/**
 * Adaptive content of a document, evaluated for a reader: pure functions of a GitBook JSON document (no Node
 * built-ins, no I/O), shared by the content service (documents read with a published-content token or with
 * `evaluated`) and the sites service (pages, `.md`, llms files and search of a published site).
 */

/** A node of a GitBook JSON document, read loosely: only what evaluation walks. */
export interface EvaluableNode {
  type?: string;
  data?: Record<string, unknown>;
  nodes?: EvaluableNode[];
  fragments?: EvaluableNode[];
}

/** How deep evaluation walks (a document is bounded deeper than this when written). */
const MAX_DEPTH = 64;

/** The condition of an `if` block (`data.expression`, or `data.condition` as older documents say). */
export function blockCondition(node: EvaluableNode): string {
  return String(node.data?.expression ?? node.data?.condition ?? '');
}

/**
 * Which conditions an evaluation decides: `all` of them against the visitor's claims, or only the `deterministic`
 * ones (GitBook's `evaluated=deterministic-only`: a condition that does not read `visitor` has the same value for
 * every reader; one that does is left as it is).
 */
export type EvaluationMode = 'all' | 'deterministic';

export interface Evaluation {
  context: ConditionContext;
  mode?: EvaluationMode | undefined;
  log?: ConditionLogger | undefined;
}

/** Whether an `if` block is decided by this evaluation (else it stays in the document, condition and all). */
const decides = (node: EvaluableNode, e: Evaluation) =>
  node.type === 'if' && (e.mode !== 'deterministic' || !conditionReadsVisitor(blockCondition(node)));

/** Whether the document has a block this evaluation hides (an `if` it decides whose condition does not hold). */
export function hidesBlocks(node: EvaluableNode | undefined, e: Evaluation, depth = 0): boolean {
  if (!node || depth > MAX_DEPTH) return false;
  if (decides(node, e) && !conditionHolds(blockCondition(node), e.context, e.log)) return true;
  return [...(node.nodes ?? []), ...(node.fragments ?? [])].some((n) => hidesBlocks(n, e, depth + 1));
}

/** Whether the document has an `if` block this evaluation decides (then evaluating it changes it). */
export function hasDecidedBlocks(node: EvaluableNode | undefined, e: Evaluation, depth = 0): boolean {
  if (!node || depth > MAX_DEPTH) return false;
  if (decides(node, e)) return true;
  return [...(node.nodes ?? []), ...(node.fragments ?? [])].some((n) => hasDecidedBlocks(n, e, depth + 1));
}

/** The children of `nodes` as evaluated: a decided `if` block is gone when its condition fails, else its content takes its place. */
function evaluateNodes(nodes: EvaluableNode[], e: Evaluation, depth: number): EvaluableNode[] {
  const out: EvaluableNode[] = [];
  for (const n of nodes) {
    if (!decides(n, e)) out.push(evaluateNode(n, e, depth + 1));
    else if (conditionHolds(blockCondition(n), e.context, e.log))
      out.push(...evaluateNodes(n.nodes ?? [], e, depth + 1));
  }
  return out;
}

function evaluateNode<T extends EvaluableNode>(node: T, e: Evaluation, depth: number): T {
  if (depth > MAX_DEPTH) return { ...node, nodes: [] };
  return {
    ...node,
    ...(node.nodes ? { nodes: evaluateNodes(node.nodes, e, depth) } : {}),
    ...(node.fragments ? { fragments: node.fragments.map((f) => evaluateNode(f, e, depth + 1)) } : {}),
  };
}

/**
 * The document as a reader with these claims sees it: every `if` block the evaluation decides is gone — with its
 * content when its condition does not hold (or does not parse), replaced by its content when it holds — so neither
 * the hidden content nor the condition's source is left. The input is not changed (it may be a frozen, shared
 * document); an unchanged document is returned as is.
 */
export function evaluateDocument<T extends EvaluableNode>(document: T, e: Evaluation): T {
  return hasDecidedBlocks(document, e) ? evaluateNode(document, e, 0) : document;
}
