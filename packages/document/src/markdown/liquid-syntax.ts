import type { Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Handle, Options as ToMarkdownExtension } from 'mdast-util-to-markdown';
import { markdownLineEnding, markdownSpace } from 'micromark-util-character';
import { codes } from 'micromark-util-symbol';
import type { Code, Construct, Extension, State, TokenizeContext, Tokenizer } from 'micromark-util-types';

/**
 * GitBook's tag lines (`{% hint style="info" %}`, `{% endhint %}`, `{% embed url="…" %}`…) as a micromark flow
 * construct: a line holding exactly one `{% … %}` tag (up to three spaces of indentation, trailing spaces
 * allowed) is a `liquidTag` token, whatever the tag says. Like a thematic break it may interrupt a paragraph,
 * so `- item\n{% endhint %}` ends the list item and `text\n{% endtabs %}` ends the paragraph. Inside the tag,
 * a `%}` in a double-quoted value (with `\"` and `\\` escapes) does not end it; a line ending does not belong
 * to a tag. Pairing the tags into blocks is done on the tree (liquid-blocks.ts).
 *
 * The mdast node is `{ type: 'liquidTag', value }`, `value` the tag as written (trailing spaces dropped); it is
 * written back verbatim.
 */

export interface LiquidTag {
  type: 'liquidTag';
  value: string;
  /** Set by the writer on a tag line that was kept as text (not a block it writes). */
  raw?: boolean | undefined;
  position?: import('unist').Position | undefined;
}

declare module 'mdast' {
  interface RootContentMap {
    liquidTag: LiquidTag;
  }
  interface BlockContentMap {
    liquidTag: LiquidTag;
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    liquidTag: 'liquidTag';
  }
}

declare module 'mdast-util-to-markdown' {
  interface ConstructNameMap {
    liquidTag: 'liquidTag';
  }
}

const tokenizeLiquidTag: Tokenizer = function (this: TokenizeContext, effects, ok, nok) {
  let quoted = false;
  const start: State = (code) => {
    if (code !== codes.leftCurlyBrace) return nok(code);
    effects.enter('liquidTag');
    effects.consume(code);
    return percent;
  };
  const percent: State = (code) => {
    if (code !== codes.percentSign) return nok(code);
    effects.consume(code);
    return inside;
  };
  const inside: State = (code: Code) => {
    if (code === codes.eof || markdownLineEnding(code)) return nok(code);
    effects.consume(code);
    if (quoted) {
      if (code === codes.backslash) return escaped;
      if (code === codes.quotationMark) quoted = false;
      return inside;
    }
    if (code === codes.quotationMark) quoted = true;
    return code === codes.percentSign ? closing : inside;
  };
  const escaped: State = (code) => {
    if (code === codes.eof || markdownLineEnding(code)) return nok(code);
    effects.consume(code);
    return inside;
  };
  const closing: State = (code) => {
    if (code !== codes.rightCurlyBrace) return inside(code);
    effects.consume(code);
    effects.exit('liquidTag');
    return after;
  };
  const after: State = (code) => {
    if (code === codes.eof || markdownLineEnding(code)) return ok(code);
    if (!markdownSpace(code)) return nok(code);
    effects.enter('whitespace');
    return trailing(code);
  };
  const trailing: State = (code) => {
    if (markdownSpace(code)) {
      effects.consume(code);
      return trailing;
    }
    effects.exit('whitespace');
    return code === codes.eof || markdownLineEnding(code) ? ok(code) : nok(code);
  };
  return start;
};

const liquidTagConstruct: Construct = { name: 'liquidTag', tokenize: tokenizeLiquidTag };

/** The micromark syntax extension. */
export const liquidTagSyntax: Extension = { flow: { [codes.leftCurlyBrace]: liquidTagConstruct } };

/** The mdast-util-from-markdown extension: a `liquidTag` token is a `liquidTag` node. */
export const liquidTagFromMarkdown: FromMarkdownExtension = {
  enter: {
    liquidTag(token) {
      this.enter({ type: 'liquidTag', value: '' }, token);
    },
  },
  exit: {
    liquidTag(token) {
      const node = this.stack.at(-1);
      if (node?.type === 'liquidTag') node.value = this.sliceSerialize(token);
      this.exit(token);
    },
  },
};

const liquidTagHandle: Handle = (node: LiquidTag) => node.value;

/** The mdast-util-to-markdown extension: a `liquidTag` node is written as it is. */
export const liquidTagToMarkdown: ToMarkdownExtension = { handlers: { liquidTag: liquidTagHandle } };
