import type { UserMessage } from '@hublink/contract';

/** What one tab tells the console's other tabs of the same browser about the session they share. */
export type TabNews =
  /** A session started (sign-in, authorised login): its token is in the cookie. */
  | { type: 'signed-in'; user: UserMessage }
  /** The session ended: signed out, or lost (then `notice` says why, for the login page). */
  | { type: 'signed-out'; notice?: string };

const CHANNEL = 'hublink-session';
let channel: BroadcastChannel | null | undefined;

function open(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
    // Node's channel (the component tests) would otherwise keep the test process alive.
    (channel as { unref?: () => void } | null)?.unref?.();
  }
  return channel;
}

/** The session's news between tabs (a tab does not hear its own). */
export const tabs = {
  tell(news: TabNews) {
    open()?.postMessage(news);
  },
  listen(onNews: (news: TabNews) => void): () => void {
    const ch = open();
    if (!ch) return () => {};
    const handler = (e: MessageEvent<TabNews>) => onNews(e.data);
    ch.addEventListener('message', handler);
    return () => ch.removeEventListener('message', handler);
  },
};
