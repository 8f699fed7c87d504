import { BM, monitorConfig } from '@hublink/contract';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { MonitorIntro } from './MonitorIntro';
import { MonitorSettings } from './MonitorSettings';

/**
 * /monitor/setting (spec 3 §2, §4): the intro with the start button while monitoring is off; the
 * configuration with its dialogs while it is on. The configuration reloads after starting or closing.
 */
export default function MonitorPage() {
  const config = useApiQuery(monitorConfig);
  const data = config.data?.data;
  if (!data) return <PageContainer loading={config.isPending} title={BM.routeMonitor} />;
  if (data.enable !== 1) {
    return (
      <PageContainer>
        <MonitorIntro />
      </PageContainer>
    );
  }
  return <MonitorSettings config={data} />;
}
