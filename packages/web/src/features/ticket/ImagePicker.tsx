import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { CODE, fmt, LIMITS, SUPPORT_IMAGE_ACCEPT, type SupportAttachment, supportImageFormatOf, ticketMessages, uploadSupportImage } from '@hublink/contract';
import { Button, Flex, Spin, Typography, Upload, theme } from 'antd';
import { useRef, useState } from 'react';
import { upload } from '../../api/files';
import { toast } from '../../api/notify';
import { AuthImage } from '../../components/AuthImage';

const SIZE = 80;

/**
 * Why the files picked at once cannot be uploaded (spec 3 §5), before any call: a format other than
 * png, gif, jpeg by name ('选择的图片中包含不支持的格式'), one over 2 MB ('图片大小不能超过 2MB!'), more than
 * the room left of 3. null when all may go.
 */
export function imagesRefusal(files: readonly { name: string; size: number }[], room: number): string | null {
  if (files.some((f) => !supportImageFormatOf(f.name))) return ticketMessages.supportImageFormat;
  if (files.some((f) => f.size > LIMITS.uploadMaxBytes)) return ticketMessages.supportImageTooLarge;
  if (files.length > room) return fmt(ticketMessages.supportImagesTooMany, { n: LIMITS.supportImagesMax });
  return null;
}

export interface ImagePickerProps {
  value?: SupportAttachment[];
  onChange?: (images: SupportAttachment[]) => void;
}

/**
 * The attachments of a ticket or a reply: up to 3 images, each uploaded as soon as it is picked and
 * shown from the server; a refused upload shows the server's message. The add button goes at 3.
 */
export function ImagePicker({ value = [], onChange }: ImagePickerProps) {
  const { token } = theme.useToken();
  const [uploading, setUploading] = useState(0);
  const latest = useRef(value);
  latest.current = value;
  const queue = useRef<Promise<void>>(Promise.resolve());
  const room = LIMITS.supportImagesMax - value.length - uploading;

  const change = (next: SupportAttachment[]) => {
    latest.current = next;
    onChange?.(next);
  };

  const box = { width: SIZE, height: SIZE, borderRadius: token.borderRadius };
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} wrap>
        {value.map((image, i) => (
          <div key={image.file_id} style={{ position: 'relative' }}>
            <AuthImage src={image.src} alt={`${ticketMessages.supportImageAlt} ${i + 1}`} failedText={ticketMessages.supportImageFailed} size={SIZE} />
            <Button
              size="small"
              shape="circle"
              icon={<CloseOutlined />}
              aria-label={`${ticketMessages.supportImageRemove} ${i + 1}`}
              onClick={() => change(latest.current.filter((x) => x.file_id !== image.file_id))}
              style={{ position: 'absolute', top: -8, right: -8 }}
            />
          </div>
        ))}
        {Array.from({ length: uploading }, (_, i) => (
          <Flex key={`uploading-${i}`} align="center" justify="center" style={{ ...box, border: `1px dashed ${token.colorBorder}` }}>
            <Spin size="small" />
          </Flex>
        ))}
        {room > 0 && (
          <Upload
            accept={{ format: SUPPORT_IMAGE_ACCEPT, filter: 'native' }}
            multiple
            showUploadList={false}
            beforeUpload={(file, picked) => {
              const refusal = imagesRefusal(picked, room);
              if (refusal) {
                if (file === picked[0]) toast.error(refusal);
                return Upload.LIST_IGNORE;
              }
              setUploading((n) => n + 1);
              // One after another, so the images keep the order they were picked in.
              queue.current = queue.current.then(() =>
                upload(uploadSupportImage, file)
                  .then((env) => {
                    if (env.code === CODE.ok && env.data) change([...latest.current, env.data]);
                  })
                  .finally(() => setUploading((n) => n - 1)),
              );
              return false;
            }}
          >
            <Button
              aria-label={ticketMessages.supportImageAdd}
              style={{ ...box, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 4, borderStyle: 'dashed', padding: 0 }}
            >
              <PlusOutlined />
              <span style={{ fontSize: token.fontSizeSM }}>{ticketMessages.supportImageAdd}</span>
            </Button>
          </Upload>
        )}
      </Flex>
      <Typography.Text type="secondary">{fmt(ticketMessages.supportImagesHint, { n: LIMITS.supportImagesMax })}</Typography.Text>
    </Flex>
  );
}
