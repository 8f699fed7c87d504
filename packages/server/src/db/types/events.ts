import type { Generated } from 'kysely';

/** The backbone's events and jobs: core owns them (`core/events.ts`, `core/jobs*.ts`). */
export interface EventsSchema {
  event: EventTable;
  event_delivery: EventDeliveryTable;
  job_queue: JobQueueTable;
  job_run: JobRunTable;
}

/** A domain event (the transactional outbox); payload is the event's JSON. */
export interface EventTable {
  id: Generated<number>;
  tenant_id: number;
  type: string;
  payload: string;
  create_time: number;
}

/** One event for one subscriber: pending until handled (done) or given up (dead). */
export interface EventDeliveryTable {
  id: Generated<number>;
  event_id: number;
  tenant_id: number;
  subscriber: string;
  state: Generated<'pending' | 'done' | 'dead'>;
  attempts: Generated<number>;
  next_at: number;
  /** Until when an instance holds it (epoch ms); 0 when nobody does. */
  lease_until: Generated<number>;
  error: string | null;
  done_at: number | null;
}

/** A one-off job waiting to run (SQLite; pg-boss keeps PostgreSQL's). */
export interface JobQueueTable {
  id: Generated<number>;
  name: string;
  data: string;
  run_at: number;
  attempts: Generated<number>;
  create_time: number;
}

/** One run of a job on some instance. */
export interface JobRunTable {
  id: Generated<number>;
  job: string;
  job_id: string;
  instance: string;
  outcome: 'running' | 'ok' | 'failed' | 'given_back';
  error: string | null;
  started_at: number;
  finished_at: number | null;
}
