import { defineModule } from '../../core/module';
import { createFromTicket } from './fromTicket';
import { popRoutes } from './routes';

/** POP resources (network_fr, network_fr_area): made from completed access-POP orders, listed for the console. */
export const popModule = defineModule({
  name: 'pop',
  routes: popRoutes,
  on: { 'network_ticket.completed': createFromTicket },
});

export { addArea, createResource, listAllResources, removeArea, renewResource, type NewArea, type OperatorArea, type OperatorResource } from './operator';
export { addRelay, listRelays, removeRelay, type OperatorRelay } from './relays';
