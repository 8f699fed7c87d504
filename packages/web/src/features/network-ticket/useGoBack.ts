import { useNavigate } from 'react-router';
import { consoleEntryBehind } from '../../session/consoleHistory';
import { TICKET_LIST_PATH } from './labels';

/** Back to the console page before this one, or to the order list when the page was opened directly. */
export function useGoBack() {
  const navigate = useNavigate();
  return () => (consoleEntryBehind() ? void navigate(-1) : void navigate(TICKET_LIST_PATH, { replace: true }));
}
