import { PageContainer } from '../../components/PageContainer';
import { SecurityCards } from './SecurityCards';

/** /account: the information page of four cards (spec 1 §2.8); the wizards return here. */
export default function AccountPage() {
  return (
    <PageContainer card={false}>
      <SecurityCards />
    </PageContainer>
  );
}
