import { Image } from 'antd';
import { useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { placeCleanHtml } from './cleanHtml';
import './RichHtml.css';

export interface RichHtmlProps {
  html: string;
  /** Clicking an image opens it full size (antd Image preview). */
  previewImages?: boolean;
  className?: string;
}

/**
 * Shows the rich HTML of a message or announcement. The content is cleaned again here and its nodes
 * are placed into the page directly (not re-parsed from a string), so nothing outside the contract's
 * allow-list can run.
 */
export function RichHtml({ html, previewImages = false, className }: RichHtmlProps) {
  const box = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useLayoutEffect(() => {
    if (box.current) placeCleanHtml(box.current, html);
  }, [html]);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (!previewImages) return;
    const target = e.target as HTMLElement;
    const src = target instanceof HTMLImageElement ? target.getAttribute('src') : null;
    if (src) setPreview(src);
  };

  return (
    <>
      <div
        ref={box}
        className={['hl-rich-html', previewImages ? 'hl-rich-html-previewable' : '', className ?? ''].join(' ').trim()}
        onClick={onClick}
      />
      {previewImages && preview && (
        <Image
          src={preview}
          alt=""
          styles={{ root: { display: 'none' } }}
          preview={{ open: true, src: preview, onOpenChange: (open) => !open && setPreview(null) }}
        />
      )}
    </>
  );
}
