import { BM } from '@hublink/contract';
import { ErrorResult } from './ErrorResult';

/** /404/index: '页面不存在' and the way back to the overview. */
export default function NotFoundPage() {
  return <ErrorResult status="404" text={BM.pageNotFound} />;
}
