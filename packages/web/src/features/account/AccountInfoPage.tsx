import { accountMessages, getAccountData } from '@hublink/contract';
import { Card, Flex, Skeleton } from 'antd';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { ProfileForm } from './ProfileForm';
import { SecurityCards } from './SecurityCards';

/** /account/info: the profile form, then the password, phone and email cards (spec 1 §2.8; the profile card would repeat the form). */
export default function AccountInfoPage() {
  const { data } = useApiQuery(getAccountData);
  const account = data?.data;
  return (
    <PageContainer card={false}>
      <Flex vertical gap={16}>
        <Card variant="borderless" title={accountMessages.accountProfile}>
          {account ? <ProfileForm key={account.username} account={account} /> : <Skeleton active paragraph={{ rows: 6 }} />}
        </Card>
        <SecurityCards withProfile={false} />
      </Flex>
    </PageContainer>
  );
}
