import { authSourceMessages } from '@hublink/contract';
import { toast } from '../../api/notify';

/** Puts text on the clipboard and says whether it worked; a browser that refuses asks for a manual copy. */
export async function copyText(text: string): Promise<void> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    toast.success(authSourceMessages.authSourceCopied);
  } catch {
    toast.error(authSourceMessages.authSourceCopyFailed);
  }
}
