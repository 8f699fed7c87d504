import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

/**
 * dayjs in Chinese, for the date pickers and their values. Whoever uses dates imports dayjs from
 * here, so the locale is set before any picker shows, and pages without dates (sign-in) do not load it.
 */
dayjs.locale('zh-cn');

export default dayjs;
export type { Dayjs } from 'dayjs';
