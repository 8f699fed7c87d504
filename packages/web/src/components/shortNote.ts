import { LIMITS } from '@hublink/contract';

/** A note as lists show it: cut to LIMITS.memberNoteShown characters plus '…' (spec 2 §5). */
export const shortNote = (note: string) => {
  const chars = [...note];
  return chars.length > LIMITS.memberNoteShown ? `${chars.slice(0, LIMITS.memberNoteShown).join('')}…` : note;
};
