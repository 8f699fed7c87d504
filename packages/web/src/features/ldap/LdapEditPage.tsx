import { getLdapConfig, ldapMessages } from '@hublink/contract';
import { useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { PageContainer } from '../../components/PageContainer';
import { usePageRoute } from '../../components/pageRoute';
import { LDAP_CALL } from './api';
import { LdapForm, NEW_VALUES, valuesOf } from './LdapForm';

/**
 * /router/ldap_edit?ldapType (spec 3 §2): the LDAP form, to create (ldapType=create, or nothing saved
 * yet) or to modify the saved configuration (ldapType=edit); the breadcrumb and title say which.
 */
export default function LdapEditPage() {
  const [params] = useSearchParams();
  const route = usePageRoute();
  const answer = useApiQuery(getLdapConfig, undefined, LDAP_CALL).data?.data;
  const saved = params.get('ldapType') === 'edit' && answer?.enable === 1 ? (answer.data ?? undefined) : undefined;
  const title = saved ? ldapMessages.ldapEditCrumb : ldapMessages.ldapCreateCrumb;
  const breadcrumb = route ? [...route.breadcrumb.slice(0, -1), { title }] : undefined;
  return (
    <PageContainer title={title} breadcrumb={breadcrumb} loading={!answer}>
      {answer && <LdapForm key={saved ? 'edit' : 'create'} saved={saved} initial={saved ? valuesOf(saved) : NEW_VALUES} />}
    </PageContainer>
  );
}
