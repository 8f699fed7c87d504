import type { Endpoint } from '@hublink/contract';
import type { CallOptions } from '../../api/client';
import { useApiMutation } from '../../api/hooks';

/** Every read of the area: a change to the configuration, the contacts or the webhook refreshes them all. */
const AREA = ['/monitor/', '/contacts/', '/webhook/', '/webhooks/'];

/** A POST of the area; its success toast shows and the area's queries reload. */
export const useMonitorMutation = <E extends Endpoint>(endpoint: E, opts: CallOptions = {}) =>
  useApiMutation(endpoint, { invalidates: AREA, ...opts });
