import { auditExport, BM, CODE, type QueryOf, XLSX_TYPE } from '@hublink/contract';
import { call, NETWORK_FAILURE } from '../../api/client';
import { saver } from '../../api/files';
import { toast } from '../../api/notify';

/**
 * Asks GET /audit/export for the entries the filters match and saves the workbook as the server
 * names it; a refusal about the rows shows as a warning. Resolves true when a file was saved.
 */
export async function exportAudit(query: QueryOf<typeof auditExport>): Promise<boolean> {
  const env = await call(auditExport, { query }, { quiet: true });
  if (env.code === CODE.ok) {
    try {
      const bytes = Uint8Array.from(atob(env.data!.data), (c) => c.charCodeAt(0));
      saver.save(new Blob([bytes], { type: XLSX_TYPE }), env.data!.file_name);
    } catch {
      toast.error(BM.internalError);
      return false;
    }
    return true;
  }
  if (env.code === NETWORK_FAILURE || env.code === CODE.notFound || env.code === CODE.furtherAction || env.code >= 2000) return false;
  if (env.code === CODE.invalid) toast.warning(env.msg || BM.dataError);
  else toast.error(env.msg || BM.dataError);
  return false;
}
