import { getFormProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import { StripeCardEntry } from "./stripe-card-entry";

type CardFieldsMeta = {
  name: FieldMetadata<string>;
  number: FieldMetadata<string>;
  expiry: FieldMetadata<string>;
  cvc: FieldMetadata<string>;
};

/** `labels`: the translation prefix of the field labels, such as "bookings:payment". */
export function CardEntryForm<Schema extends Record<string, unknown>>({
  stripe,
  form,
  fields,
  attempt,
  labels,
  submitLabel,
  note,
  errors,
  children,
}: {
  stripe: Omit<ComponentProps<typeof StripeCardEntry>, "attempt"> | null;
  form: FormMetadata<Schema, string[]>;
  fields: CardFieldsMeta;
  attempt: string;
  labels: string;
  submitLabel: string;
  note: string;
  errors: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (stripe) return <StripeCardEntry {...stripe} attempt={attempt} />;
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
      {errors}
      <input type="hidden" name="attempt" value={attempt} />
      <TextField meta={fields.name} label={t(`${labels}.name`)} autoComplete="cc-name" />
      {children}
      <TextField
        meta={fields.number}
        label={t(`${labels}.number`)}
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="4242 4242 4242 4242"
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          meta={fields.expiry}
          label={t(`${labels}.expiry`)}
          autoComplete="cc-exp"
          inputMode="numeric"
          placeholder={t(`${labels}.expiryPlaceholder`)}
        />
        <TextField meta={fields.cvc} label={t(`${labels}.cvc`)} autoComplete="cc-csc" inputMode="numeric" />
      </div>
      <SubmitButton className="w-full">{submitLabel}</SubmitButton>
      <p className="text-center text-sm text-stone-700">{note}</p>
    </Form>
  );
}
