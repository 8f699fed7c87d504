/**
 * The import this browser tab started and has not shown the result of yet: its result is shown when
 * the bulk add dialog opens again after it ended (closing the dialog does not stop an import).
 */
const KEY = 'hublink.memberImport.unseen';

export const unseenImport = {
  get: (): number | null => {
    const v = Number(sessionStorage.getItem(KEY));
    return Number.isSafeInteger(v) && v > 0 ? v : null;
  },
  set: (id: number) => sessionStorage.setItem(KEY, String(id)),
  clear: () => sessionStorage.removeItem(KEY),
};
