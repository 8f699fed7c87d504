import { ComingSoon } from '../../components/ComingSoon';

export default function NetworkListPage() {
  return <ComingSoon title="建设中" />;
}
