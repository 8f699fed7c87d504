import { Layout } from 'antd';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { AppFooter } from './AppFooter';
import { PublicHeader } from './PublicHeader';
import { useEnsureUser } from './useEnsureUser';

/** Sign-in, registration, recovery and legal pages: top bar, the page on a soft backdrop, footer. */
export default function PublicLayout() {
  useEnsureUser();
  return (
    <Layout className="hl-public" style={{ minHeight: '100vh' }}>
      <PublicHeader />
      <Layout.Content style={{ display: 'flex', flexDirection: 'column' }}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <AppFooter />
    </Layout>
  );
}
