import { fmt, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { DomainHint } from './DomainHint';

const TOKEN = 'ab'.repeat(32);

describe('DomainHint (a domain not verified yet)', () => {
  it('shows both ways to prove the domain: the file, and the TXT record with its value; verify asks the server', async () => {
    const m = mockApi({ '/ldap/verify_domain': ok(null, M.ldapDomainVerified) });
    session.setUser(mainUser);
    const onVerified = vi.fn();
    renderWithProviders(
      <DomainHint
        pending={{ domain: 'example.com', message: M.ldapDomainUnverified, file_name: 'hublink-verify-abc.txt', txt_name: '_hublink-verify.example.com', txt_value: TOKEN }}
        onVerified={onVerified}
        onRefused={() => undefined}
      />,
    );
    await shows(M.ldapDomainUnverified);
    await shows(fmt(M.ldapVerifyFile, { name: 'hublink-verify-abc.txt' }));
    await shows(fmt(M.ldapVerifyTxt, { name: '_hublink-verify.example.com', value: TOKEN }));
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: /^验\s*证$/ }));
    await waitFor(() => expect(onVerified).toHaveBeenCalled());
    expect(m.callsTo('/ldap/verify_domain')[0]!.body).toEqual({ domain: 'example.com' });
  });

  it('an older server’s 423 (the file only) shows no TXT line', async () => {
    mockApi({});
    session.setUser(mainUser);
    renderWithProviders(<DomainHint pending={{ domain: 'example.com', message: M.ldapDomainUnverified, file_name: 'f.txt' }} onVerified={() => undefined} onRefused={() => undefined} />);
    await shows(fmt(M.ldapVerifyFile, { name: 'f.txt' }));
    expect(screen.queryByText(/TXT/)).not.toBeInTheDocument();
  });
});
