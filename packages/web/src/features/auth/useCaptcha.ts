import { CODE, getCaptcha } from '@hublink/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call } from '../../api/client';

export interface Captcha {
  /** The image as a data URL ('' until loaded). */
  content: string;
  /** Names this captcha in the call that answers it (and, in recovery, the recovery itself). */
  uniqid: string;
  /** Loads a new image; the previous uniqid is dropped. */
  refresh: () => Promise<void>;
}

/** The image captcha of GET /verify/code, loaded on mount. Only the newest answer is kept. */
export function useCaptcha(): Captcha {
  const [state, setState] = useState({ content: '', uniqid: '' });
  const seq = useRef(0);

  const refresh = useCallback(async () => {
    const mine = ++seq.current;
    const env = await call(getCaptcha);
    if (mine !== seq.current) return;
    if (env.code === CODE.ok && env.data) setState({ content: env.data.content, uniqid: env.data.uniqid });
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return { ...state, refresh };
}
