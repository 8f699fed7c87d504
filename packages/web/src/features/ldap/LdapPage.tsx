import { ApiOutlined, EditOutlined } from '@ant-design/icons';
import { deleteLdap, getLdapConfig, ldapMessages } from '@hublink/contract';
import { Alert, Button, Card, Flex, Popconfirm, Result, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { CLOSED, LDAP_CALL, useLdapMutation, useLdapRights } from './api';
import { LdapOverview } from './LdapOverview';
import { LdapUsers } from './LdapUsers';

export const LDAP_EDIT = '/router/ldap_edit';

/** Not enabled yet: what LDAP does, and the way to enable it (main accounts only configure it). */
function EnableTile({ configure }: { configure: boolean }) {
  const navigate = useNavigate();
  return (
    <Result
      icon={<ApiOutlined />}
      title={ldapMessages.ldapIntroTitle}
      subTitle={<Typography.Paragraph style={{ maxWidth: 560, margin: '0 auto' }}>{ldapMessages.ldapIntro}</Typography.Paragraph>}
      extra={
        configure ? (
          <Button type="primary" onClick={() => void navigate(`${LDAP_EDIT}?ldapType=create`)}>
            {ldapMessages.ldapEnable}
          </Button>
        ) : (
          <Typography.Text type="secondary">{ldapMessages.ldapEnableMainOnly}</Typography.Text>
        )
      }
    />
  );
}

/**
 * /router/ldap (spec 3 §2): the enable tile while LDAP is off; once on, the connection at a glance,
 * the sync service, and the directory's users with their import and removal.
 */
export default function LdapPage() {
  const rights = useLdapRights();
  const navigate = useNavigate();
  const answer = useApiQuery(getLdapConfig, undefined, LDAP_CALL).data?.data;
  const close = useLdapMutation(deleteLdap, { invalidates: CLOSED });
  const config = answer?.enable === 1 ? answer.data : null;

  if (!answer) return <PageContainer loading />;
  if (!config) {
    return (
      <PageContainer>
        <EnableTile configure={rights.configure} />
      </PageContainer>
    );
  }
  return (
    <PageContainer
      card={false}
      extra={
        rights.configure && (
          <>
            <Button icon={<EditOutlined />} onClick={() => void navigate(`${LDAP_EDIT}?ldapType=edit`)}>
              {ldapMessages.ldapEdit}
            </Button>
            <Popconfirm title={ldapMessages.ldapCloseConfirm} onConfirm={() => close.mutateAsync(undefined)}>
              <Button danger>{ldapMessages.ldapClose}</Button>
            </Popconfirm>
          </>
        )
      }
    >
      <Flex vertical gap={16}>
        {answer.notice && <Alert type="warning" showIcon title={answer.notice} />}
        <LdapOverview config={config} rights={rights} />
        <Card variant="borderless">
          <LdapUsers syncMode={config.sync_mode} rights={rights} />
        </Card>
      </Flex>
    </PageContainer>
  );
}
