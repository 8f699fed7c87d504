import { ComingSoon } from '../../components/ComingSoon';

export default function RouterListPage() {
  return <ComingSoon title="建设中" />;
}
