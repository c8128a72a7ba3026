import type { Submission, useForm } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import type { z } from "./validation";

// Forms are conform's (`useForm`, `getFormProps`, `getInputProps`… from "@conform-to/react"). Without
// JavaScript the action validates (`parseWithZod`, `submission.reply()`) and the constraint attributes come
// from the loader (`constraintOf` in forms.server.ts). With JavaScript the same schema also validates in the
// browser; it and conform's zod adapter load on the first focus inside the form, so that they stay out of
// every form page's first load.

/** One field's HTML constraints, as `getZodConstraint` describes them. */
export type Constraint = NonNullable<Parameters<typeof useForm>[0]["constraint"]>[string];

type FieldNames<Values> = Values extends unknown ? keyof Values & string : never;

/** Every field's constraints of one schema (`constraintOf(schema)` on the server). */
export type ConstraintOf<Schema extends z.core.$ZodType> = Record<FieldNames<z.input<Schema>>, Constraint>;

type Validate<Schema extends z.core.$ZodType> = (
  formData: FormData,
) => Submission<z.input<Schema>, string[], z.output<Schema>>;

/**
 * Client validation for `useForm`, spread into its options: `useForm({ id, lastResult, constraint,
 * ...useSchemaValidation(id, loadSchema) })`. Until the schema has loaded a submit goes to the server,
 * which validates as it does without JavaScript; after, fields are checked on blur and again on input.
 */
export function useSchemaValidation<Schema extends z.core.$ZodType>(formId: string, loadSchema: () => Promise<Schema>) {
  const [validate, setValidate] = useState<Validate<Schema> | null>(null);
  const load = useRef(loadSchema);
  load.current = loadSchema;

  useEffect(() => {
    if (validate) return;
    let active = true;
    const start = (event: FocusEvent) => {
      const target = event.target as HTMLInputElement | null;
      const form = target?.form ?? (target instanceof HTMLFormElement ? target : null);
      if (form?.id !== formId) return;
      document.removeEventListener("focusin", start);
      Promise.all([import("@conform-to/zod/v4"), load.current()])
        .then(([{ parseWithZod }, schema]) => {
          if (active) setValidate(() => (formData: FormData) => parseWithZod(formData, { schema }));
        })
        // Offline or a new deployment: the server still validates every submission.
        .catch(() => undefined);
    };
    document.addEventListener("focusin", start);
    return () => {
      active = false;
      document.removeEventListener("focusin", start);
    };
  }, [formId, validate]);

  // Leaving a field for the form's submit button checks nothing on its own: the submit checks every field
  // right after, and errors shown on blur would move the button away from under a click in progress.
  useEffect(() => {
    if (!validate) return;
    const towardSubmit = (event: FocusEvent) => {
      const next = event.relatedTarget;
      const field = event.target as HTMLInputElement | null;
      if (
        next instanceof HTMLButtonElement &&
        next.type === "submit" &&
        next.form?.id === formId &&
        field?.form?.id === formId
      ) {
        event.stopPropagation();
      }
    };
    window.addEventListener("focusout", towardSubmit, true);
    return () => window.removeEventListener("focusout", towardSubmit, true);
  }, [formId, validate]);

  return validate
    ? {
        onValidate: ({ formData }: { formData: FormData }) => validate(formData),
        shouldValidate: "onBlur" as const,
        shouldRevalidate: "onInput" as const,
      }
    : { onValidate: undefined, shouldValidate: "onSubmit" as const, shouldRevalidate: "onSubmit" as const };
}
