import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

// Helpers of the segment dialogs' tests (only tests import this file).

export const okButton = (label: RegExp = /确\s*定|OK/) => screen.getAllByText(label).at(-1)!.closest('button')!;

/** Picks an option of an antd select by its title (the options render in a portal). */
export async function pick(label: string, option: string) {
  await userEvent.click(screen.getByLabelText(label));
  const options = await screen.findAllByTitle(option);
  await userEvent.click(options.at(-1)!);
}

export async function typeInto(label: string, value: string) {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  if (value !== '') await userEvent.type(input, value);
}
