import { defineModule } from '../../core/module';
import { deviceApprovalRoutes } from './routes';

/** Devices join by approval (issue 30): the setting and the decisions; gateway/approval.ts applies them to hellos. */
export const deviceApprovalModule = defineModule({ name: 'device-approval', routes: deviceApprovalRoutes });
