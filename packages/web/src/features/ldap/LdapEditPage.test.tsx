import { CODE, fmt, LDAP_FILTER_PROBLEMS, LIMITS, M, type LdapConfig } from '@hublink/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import LdapEditPage from './LdapEditPage';
import { savedConfig } from './testData';

function api(config: LdapConfig | null = null) {
  return mockApi({
    '/ldap/config': ok({ enable: config ? 1 : 0, data: config, notice: '' }),
    '/ldap/check': ok(null, M.ldapChecked),
    '/ldap/save': ok(null, M.ldapSaved),
    '/ldap/upload': ok({ ca_id: 7, file_name: 'root-ca.pem' }, M.ldapUploaded),
    '/ldap/verify_domain': ok(null, M.ldapDomainVerified),
    '/network/select': ok([{ network_number: 'N1', network_name: 'HQ' }]),
    '/router/hardware': ok([{ router_name: 'gw-bj', note: '北京', router_type: 1, online: 1 }]),
  });
}

const u = () => userEvent.setup({ delay: null });
const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
/** Types into a text field at once (antd's inputs take a change event as typing). */
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const mainButton = () => screen.getByRole('button', { name: /检\s*测\s*配\s*置|保\s*存\s*配\s*置|直接保存|检测中|保存中/ });
const choose = async (group: string, option: string) => u().click(within(screen.getByRole('radiogroup', { name: group })).getByText(option));

async function fillValid() {
  fill(M.ldapHost, 'ldap.example.com');
  fill(M.ldapDomain, 'Example.COM');
  fill(M.ldapBaseDn, 'dc=example,dc=com');
  fill(M.ldapUsername, 'cn=admin,dc=example,dc=com');
  fill(M.ldapPassword, 'secret');
}

function open(route = '/router/ldap_edit?ldapType=create') {
  session.setUser(mainUser);
  return renderWithProviders(<LdapEditPage />, { route, path: '/router/ldap_edit' });
}

