import { CheckCircleFilled, ExclamationCircleFilled, IdcardOutlined, LockOutlined, MailOutlined, MobileOutlined } from '@ant-design/icons';
import { type AccountData, accountMessages, BM, getAccountData, INDUSTRIES } from '@hublink/contract';
import { Button, Card, Col, Flex, Row, Skeleton, Typography, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { BindDialog, type BindKind } from './BindDialog';

/** One set / not-set row of a card. */
function StatusRow({ label, value }: { label: string; value: string }) {
  const { token } = theme.useToken();
  return (
    <Flex justify="space-between" gap={token.marginXS}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      {value ? (
        <Typography.Text ellipsis={{ tooltip: value }}>
          <CheckCircleFilled style={{ color: token.colorSuccess, marginRight: token.marginXXS }} />
          {value}
        </Typography.Text>
      ) : (
        <Typography.Text type="warning">
          <ExclamationCircleFilled style={{ marginRight: token.marginXXS }} />
          {accountMessages.notSet}
        </Typography.Text>
      )}
    </Flex>
  );
}

function InfoCard({ icon, title, rows, actions }: { icon: ReactNode; title: string; rows: ReactNode; actions: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Card
      variant="borderless"
      style={{ height: '100%' }}
      title={
        <Flex gap={token.marginXS} align="center">
          <span style={{ color: token.colorPrimary }}>{icon}</span>
          {title}
        </Flex>
      }
      actions={[<Flex key="actions" justify="center" gap={token.marginXS} wrap>{actions}</Flex>]}
    >
      <Flex vertical gap={token.marginXS}>
        {rows}
      </Flex>
    </Card>
  );
}

const industryLabel = (code: string) => INDUSTRIES.find((i) => i.value === code)?.label ?? '';

/**
 * The information page of spec 1 §2.8: four cards (password, profile, phone, email) with set / not-set
 * rows; phone and email open their binding dialogs. Beside the profile form (/account/info) the profile
 * card is left out (`withProfile={false}`): one card titled 基本资料 on a page, not two.
 */
export function SecurityCards({ withProfile = true }: { withProfile?: boolean }) {
  const navigate = useNavigate();
  const { data, isPending } = useApiQuery(getAccountData);
  const [dialog, setDialog] = useState<BindKind | null>(null);
  const account: AccountData | undefined = data?.data;
  if (isPending || !account) return <Skeleton active paragraph={{ rows: 6 }} />;

  const contact = (kind: BindKind, value: string) => (
    <>
      {value && (
        <Button type="link" onClick={() => void navigate(kind === 'phone' ? '/account/phone' : '/account/email')}>
          {accountMessages.changeAction}
        </Button>
      )}
      <Button type="link" onClick={() => setDialog(kind)}>
        {value ? accountMessages.bindOrUnbind : accountMessages.bindNow}
      </Button>
    </>
  );

  const xl = withProfile ? 6 : 8;
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} xl={xl}>
          <InfoCard
            icon={<LockOutlined />}
            title={accountMessages.loginPasswordTitle}
            rows={<StatusRow label={accountMessages.accountPassword} value={accountMessages.isSet} />}
            actions={
              <Button type="link" onClick={() => void navigate('/account/password')}>
                {accountMessages.changeAction}
              </Button>
            }
          />
        </Col>
        {withProfile && (
          <Col xs={24} md={12} xl={6}>
            <InfoCard
              icon={<IdcardOutlined />}
              title={accountMessages.accountProfile}
              rows={
                <>
                  <StatusRow label={accountMessages.profileNickname} value={account.nickname} />
                  <StatusRow label={accountMessages.profileBirthday} value={account.birthday} />
                  <StatusRow label={accountMessages.profileIndustry} value={industryLabel(account.industry)} />
                  <StatusRow label={accountMessages.profileOccupation} value={account.occupation} />
                </>
              }
              actions={
                <Button type="link" onClick={() => void navigate('/account/info')}>
                  {BM.edit}
                </Button>
              }
            />
          </Col>
        )}
        <Col xs={24} md={12} xl={xl}>
          <InfoCard
            icon={<MobileOutlined />}
            title={accountMessages.accountPhone}
            rows={<StatusRow label={accountMessages.accountPhoneShort} value={account.phone} />}
            actions={contact('phone', account.phone)}
          />
        </Col>
        <Col xs={24} md={12} xl={xl}>
          <InfoCard
            icon={<MailOutlined />}
            title={accountMessages.accountEmail}
            rows={<StatusRow label={accountMessages.accountEmail} value={account.email} />}
            actions={contact('email', account.email)}
          />
        </Col>
      </Row>
      <BindDialog kind="phone" open={dialog === 'phone'} current={account.phone} onClose={() => setDialog(null)} />
      <BindDialog kind="email" open={dialog === 'email'} current={account.email} onClose={() => setDialog(null)} />
    </>
  );
}
