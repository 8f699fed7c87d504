import { Layout } from 'antd';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { AppFooter } from './AppFooter';
import { FRAME } from '../../components/dimensions';
import { PublicHeader } from './PublicHeader';
import { useEnsureUser } from './useEnsureUser';

/** Help documents, downloads, email validation (and full-width forms): top bar, centred page, footer. */
export default function SecondPublicLayout() {
  useEnsureUser();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <PublicHeader />
      <Layout.Content style={{ padding: FRAME.contentPadding, width: '100%', maxWidth: FRAME.publicMaxWidth, margin: '0 auto' }}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <AppFooter />
    </Layout>
  );
}
