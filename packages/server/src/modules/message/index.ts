import { defineModule } from '../../core/module';
import { writeAlertMessage } from './alerts';
import { messageRoutes } from './routes';
import { writeTicketReplyMessage } from './ticketReplies';

export const messageModule = defineModule({
  name: 'message',
  routes: messageRoutes,
  on: { 'alert.raised': writeAlertMessage, 'ticket.replied': writeTicketReplyMessage },
});

export { send as sendMessage } from './service';
