import { Fragment, type ReactNode } from 'react';

/**
 * A message with `{name}` placeholders, each replaced by the given node (a link, usually), so a
 * sentence that holds a link is still one message: '我们按照{privacy}收集…' with privacy: <Link …/>.
 */
export function withLinks(text: string, links: Record<string, ReactNode>): ReactNode {
  const parts = text.split(/\{(\w+)\}/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>{i % 2 === 1 ? (links[part] ?? `{${part}}`) : part}</Fragment>
      ))}
    </>
  );
}
