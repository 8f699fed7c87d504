import { defineModule } from '../../core/module';
import { DELIVER_JOB, purgeAlerts } from './alerts';
import { markVerified } from './contacts';
import { runDelivery, sweepDeliveries } from './deliveries';
import { LANE_JOB, purgeWebhookMessages, runLane } from './dispatch';
import { checkOffline, OFFLINE_CHECK_JOB, onOffline, onOnline, onPopConnected } from './engine';
import { raiseServiceExpiries } from './expiry';
import { monitorRoutes } from './routes';

/**
 * Monitoring alerts with their contacts and webhook (spec 3 §2–§7; docs/decisions.md "Monitoring
 * alerts"): the three areas share one module, since the engine reads all of them.
 */
export const monitorModule = defineModule({
  name: 'monitor',
  routes: monitorRoutes,
  on: {
    'member.offline': onOffline,
    'member.online': onOnline,
    'pop.connected': onPopConnected,
    'email.validated': markVerified,
  },
  jobs: [
    { name: OFFLINE_CHECK_JOB, run: checkOffline },
    // Retries are the delivery's own (recorded, with HUBLINK_ALERT_RETRY_SECONDS); the runner retries only a run that crashed.
    { name: DELIVER_JOB, run: runDelivery, retryLimit: 3, retryDelaySeconds: 30 },
    // A webhook's queue (dispatch.ts): its messages in order within the provider's limits, one instance at a time.
    { name: LANE_JOB, run: runLane, retryLimit: 3, retryDelaySeconds: 30 },
    { name: 'monitor.deliveries-sweep', schedule: '* * * * *', run: sweepDeliveries },
    { name: 'monitor.service-expiry', schedule: '*/5 * * * *', run: raiseServiceExpiries },
    { name: 'monitor.purge-alerts', schedule: '37 4 * * *', run: purgeAlerts },
    { name: 'monitor.purge-webhook-messages', schedule: '47 4 * * *', run: purgeWebhookMessages },
  ],
});
