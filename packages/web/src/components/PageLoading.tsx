import { BM } from '@hublink/contract';
import { Spin } from 'antd';

/** What a page area shows while its code or first data loads. */
export function PageLoading() {
  return (
    <div role="status" aria-live="polite" style={{ display: 'flex', justifyContent: 'center', padding: '96px 0' }}>
      <Spin size="large" description={BM.pageLoading}>
        <div style={{ width: 120, height: 48 }} />
      </Spin>
    </div>
  );
}
