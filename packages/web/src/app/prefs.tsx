import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { prefs } from '../api/session';

export type ComponentSize = ReturnType<typeof prefs.size>;

interface PrefsValue {
  size: ComponentSize;
  setSize: (size: ComponentSize) => void;
}

const PrefsContext = createContext<PrefsValue>({ size: prefs.size(), setSize: () => {} });

/** Interface preferences the user changes in the settings panel, persisted in session storage. */
export function PrefsProvider({ children }: { children: ReactNode }) {
  const [size, setSizeState] = useState<ComponentSize>(() => prefs.size());
  const setSize = useCallback((next: ComponentSize) => {
    prefs.setSize(next);
    setSizeState(next);
  }, []);
  const value = useMemo(() => ({ size, setSize }), [size, setSize]);
  return <PrefsContext.Provider value={value}>{children}</PrefsContext.Provider>;
}

export const usePrefs = () => useContext(PrefsContext);
