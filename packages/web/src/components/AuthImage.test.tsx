import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../api/session';
import { AuthImage } from './AuthImage';

const png = () => new Response(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), { headers: { 'Content-Type': 'image/png' } });

describe('AuthImage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const revoke = vi.fn();

  beforeEach(() => {
    session.setToken('tok123', Date.now() + 3_600_000);
    fetchMock = vi.fn(async () => png());
    vi.stubGlobal('fetch', fetchMock);
    Object.defineProperty(URL, 'createObjectURL', { value: vi.fn(() => 'blob:test/1'), configurable: true, writable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: revoke, configurable: true, writable: true });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('fetches the image with the bearer token and shows it from a blob URL, revoked when it goes', async () => {
    const { unmount } = render(<AuthImage src="/api/v1/ticket/file?file_id=abc" alt="图片1" failedText="加载失败" />);
    expect(await screen.findByRole('img', { name: '图片1' })).toHaveAttribute('src', 'blob:test/1');
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/ticket/file?file_id=abc', expect.objectContaining({ headers: { Authorization: 'Bearer tok123' } }));
    unmount();
    expect(revoke).toHaveBeenCalledWith('blob:test/1');
  });

  it('shows the failure when the API answers an envelope instead of the image', async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ code: 204, msg: '图片不存在' }), { headers: { 'Content-Type': 'application/json' } }));
    render(<AuthImage src="/api/v1/ticket/file?file_id=abc" alt="图片1" failedText="加载失败" />);
    expect(await screen.findByRole('img', { name: '图片1 加载失败' })).toBeInTheDocument();
  });

  it('never sends the token outside this origin’s API', async () => {
    render(
      <>
        <AuthImage src="https://evil.example/api/v1/ticket/file?file_id=abc" alt="外站" failedText="加载失败" />
        <AuthImage src="/other/path.png" alt="站内" failedText="加载失败" />
      </>,
    );
    expect(await screen.findByRole('img', { name: '外站 加载失败' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: '站内 加载失败' })).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled());
  });
});
