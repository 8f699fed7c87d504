import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { EMAIL_PATTERN, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, monitorMessages } from './messages';
import { monitorFlag } from './monitor';

/** A contact's id as the calls carry it (a UUID); a malformed one is refused before any lookup. */
export const contactUuid = plainText(BM.validationFailed).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, BM.validationFailed);

/** A monitoring contact (spec 3 §3): alert mails go to its email once it is verified (email_verify 1). */
export const contactItem = z.object({
  uuid: z.string(),
  name: z.string(),
  email: z.string(),
  email_verify: monitorFlag,
});
export type ContactItem = z.infer<typeof contactItem>;

const contactFields = {
  name: requiredString(monitorMessages.contactNameRequired).max(LIMITS.contactNameMax, fmt(monitorMessages.contactNameTooLong, { n: LIMITS.contactNameMax })),
  email: requiredString(monitorMessages.contactEmailRequired)
    .min(LIMITS.emailMin, BM.emailInvalid)
    .max(LIMITS.emailMax, BM.emailInvalid)
    .regex(EMAIL_PATTERN, BM.emailInvalid),
};

/** GET /contacts/lists: the tenant's contacts, oldest first, 10 a page. */
export const listContacts = defineEndpoint({
  path: '/contacts/lists',
  method: 'GET',
  access: 'monitor.view',
  query: pageQuery,
  response: z.array(contactItem),
  paged: true,
});

export const contactInfo = defineEndpoint({
  path: '/contacts/info',
  method: 'GET',
  access: 'monitor.view',
  query: z.object({ uuid: contactUuid }),
  response: contactItem,
});

/** POST /contacts/create: a new contact starts unverified; its email is unique in the tenant. */
export const createContact = defineEndpoint({
  path: '/contacts/create',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object(contactFields),
  response: z.object({ uuid: z.string() }),
});

/** POST /contacts/edit: a changed email is unverified again, and its open validation links end. */
export const editContact = defineEndpoint({
  path: '/contacts/edit',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object({ uuid: contactUuid, ...contactFields }),
  response: noData,
});

export const deleteContact = defineEndpoint({
  path: '/contacts/delete',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object({ uuid: contactUuid }),
  response: noData,
});

/**
 * POST /contacts/send_validate_email: mails the contact a validation link (/validate/email?s=…);
 * at most one mail per contact every LIMITS.contactEmailCooldownSeconds.
 */
export const sendContactValidation = defineEndpoint({
  path: '/contacts/send_validate_email',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object({ uuid: contactUuid }),
  response: noData,
});