describe('LdapEditPage (/router/ldap_edit)', () => {
  it('creates: the breadcrumb says so; nothing is sent while a rule fails, each with the server’s message', async () => {
    const m = api();
    open();
    await shows(M.ldapGroupConnection);
    expect(screen.getAllByText(M.ldapCreateCrumb).length).toBeGreaterThan(0);
    expect(mainButton()).toHaveTextContent(/检\s*测\s*配\s*置/);
    await u().click(mainButton());
    await shows(M.ldapHostRequired);
    await shows(M.ldapDomainRequired);
    await shows(M.ldapBaseDnRequired);
    await shows(M.ldapUsernameRequired);
    await shows(M.ldapPasswordRequired);
    fill(M.ldapPort, '38a');
    await shows(M.ldapPortDigits);
    fill(M.ldapPort, '70000');
    await shows(fmt(M.ldapPortRange, { n: LIMITS.ldapPortMax }));
    fill(M.ldapDomain, 'EXAMPLE');
    await shows(M.ldapDomainInvalid);
    // Typed upper case comes out lower case.
    expect(field(M.ldapDomain)).toHaveValue('example');
    fill(M.ldapBaseDn, 'example.com');
    await shows(M.ldapBaseDnInvalid);
    expect(field(M.ldapHost)).toHaveAttribute('maxlength', String(LIMITS.ldapHostMax));
    expect(field(M.ldapPassword)).toHaveAttribute('maxlength', String(LIMITS.ldapPasswordMax));
    expect(m.callsTo('/ldap/check')).toHaveLength(0);
  });

  it('asks for the router only in private mode, and for the CA with SSL, whose port it suggests', async () => {
    api();
    open();
    await shows(M.ldapGroupConnection);
    expect(screen.queryByLabelText(M.ldapRouter)).not.toBeInTheDocument();
    await choose(M.ldapMode, M.ldapModePrivate);
    await fillValid();
    await u().click(mainButton());
    await shows(M.ldapRouterRequired);
    await u().click(screen.getByRole('combobox', { name: M.ldapRouter }));
    await u().click(await screen.findByTitle(fmt(M.ldapRouterOption, { name: 'gw-bj', note: '北京' })));

    expect(field(M.ldapPort)).toHaveValue('389');
    await choose(M.ldapSecurity, M.ldapSsl);
    expect(field(M.ldapPort)).toHaveValue('636');
    await u().click(mainButton());
    await shows(M.ldapCaRequired);
    await choose(M.ldapSecurity, M.ldapTls);
    expect(field(M.ldapPort)).toHaveValue('389');
  });

  it('checks first, then saves and goes to the list; any change asks for a check again; busy texts while waiting', async () => {
    const m = api();
    let answerCheck: (() => void) | undefined;
    m.answer('/ldap/check', () => new Promise((resolve) => (answerCheck = () => resolve(ok(null, M.ldapChecked)))));
    const r = open();
    await shows(M.ldapGroupConnection);
    await fillValid();
    await u().click(screen.getByRole('combobox', { name: M.ldapNetwork }));
    await u().click(await screen.findByTitle('HQ'));
    await u().click(mainButton());
    await waitFor(() => expect(mainButton()).toHaveTextContent(M.ldapChecking));
    expect(mainButton()).toHaveClass('ant-btn-loading');
    answerCheck!();
    await waitFor(() => expect(mainButton()).toHaveTextContent(/保\s*存\s*配\s*置/));
    expect(m.callsTo('/ldap/check')[0]!.body).toEqual({
      mode: 'public',
      router_name: '',
      domain: 'example.com',
      host: 'ldap.example.com',
      port: '389',
      base_dn: 'dc=example,dc=com',
      use_ssl: 0,
      use_tls: 0,
      ca_id: null,
      type: 1,
      username: 'cn=admin,dc=example,dc=com',
      password: 'secret',
      user_group: '',
      user_filter: '',
      name_attr: '',
      name_lower: 0,
      note_attr: 'description',
      phone_attr: '',
      email_attr: '',
      network_number: 'N1',
      sync_mode: 1,
      auto_import: 0,
      sync_cycle: LIMITS.ldapSyncCycleMinutes,
    });
    // A change after the check: check again.
    await choose(M.ldapSyncMode, M.ldapSyncAuto);
    await waitFor(() => expect(mainButton()).toHaveTextContent(/检\s*测\s*配\s*置/));
    m.answer('/ldap/check', ok(null, M.ldapChecked));
    await u().click(mainButton());
    await waitFor(() => expect(mainButton()).toHaveTextContent(/保\s*存\s*配\s*置/));
    let answerSave: (() => void) | undefined;
    m.answer('/ldap/save', () => new Promise((resolve) => (answerSave = () => resolve(ok(null, M.ldapSaved)))));
    await u().click(mainButton());
    await waitFor(() => expect(mainButton()).toHaveTextContent(M.ldapSaving));
    answerSave!();
    await waitFor(() => expect(r.location()).toBe('/router/ldap'));
    expect(m.callsTo('/ldap/save')[0]!.body).toMatchObject({ sync_mode: 2, network_number: 'N1' });
  });

  it('a domain not verified yet (423) shows the hint: the file, download, verify; a refusal shows under the field', async () => {
    const m = api();
    m.answer('/ldap/check', ok(null, M.ldapChecked));
    m.answer('/ldap/save', { code: CODE.furtherAction, msg: M.ldapDomainUnverified, data: { file_name: 'hublink-verify-abc.txt' } } as never);
    let verifies = 0;
    m.answer('/ldap/verify_domain', () => (++verifies === 1 ? refused(M.ldapDomainFileWrong) : ok(null, M.ldapDomainVerified)));
    open();
    await shows(M.ldapGroupConnection);
    await fillValid();
    await u().click(mainButton());
    await waitFor(() => expect(mainButton()).toHaveTextContent(/保\s*存\s*配\s*置/));
    await u().click(mainButton());
    await shows(M.ldapDomainUnverified);
    await shows(fmt(M.ldapVerifyFile, { name: 'hublink-verify-abc.txt' }));
    expect(screen.getByRole('button', { name: M.ldapDownloadFile })).toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: /^验\s*证$/ }));
    await waitFor(() => expect(m.callsTo('/ldap/verify_domain')[0]!.body).toEqual({ domain: 'example.com' }));
    // The refusal is the domain field's error.
    await shows(M.ldapDomainFileWrong);
    await u().click(screen.getByRole('button', { name: /^验\s*证$/ }));
    await waitFor(() => expect(screen.queryByText(M.ldapDomainUnverified)).not.toBeInTheDocument());
  });

  it('shows a host the server refuses as not public under the host, at the check and at a direct save', async () => {
    const m = api(savedConfig());
    m.answer('/ldap/check', refused(M.ldapHostPrivate));
    m.answer('/ldap/save', refused(M.ldapHostPrivate));
    const r = open('/router/ldap_edit?ldapType=edit');
    await shows(M.ldapGroupConnection);
    const item = () => field(M.ldapHost).closest('.ant-form-item');
    fill(M.ldapHost, '2130706433');
    await waitFor(() => expect(mainButton()).toHaveTextContent(/检\s*测\s*配\s*置/));
    await u().click(mainButton());
    await waitFor(() => expect(m.callsTo('/ldap/check')).toHaveLength(1));
    await waitFor(() => expect(item()).toHaveTextContent(M.ldapHostPrivate));
    expect(mainButton()).toHaveTextContent(/检\s*测\s*配\s*置/);
    // The saved configuration (saved while the operator allowed private targets) saves directly: the save is refused the same way.
    fill(M.ldapHost, 'ldap.example.com');
    await waitFor(() => expect(item()).not.toHaveTextContent(M.ldapHostPrivate));
    await waitFor(() => expect(mainButton()).toHaveTextContent(M.ldapSaveDirect));
    await u().click(mainButton());
    await waitFor(() => expect(m.callsTo('/ldap/save')).toHaveLength(1));
    await waitFor(() => expect(item()).toHaveTextContent(M.ldapHostPrivate));
    expect(r.location()).toBe('/router/ldap_edit?ldapType=edit');
  });

  it('edits: breadcrumb says modify, base DN editable with its warning, password masked; unchanged it saves directly', async () => {
    const m = api(savedConfig({ use_ssl: 1, port: 636, ca_id: 3, file_name: 'corp.pem' }));
    const r = open('/router/ldap_edit?ldapType=edit');
    await shows(M.ldapGroupConnection);
    expect(screen.getAllByText(M.ldapEditCrumb).length).toBeGreaterThan(0);
    expect(field(M.ldapBaseDn)).toBeEnabled();
    expect(screen.getByText(M.ldapBaseDnChangeHint)).toBeInTheDocument();
    expect(field(M.ldapPassword)).toHaveValue('******');
    expect(screen.getByText('corp.pem')).toBeInTheDocument();
    // Nothing to check: the saved configuration saves directly (spec 3 §4: 直接保存).
    await waitFor(() => expect(mainButton()).toHaveTextContent(M.ldapSaveDirect));
    fill(M.ldapHost, 'ldap2.example.com');
    await waitFor(() => expect(mainButton()).toHaveTextContent(/检\s*测\s*配\s*置/));
    fill(M.ldapHost, 'ldap.example.com');
    await waitFor(() => expect(mainButton()).toHaveTextContent(M.ldapSaveDirect));
    expect(M.ldapSaveDirect).toBe('直接保存');
    await u().click(mainButton());
    await waitFor(() => expect(r.location()).toBe('/router/ldap'));
    expect(m.callsTo('/ldap/check')).toHaveLength(0);
    expect(m.callsTo('/ldap/save')[0]!.body).toMatchObject({ password: '******', use_ssl: 1, ca_id: 3, port: '636' });
  });

  it('uploads a CA file it accepts by name and size; refuses others before sending', async () => {
    const m = api();
    open();
    await shows(M.ldapGroupConnection);
    await choose(M.ldapSecurity, M.ldapSsl);
    // The picker's input is made anew after each pick.
    const input = () => document.querySelector<HTMLInputElement>('input[type=file]')!;
    // As a drop would: past the picker's filter, to the form's own check.
    const drop = userEvent.setup({ delay: null, applyAccept: false });
    await drop.upload(input(), new File(['x'], 'ca.txt', { type: 'text/plain' }));
    await shows(M.ldapCaFormat);
    await drop.upload(input(), new File([new Uint8Array(LIMITS.uploadMaxBytes + 1)], 'big.pem'));
    await shows(M.ldapCaTooLarge);
    expect(m.callsTo('/ldap/upload')).toHaveLength(0);
    await u().upload(input(), new File(['-----BEGIN CERTIFICATE-----'], 'root-ca.pem'));
    await shows('root-ca.pem');
    expect(m.callsTo('/ldap/upload')).toHaveLength(1);
  });

  it('previews the selection: a filter that is no filter shows its reason and sends nothing; the table shows member names and the names that cannot be imported; a missing group shows under the group', async () => {
    const m = api();
    m.answer('/ldap/preview', ok({
      count: 12,
      users: [
        { username: 'john-doe', member_name: 'john_doe', description: '研发部', phone: '', email: 'john@example.com', disable: 0, issue: M.ldapNameCollision },
        { username: 'amy', member_name: 'amy', description: '', phone: '13800000001', email: '', disable: 0, issue: '' },
      ],
      issue_count: 3,
      issues: [
        { username: 'john-doe', member_name: 'john_doe', description: '研发部', phone: '', email: 'john@example.com', disable: 0, issue: M.ldapNameCollision },
        { username: 'John_Doe', member_name: 'John_Doe', description: '', phone: '', email: '', disable: 0, issue: M.ldapNameCollision },
        { username: '张三', member_name: '', description: '', phone: '', email: '', disable: 0, issue: M.ldapNameEmpty },
      ],
    }));
    open();
    await shows(M.ldapGroupSelection);
    fillValid();
    fill(M.ldapUserFilter, '(uid=john');
    await u().click(screen.getByRole('button', { name: M.ldapPreview }));
    await shows(fmt(M.ldapFilterInvalid, { reason: LDAP_FILTER_PROBLEMS.unbalanced }));
    expect(m.callsTo('/ldap/preview')).toHaveLength(0);

    fill(M.ldapUserFilter, '(uid=j*)');
    fill(M.ldapNameAttr, 'mail');
    await u().click(screen.getByRole('switch', { name: M.ldapNameLower }));
    await u().click(screen.getByRole('button', { name: M.ldapPreview }));
    await shows(fmt(M.ldapPreviewCount, { n: 12, m: 2 }));
    expect(m.callsTo('/ldap/preview')[0]!.body).toMatchObject({ user_filter: '(uid=j*)', name_attr: 'mail', name_lower: 1, user_group: '' });
    const preview = screen.getByRole('region', { name: M.ldapPreviewTitle });
    expect(within(preview).getByText('amy', { selector: 'code' })).toBeInTheDocument();
    await shows(fmt(M.ldapPreviewIssues, { n: 3 }));
    expect(within(screen.getByRole('region', { name: M.ldapColIssue })).getByText(M.ldapNameEmpty)).toBeInTheDocument();

    m.answer('/ldap/preview', refused(M.ldapGroupMissing));
    fill(M.ldapUserGroup, 'cn=nobody,dc=example,dc=com');
    await u().click(screen.getByRole('button', { name: M.ldapPreview }));
    await waitFor(() => expect(screen.getAllByText(M.ldapGroupMissing).length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByRole('region', { name: M.ldapPreviewTitle })).toBeNull();
  });
});
