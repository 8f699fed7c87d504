import { act } from '@testing-library/react';

/** Stands in for the browser's WebSocket in tests: records every connection; the test speaks for the server. */
export class FakeSocket {
  static all: FakeSocket[] = [];
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  static latest(): FakeSocket {
    const s = FakeSocket.all.at(-1);
    if (!s) throw new Error('no WebSocket opened');
    return s;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** The server sends a message. */
  receive(message: object) {
    act(() => this.onmessage?.({ data: JSON.stringify(message) }));
  }

  /** The connection drops (network, server restart). */
  drop() {
    act(() => this.close());
  }
}
