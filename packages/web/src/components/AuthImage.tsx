import { FileExclamationOutlined } from '@ant-design/icons';
import { Flex, Image, Skeleton, Tooltip, theme } from 'antd';
import { useEffect, useState } from 'react';
import { fetchBlob } from '../api/files';

export interface AuthImageProps {
  /** An API path that serves the image only with the session's token (e.g. a ticket's src). */
  src: string;
  alt: string;
  /** Shown (as a tooltip) when the image cannot be loaded. */
  failedText: string;
  /** The thumbnail's side in pixels; a click opens the full image in antd's preview. */
  size?: number;
}

/**
 * An image the API gives only to the signed-in tenant: fetched with the token through the api client,
 * shown from a blob URL (revoked when the component goes or the src changes), with antd's preview on
 * click. Inside an Image.PreviewGroup the preview pages through the group.
 */
export function AuthImage({ src, alt, failedText, size = 96 }: AuthImageProps) {
  const { token } = theme.useToken();
  const [state, setState] = useState<{ src: string; url: string | null; failed: boolean }>({ src, url: null, failed: false });

  useEffect(() => {
    let live = true;
    let url: string | null = null;
    void fetchBlob(src).then((blob) => {
      if (!live) return;
      if (!blob) return setState({ src, url: null, failed: true });
      url = URL.createObjectURL(blob);
      setState({ src, url, failed: false });
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [src]);

  const box = { width: size, height: size, borderRadius: token.borderRadius, border: `1px solid ${token.colorBorderSecondary}` };
  if (state.src !== src || (!state.url && !state.failed)) return <Skeleton.Image active style={box} />;
  if (state.failed) {
    return (
      <Tooltip title={failedText}>
        <Flex role="img" aria-label={`${alt} ${failedText}`} align="center" justify="center" style={{ ...box, color: token.colorTextQuaternary, fontSize: size / 3 }}>
          <FileExclamationOutlined />
        </Flex>
      </Tooltip>
    );
  }
  return <Image src={state.url!} alt={alt} width={size} height={size} style={{ ...box, objectFit: 'cover' }} />;
}
