import { defineModule } from '../../core/module';
import { sweepImages } from './images';
import { ticketRoutes } from './routes';

/**
 * Support tickets (spec 3 §2): owns support_ticket, support_dialogue and support_file (and the image
 * objects in storage). An adviser's answer says `ticket.replied`, which the message module turns into
 * a notice. The hourly sweep removes unused uploads after a day and the images of deleted tickets.
 */
export const ticketModule = defineModule({
  name: 'ticket',
  routes: ticketRoutes,
  jobs: [{ name: 'ticket.images-sweep', schedule: '23 * * * *', run: async ({ ctx }) => sweepImages(ctx) }],
});

export { closeTicket, listOpenTickets, replyAsOperator, type OpenTicket, type OperatorReply } from './operator';
