import { LIMITS, type AnalysisView } from '@hublink/contract';
import dayjs, { type Dayjs } from '../dayjs';

/** The format of the analysis calls' start_date and end_date. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export const isTopView = (view: AnalysisView) => view.endsWith('_top');

/** The default range of a view (spec 3 §5): the last hour for the logs, the last 6 hours for the top views. */
export function defaultRange(view: AnalysisView, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const hours = isTopView(view) ? LIMITS.saasTopDefaultHours : LIMITS.saasLogDefaultHours;
  return [now.subtract(hours, 'hour'), now];
}

/** Days the pickers offer: from LIMITS.saasAnalysisDays ago to today. */
export const outOfRange = (day: Dayjs, now: Dayjs = dayjs()) =>
  day.isBefore(now.subtract(LIMITS.saasAnalysisDays, 'day').startOf('day')) || day.isAfter(now.endOf('day'));
