import { LeftOutlined, RightOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { BM, type DocumentLink, documentMessages, fmt, handbookHref } from '@hublink/contract';
import { Button, Card, Divider, Drawer, Empty, Flex, Result, Skeleton, theme } from 'antd';
import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useBrand } from '../../session/brand';
import { FRAME } from '../../components/dimensions';
import { usePhone } from '../../components/usePhone';
import { PageContainer } from '../../components/PageContainer';
import { RichHtml } from '../../components/RichHtml';
import { useDocument, useDocumentMenu } from './api';
import { HandbookMenu } from './HandbookMenu';
import { documentsOf, keyOf, sectionsAbove } from './menuTree';
import './HandbookPage.css';

const MENU_WIDTH = 272;
const HANDBOOK_PATH = '/handbook';

/**
 * /handbook (spec 3 §2): the help menu as a tree on the left (in a drawer on a phone), the chosen
 * document on the right with its breadcrumb and previous/next; clicking an image opens a preview. The
 * query's id and title follow the document shown, so a link with them opens it; without one the first
 * document opens. Open without sign-in.
 */
export default function HandbookPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const phone = usePhone();
  const brand = useBrand();
  const { token } = theme.useToken();
  const menu = useDocumentMenu();
  const nodes = useMemo(() => menu.data?.data ?? [], [menu.data]);
  const documents = useMemo(() => documentsOf(nodes), [nodes]);
  const id = Number(params.get('id'));
  const chosen = documents.find((d) => d.id === id) ?? null;
  const doc = useDocument(id, chosen !== null);
  const content = doc.data?.data;
  const [expanded, setExpanded] = useState<string[]>([]);
  const [drawer, setDrawer] = useState(false);
  const sections = useMemo(() => (chosen ? (sectionsAbove(nodes, chosen.id) ?? []) : []), [nodes, chosen]);

  // The address names the document shown: the first one when it names none, its current title always.
  useEffect(() => {
    const first = documents[0];
    if (!params.has('id') && first) void navigate(handbookHref(first.id, first.title), { replace: true });
    else if (chosen && params.get('title') !== chosen.title) void navigate(handbookHref(chosen.id, chosen.title), { replace: true });
  }, [documents, chosen, params, navigate]);

  // The sections above a document are open when it is shown (whatever else the reader opened or closed);
  // set while rendering, so the tree is drawn open rather than opening after it appeared.
  const [openedFor, setOpenedFor] = useState<number | null>(null);
  if (chosen && openedFor !== chosen.id) {
    setOpenedFor(chosen.id);
    setExpanded((open) => [...new Set([...open, ...sections.map((s) => keyOf(s.id))])]);
  }

  useEffect(() => {
    if (content) document.title = `${content.title} - ${BM.routeHandbook} - ${brand.name}`;
  }, [content, brand.name]);

  /** Shows another document from its top (the browser's back returns to this one). */
  const go = (href: string) => {
    setDrawer(false);
    void navigate(href);
    window.scrollTo(0, 0);
  };
  const open = (target: { id: number; title: string }) => go(handbookHref(target.id, target.title));

  // A link to another document stays in this tab; other links open a new one (as the content says).
  const followDocumentLinks = (e: MouseEvent<HTMLElement>) => {
    const href = (e.target as HTMLElement).closest('a')?.getAttribute('href');
    if (!href?.startsWith(`${HANDBOOK_PATH}?`) || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    go(href);
  };

  const tree = (
    <HandbookMenu nodes={nodes} selected={chosen?.id ?? null} expanded={expanded} onExpand={setExpanded} onOpen={open} />
  );
  const contentsButton = phone && (
    <Button icon={<UnorderedListOutlined />} onClick={() => setDrawer(true)}>
      {documentMessages.handbookContents}
    </Button>
  );

  if (menu.isLoading) {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (!documents.length) {
    return (
      <PageContainer>
        <Empty description={documentMessages.handbookNone} />
      </PageContainer>
    );
  }

  const neighbour = (link: DocumentLink, label: string, side: 'before' | 'after') =>
    link && (
      <Button
        type="link"
        onClick={() => open(link)}
        icon={side === 'before' ? <LeftOutlined /> : <RightOutlined />}
        iconPlacement={side === 'before' ? 'start' : 'end'}
        style={{ whiteSpace: 'normal', height: 'auto', textAlign: side === 'before' ? 'start' : 'end', padding: 0 }}
      >
        {fmt(label, { title: link.title })}
      </Button>
    );

  return (
    <Flex gap={token.marginLG} align="flex-start">
      {phone ? (
        <Drawer placement="left" open={drawer} onClose={() => setDrawer(false)} title={documentMessages.handbookContents} size={MENU_WIDTH + 48}>
          {tree}
        </Drawer>
      ) : (
        <nav
          aria-label={documentMessages.handbookContents}
          style={{ width: MENU_WIDTH, flex: 'none', position: 'sticky', top: FRAME.headerHeight + token.margin, maxHeight: `calc(100vh - ${FRAME.headerHeight + 2 * token.margin}px)`, overflowY: 'auto' }}
        >
          <Card variant="borderless" size="small" title={documentMessages.handbookContents}>
            {tree}
          </Card>
        </nav>
      )}
      <div style={{ flex: 1, minWidth: 0 }}>
        {chosen ? (
          <PageContainer
            title={chosen.title}
            breadcrumb={[{ title: BM.routeHandbook, path: HANDBOOK_PATH }, ...sections.map((s) => ({ title: s.title })), { title: chosen.title }]}
            extra={contentsButton}
            loading={doc.isLoading}
          >
            {content ? (
              <article onClick={followDocumentLinks}>
                <RichHtml html={content.content} previewImages className="hl-handbook-content" />
                {(content.before_doc || content.after_doc) && (
                  <>
                    <Divider />
                    <Flex justify="space-between" gap={token.margin} vertical={phone}>
                      <div>{neighbour(content.before_doc, documentMessages.handbookPrevious, 'before')}</div>
                      <div style={{ textAlign: phone ? 'start' : 'end' }}>{neighbour(content.after_doc, documentMessages.handbookNext, 'after')}</div>
                    </Flex>
                  </>
                )}
              </article>
            ) : (
              <Result status="warning" title={documentMessages.documentNotFound} />
            )}
          </PageContainer>
        ) : (
          <PageContainer extra={contentsButton}>
            <Result status="404" title={params.has('id') ? documentMessages.documentNotFound : documentMessages.handbookChoose} extra={<Link to={HANDBOOK_PATH}>{documentMessages.handbookHome}</Link>} />
          </PageContainer>
        )}
      </div>
    </Flex>
  );
}
