import type { Rule } from 'antd/es/form';
import type { z } from 'zod';

/**
 * Turns one field of a contract schema into an antd rule, so the form shows exactly the message the
 * server would answer with. Empty values are checked too: the schema's own required message shows.
 */
export function rulesOf(schema: z.ZodObject | z.ZodType, field: string): Rule[] {
  const shape = 'shape' in schema ? (schema as z.ZodObject).shape : undefined;
  const fieldSchema = shape?.[field] as z.ZodType | undefined;
  if (!fieldSchema) throw new Error(`rulesOf: no field ${field}`);
  return [
    {
      validator: async (_rule, value: unknown) => {
        const r = fieldSchema.safeParse(value ?? undefined);
        if (!r.success) throw new Error(r.error.issues[0]?.message);
      },
    },
  ];
}

/** Rule: this field must equal another field (password confirmation). */
export const sameAs =
  (other: string, message: string): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (value && value !== getFieldValue(other)) throw new Error(message);
    },
  });
