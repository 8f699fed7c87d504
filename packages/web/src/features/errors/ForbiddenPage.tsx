import { BM } from '@hublink/contract';
import { ErrorResult } from './ErrorResult';

/** What a page the user may not see shows instead: '无权访问此页面' and the way back to the overview. */
export default function ForbiddenPage() {
  return <ErrorResult status="403" text={BM.pageForbidden} />;
}
