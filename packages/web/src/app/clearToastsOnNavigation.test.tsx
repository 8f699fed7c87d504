import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { toast } from '../api/notify';
import { clearToastsOnNavigation } from './router';

function setup() {
  const router = createMemoryRouter([
    { path: '/login', element: <p>login page</p> },
    { path: '/dashboard', element: <p>dashboard page</p> },
  ], { initialEntries: ['/login'] });
  clearToastsOnNavigation(router);
  render(<RouterProvider router={router} />);
  return router;
}

/** The end of the current task: a toast shown before it belongs to the page it was shown on. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('clearToastsOnNavigation', () => {
  it("clears the page's refusals when another page opens, and keeps success toasts", async () => {
    const router = setup();
    toast.error('验证码错误');
    toast.success('登录成功');
    await screen.findByText('验证码错误');
    await nextTask();
    await act(() => router.navigate('/dashboard'));
    await screen.findByText('dashboard page');
    await waitFor(() => expect(screen.queryByText('验证码错误')).not.toBeInTheDocument());
    expect(screen.getByText('登录成功')).toBeInTheDocument();
  });

  it('keeps a refusal shown by the move itself (a failure that sends the user elsewhere)', async () => {
    const router = setup();
    await act(async () => {
      toast.error('授权失败');
      await router.navigate('/dashboard');
    });
    await screen.findByText('dashboard page');
    expect(await screen.findByText('授权失败')).toBeInTheDocument();
  });
});
