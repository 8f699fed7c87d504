import { logout, siteInfo } from '@hublink/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../api/client';
import { endSession } from '../session/user';
import { LOGIN_PATH } from '../session/paths';

/**
 * Ends the session and goes to /login: tells the server (unless the session is already gone, as
 * after a sub-account's password change), forgets the token and user (in every tab of the browser:
 * app/tabSync.ts), and drops every cached answer but the host's brand.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useCallback(
    async ({ tellServer = true }: { tellServer?: boolean } = {}) => {
      if (tellServer) await call(logout, {}, { quiet: true });
      endSession();
      await navigate(LOGIN_PATH, { replace: true });
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== siteInfo.path });
    },
    [client, navigate],
  );
}
