import { Card, Divider, Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';

export interface LegalSection {
  title: string;
  /** Numbered clauses of the section (rendered as 'N.M'). */
  clauses: ReactNode[];
}

export interface LegalDocumentProps {
  title: string;
  /** Dates or other facts under the title. */
  meta?: ReactNode;
  /** Paragraphs before the first section. */
  intro: ReactNode[];
  sections: LegalSection[];
}

const MAX_WIDTH = 920;

/** A static legal text (terms of service, privacy policy): title, introduction, numbered sections. */
export function LegalDocument({ title, meta, intro, sections }: LegalDocumentProps) {
  const { token } = theme.useToken();
  return (
    <Flex justify="center" style={{ padding: `${token.paddingXL}px ${token.padding}px` }}>
      <Card variant="borderless" style={{ width: '100%', maxWidth: MAX_WIDTH }} styles={{ body: { padding: `${token.paddingXL}px ${token.paddingXL}px` } }}>
        <article>
          <Typography.Title level={1} style={{ textAlign: 'center', marginBottom: token.marginXS, fontSize: token.fontSizeHeading2, lineHeight: token.lineHeightHeading2 }}>
            {title}
          </Typography.Title>
          {meta && (
            <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
              {meta}
            </Typography.Paragraph>
          )}
          <Divider />
          {intro.map((p, i) => (
            <Typography.Paragraph key={i} style={{ lineHeight: 1.9 }}>
              {p}
            </Typography.Paragraph>
          ))}
          {sections.map((s, si) => (
            <section key={s.title} aria-labelledby={`legal-${si + 1}`}>
              <Typography.Title level={4} id={`legal-${si + 1}`} style={{ marginTop: token.marginLG }}>
                {`${si + 1}. ${s.title}`}
              </Typography.Title>
              {s.clauses.map((c, ci) => (
                <Typography.Paragraph key={ci} style={{ lineHeight: 1.9 }}>
                  <Typography.Text strong>{`${si + 1}.${ci + 1}`}</Typography.Text> {c}
                </Typography.Paragraph>
              ))}
            </section>
          ))}
        </article>
      </Card>
    </Flex>
  );
}
