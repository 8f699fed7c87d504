import { CODE, M } from '@hublink/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import ValidateEmailPage from './ValidateEmailPage';

describe('ValidateEmailPage', () => {
  it('posts s once and shows the success answer', async () => {
    const m = mockApi({ '/contacts/validate_email': ok(null, M.emailValidated) });
    const { container } = renderWithProviders(<ValidateEmailPage />, { route: '/validate/email?s=tok123' });
    await shows(M.emailValidated);
    expect(container.querySelector('.ant-result-success')).toBeInTheDocument();
    expect(m.callsTo('/contacts/validate_email').map((c) => c.body)).toEqual([{ s: 'tok123' }]);
    expect(screen.getByText('验证信息')).toBeInTheDocument();
  });

  it('shows the error image and the message of a refusal', async () => {
    mockApi({ '/contacts/validate_email': refused(M.validateLinkExpired, CODE.invalid) });
    const { container } = renderWithProviders(<ValidateEmailPage />, { route: '/validate/email?s=old' });
    await shows(M.validateLinkExpired);
    expect(container.querySelector('.ant-result-error')).toBeInTheDocument();
  });

  it('stays in the 404 state without s, calling nothing', async () => {
    const m = mockApi({});
    const { container } = renderWithProviders(<ValidateEmailPage />, { route: '/validate/email' });
    expect(container.querySelector('.ant-result-404')).toBeInTheDocument();
    expect(screen.getByText(M.validateLinkInvalid)).toBeInTheDocument();
    expect(m.calls).toHaveLength(0);
  });
});
