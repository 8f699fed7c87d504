import { BM, CODE, exportLogs, type LogExportFile, type QueryOf, XLSX_TYPE } from '@hublink/contract';
import { call, NETWORK_FAILURE } from '../../api/client';
import { saver } from '../../api/files';
import { toast } from '../../api/notify';

/** The workbook of an export: its base64 `data` decoded (throws on text that is not base64). */
export function workbookOf(file: LogExportFile): Blob {
  const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: XLSX_TYPE });
}

/**
 * Asks GET /logs/export for one log and saves its workbook as the server names it. A refusal about
 * the rows ('数据为空，请重新筛选数据！', a bad date) shows as a warning, other refusals as errors.
 * Resolves true when a file was saved.
 */
export async function exportLog(query: QueryOf<typeof exportLogs>): Promise<boolean> {
  const env = await call(exportLogs, { query }, { quiet: true });
  if (env.code === CODE.ok) {
    try {
      saver.save(workbookOf(env.data!), env.data!.file_name);
    } catch {
      toast.error(BM.internalError);
      return false;
    }
    return true;
  }
  // Session codes, 204 and 423 are acted on by the catalogue even when quiet, and call() has
  // already shown its timeout message for a transport failure.
  const handled = env.code === NETWORK_FAILURE || env.code === CODE.notFound || env.code === CODE.furtherAction || env.code >= 2000;
  if (handled) return false;
  if (env.code === CODE.invalid) toast.warning(env.msg || BM.dataError);
  else toast.error(env.msg || BM.dataError);
  return false;
}
