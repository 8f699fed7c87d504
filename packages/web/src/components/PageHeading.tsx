import type { ReactNode } from 'react';

const AS_AROUND = { margin: 0, font: 'inherit', color: 'inherit' } as const;

/**
 * The page's one <h1> where the title sits inside something that draws it already (antd's Result
 * title): the heading for assistive technology, the look of what is around it.
 */
export function PageHeading({ children }: { children: ReactNode }) {
  return <h1 style={AS_AROUND}>{children}</h1>;
}
