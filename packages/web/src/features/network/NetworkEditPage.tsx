import { ComingSoon } from '../../components/ComingSoon';

export default function NetworkEditPage() {
  return <ComingSoon title="建设中" />;
}
