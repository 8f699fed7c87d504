import { ComingSoon } from '../../components/ComingSoon';

export default function NetworkDetailPage() {
  return <ComingSoon title="建设中" />;
}
