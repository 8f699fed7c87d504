import { auditValueText, type AuditField } from '@hublink/contract';
import dayjs from '../../components/dayjs';
import { DATE_TIME_FORMAT } from '../../components/device/analysisRange';

export {
  AUDIT_KIND_TEXT as KIND_TEXT,
  AUDIT_OP_TEXT as OP_TEXT,
  AUDIT_SOURCE_TEXT as SOURCE_TEXT,
  AUDIT_WHO_TEXT as WHO_TEXT,
  auditFieldLabel as fieldLabel,
  auditObjectText as objectText,
  auditTableName as tableName,
  auditWhoText as whoText,
} from '@hublink/contract';

/** A change's value as the page shows it: ids by the name recorded with them, codes by name, instants in the browser's time, JSON as text. */
export const valueText = (table: string, field: string, v: AuditField['before'], name?: string): string =>
  auditValueText(table, field, v, (ms) => dayjs(ms).format(DATE_TIME_FORMAT), name);
