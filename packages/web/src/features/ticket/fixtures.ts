import { supportImageSrc, type SupportTicketDetail, type SupportTicketItem } from '@hublink/contract';
import { vi } from 'vitest';

/** A ticket as the list answers it. */
export const ticketItem = (over: Partial<SupportTicketItem> = {}): SupportTicketItem => ({
  ticket_number: 'T20260105123456',
  ticket_title: 'VPN down',
  ticket_status: 1,
  ticketType: 2,
  create_time: '2026-01-05 09:30:00',
  deletable: true,
  ...over,
});

export const attachment = (n: number) => {
  const file_id = String(n).repeat(32).slice(0, 32);
  return { file_id, src: supportImageSrc(file_id) };
};

/** A ticket as /ticket/info answers it: an image, no dialogue, no appraisal. */
export const ticketDetail = (over: Partial<SupportTicketDetail> = {}): SupportTicketDetail => ({
  ...ticketItem(),
  content: 'The branch router cannot reach HQ since yesterday.\nRestarting did not help.',
  images: [attachment(1)],
  raised_by: 'lin',
  dialogue: [],
  appraise: null,
  ...over,
});

/** An image answer of /ticket/file. */
export const imageResponse = () => new Response(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), { status: 200, headers: { 'Content-Type': 'image/png' } });

/** jsdom has no blob URLs: each blob gets 'blob:test/<n>'. Call in the test (vi.unstubAllGlobals does not undo it; the next call replaces it). */
export function stubBlobUrls() {
  let n = 0;
  const create = vi.fn(() => `blob:test/${++n}`);
  const revoke = vi.fn();
  Object.defineProperty(URL, 'createObjectURL', { value: create, configurable: true, writable: true });
  Object.defineProperty(URL, 'revokeObjectURL', { value: revoke, configurable: true, writable: true });
  return { create, revoke };
}
