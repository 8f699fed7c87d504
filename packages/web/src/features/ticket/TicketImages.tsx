import { type SupportAttachment, ticketMessages } from '@hublink/contract';
import { Flex, Image } from 'antd';
import { AuthImage } from '../../components/AuthImage';

/** The images of a ticket or of a dialogue entry as thumbnails; a click previews them, paging through the group. */
export function TicketImages({ images, size }: { images: readonly SupportAttachment[]; size?: number }) {
  if (images.length === 0) return null;
  return (
    <Image.PreviewGroup>
      <Flex gap={8} wrap>
        {images.map((image, i) => (
          <AuthImage key={image.file_id} src={image.src} alt={`${ticketMessages.supportImageAlt} ${i + 1}`} failedText={ticketMessages.supportImageFailed} size={size} />
        ))}
      </Flex>
    </Image.PreviewGroup>
  );
}
