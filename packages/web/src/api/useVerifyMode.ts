import { CODE, type Envelope } from '@hublink/contract';
import { useRef, useState } from 'react';

export interface VerifyModeOptions<B> {
  send: (body: B) => Promise<Envelope>;
  /** The type-2 body that proves the old value with a code; null when there is no old value to prove. */
  proof: ((code: string) => B) | null;
  /** Empties the code field: a code sent for one target is no use for the other. */
  clearCode: () => void;
  /** Runs, after the code is cleared, when a refused request switches the dialog to verify mode. */
  onRefused?: () => void;
  /** After a request succeeded. */
  onDone: () => void;
}

/**
 * The verify mode of the binding dialogs (docs/decisions.md "Binding dialogs"). A request refused with
 * 401 or 403 is kept and the dialog switches to proving the old value; once proven, the kept request is
 * sent again. One call runs at a time: `busy` is true meanwhile and further calls are ignored.
 */
export function useVerifyMode<B>({ send, proof, clearCode, onRefused, onDone }: VerifyModeOptions<B>) {
  const [verifying, setVerifying] = useState(false);
  const [busy, setBusy] = useState(false);
  const pending = useRef<B | null>(null);

  /** Back to binding; the refused request is dropped. */
  const leave = () => {
    pending.current = null;
    setVerifying(false);
  };

  const finish = () => {
    leave();
    onDone();
  };

  const run = async (job: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    try {
      await job();
    } finally {
      setBusy(false);
    }
  };

  const sendRequest = async (body: B) => {
    const env = await send(body);
    if (env.code === CODE.ok) return finish();
    if ((env.code === CODE.flow401 || env.code === CODE.flow403) && proof) {
      pending.current = body;
      clearCode();
      onRefused?.();
      setVerifying(true);
    }
  };

  const sendProof = async (code: string) => {
    if (!proof) return;
    const env = await send(proof(code));
    if (env.code !== CODE.ok) return;
    const next = pending.current;
    leave();
    clearCode();
    if (next && (await send(next)).code === CODE.ok) finish();
  };

  return {
    verifying,
    busy,
    /** Sends a type-1 request (bind, or unbind with empty values). */
    request: (body: B) => void run(() => sendRequest(body)),
    /** Proves the old value with the code, then repeats the refused request if there is one. */
    verify: (code: string) => void run(() => sendProof(code)),
    /** Verify mode without a refused request: only proving the old value is left to do. */
    enter: () => setVerifying(true),
    leave,
  };
}
