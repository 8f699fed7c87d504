import { BIND_TYPE, CODE, M, type SendType } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { ApiError, invalid } from '../core/errors';
import { hasProof, leaveProof, takeProof } from './proofs';

/*
 * The binding dialogs (docs/decisions.md, "Binding dialogs"): the account's phone and email
 * (spec 1 §2.8) and a software member's phone (spec 3 §4) are verified, bound, changed and unbound
 * by the one flow of bindStep. The module says what is bound, who else may hold a value and how a
 * value is written; the order of the checks, the codes and the proofs are decided here.
 */

/** The messages of one binding dialog. */
export interface BindingText {
  /** A type 2 step proved the current value. */
  verified: string;
  notBound: string;
  same: string;
  /** 401: a bound value is proven before another replaces it. */
  boundVerify: string;
  /** 403: a bound value is proven before it is removed. */
  unbindVerify: string;
}

export interface Binding {
  channel: SendType;
  /** The value bound now, as stored ('+86 13800000000', 'a@example.com'), or null. */
  current: string | null;
  /** Where the proof of the current value is kept (core/proofs.ts). */
  proof: string;
  /** The purposes of the codes: the one sent to the current value, the one sent to a new value. */
  purposes: { verify: string; bind: string };
  text: BindingText;
  /** Refuses a new value another holder has; runs before any code or proof is used. */
  ensureFree(value: string): Promise<void>;
  /** Refusals of an unbind beyond "nothing is bound" (an account keeps its last contact). */
  ensureMayUnbind?(): void;
  /** Writes the new value, or null to unbind. */
  write(value: string | null): Promise<void>;
}

/** The dialog's input: `value` as it would be stored ('' when none was typed). */
export interface BindingInput {
  type: number;
  value: string;
  code: string;
}

/**
 * One step of a binding dialog; answers the message for the console.
 * - type 2: a code sent to the current value proves it for 10 minutes (the proof is left);
 * - type 1 with a value: binds it with its code; while a value is bound, 401 until that value is
 *   proven, and the proof is used up;
 * - type 1 with neither value nor code: unbinds; 403 until the current value is proven.
 * Refusals that need no code come first, so a mistyped value does not use up the code or the proof.
 */
export async function bindStep(ctx: Ctx, b: Binding, input: BindingInput): Promise<string> {
  const { current, text } = b;

  if (input.type === BIND_TYPE.verify) {
    if (!current) throw invalid(text.notBound);
    await ctx.codes.consume(b.channel, current, b.purposes.verify, input.code);
    await leaveProof(ctx.store, b.proof);
    return text.verified;
  }

  if (!input.value && !input.code) {
    if (!current) throw invalid(text.notBound);
    b.ensureMayUnbind?.();
    if (!(await takeProof(ctx.store, b.proof))) throw new ApiError(CODE.flow403, text.unbindVerify);
    await b.write(null);
    return M.unbound;
  }

  if (current && !(await hasProof(ctx.store, b.proof))) throw new ApiError(CODE.flow401, text.boundVerify);
  if (current === input.value) throw invalid(text.same);
  await b.ensureFree(input.value);
  await ctx.codes.consume(b.channel, input.value, b.purposes.bind, input.code);
  // Again: a request that came first may have used the proof while the code was checked.
  if (current && !(await takeProof(ctx.store, b.proof))) throw new ApiError(CODE.flow401, text.boundVerify);
  await b.write(input.value);
  return M.bound;
}
