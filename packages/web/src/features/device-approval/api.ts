import type { Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** A POST of the area: its success toast shows and the setting and the device list reload. */
export const useDeviceApprovalMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: ['/device_approval/'] });
