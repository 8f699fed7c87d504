import { InboxOutlined } from '@ant-design/icons';
import { LIMITS, routerMessages } from '@hublink/contract';
import { Upload } from 'antd';
import { toast } from '../../api/notify';

const XLSX = '.xlsx';

/** Why a spreadsheet cannot be uploaded (spec 3 §5: only .xlsx, at most 2 MB), or null. */
export function xlsxRefusal(file: { name: string; size: number }): string | null {
  if (!file.name.toLowerCase().endsWith(XLSX)) return routerMessages.fileFormatWrong;
  if (file.size > LIMITS.uploadMaxBytes) return routerMessages.fileTooLarge;
  return null;
}

export interface XlsxDraggerProps {
  file: File | null;
  onFile: (file: File | null) => void;
  uploading?: boolean;
}

/**
 * The spreadsheet box of the bulk dialogs: click or drop one .xlsx of at most 2 MB. A refused file
 * says why and is not kept; a new file replaces the one kept. Nothing is sent until the dialog submits.
 */
export function XlsxDragger({ file, onFile, uploading }: XlsxDraggerProps) {
  return (
    <Upload.Dragger
      // 'native' keeps the picker's filter but lets every dropped file reach the checks below, so a
      // wrong one is told why instead of silently ignored.
      accept={{ format: XLSX, filter: 'native' }}
      multiple={false}
      maxCount={1}
      disabled={uploading}
      fileList={file ? [{ uid: 'xlsx', name: file.name, size: file.size, status: uploading ? 'uploading' : 'done' }] : []}
      beforeUpload={(f) => {
        const refusal = xlsxRefusal(f);
        if (refusal) {
          toast.error(refusal);
          return Upload.LIST_IGNORE;
        }
        onFile(f);
        return false;
      }}
      onRemove={() => onFile(null)}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{routerMessages.memberUploadText}</p>
      <p className="ant-upload-hint">{routerMessages.memberUploadHint}</p>
    </Upload.Dragger>
  );
}
