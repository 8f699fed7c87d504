import { networkMessages } from '@hublink/contract';
import { toast } from '../../api/notify';

/** Upgrading the plan is not offered (spec 2 §2): the action only says so. */
export const warnNoUpgrade = () => toast.warning(networkMessages.networkNoUpgrade);
