import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { session } from '../../api/session';
import { reloadUser, useUser } from '../../session/user';

/** Spec 1 §2.2: on a route change, load the user message when signed in but not loaded yet. */
export function useEnsureUser() {
  const { pathname } = useLocation();
  const user = useUser();
  useEffect(() => {
    if (!user && session.token()) void reloadUser();
  }, [pathname, user]);
  return user;
}
