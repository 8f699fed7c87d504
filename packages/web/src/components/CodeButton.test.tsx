import { fmt, LIMITS, M } from '@hublink/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodeButton } from './CodeButton';

const button = () => screen.getByRole('button');

/** Lets the onSend promise settle under fake timers. */
const flush = () => act(async () => {});

describe('CodeButton', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down 59 seconds after a successful send, then offers a new code', async () => {
    const onSend = vi.fn().mockResolvedValue(true);
    render(<CodeButton onSend={onSend} />);
    expect(button()).toHaveTextContent(M.getCode);

    fireEvent.click(button());
    await flush();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(button()).toHaveTextContent(`${LIMITS.codeCooldownSeconds}秒后重试`);
    expect(button()).toBeDisabled();

    act(() => vi.advanceTimersByTime(1000));
    expect(button()).toHaveTextContent(`${LIMITS.codeCooldownSeconds - 1}秒后重试`);

    fireEvent.click(button());
    await flush();
    expect(onSend).toHaveBeenCalledTimes(1);

    for (let i = 1; i < LIMITS.codeCooldownSeconds; i++) act(() => vi.advanceTimersByTime(1000));
    expect(button()).toHaveTextContent(M.getCode);
    expect(button()).toBeEnabled();
  });

  it('resets the countdown when the send fails', async () => {
    const onSend = vi.fn().mockResolvedValue(false);
    render(<CodeButton onSend={onSend} />);
    fireEvent.click(button());
    await flush();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(button()).toHaveTextContent(M.getCode);
    expect(button()).toBeEnabled();
  });

  it('resets the countdown when the send throws', async () => {
    render(<CodeButton onSend={() => Promise.reject(new Error('network'))} />);
    fireEvent.click(button());
    await flush();
    expect(button()).toHaveTextContent(M.getCode);
  });

  it('takes its own length (contact email: 60 s)', async () => {
    render(<CodeButton onSend={async () => true} seconds={LIMITS.contactEmailCooldownSeconds} />);
    fireEvent.click(button());
    await flush();
    expect(button()).toHaveTextContent(fmt(M.codeRetryIn, { n: LIMITS.contactEmailCooldownSeconds }));
  });

  it('does not send while disabled by its owner', async () => {
    const onSend = vi.fn().mockResolvedValue(true);
    render(<CodeButton onSend={onSend} disabled />);
    fireEvent.click(button());
    await flush();
    expect(onSend).not.toHaveBeenCalled();
  });
});
