import { getInputProps, getTextareaProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { useEffect, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

type InputType = "text" | "email" | "password" | "tel" | "number" | "date" | "time" | "search" | "url";

interface FieldProps {
  meta: FieldMetadata<string | number | undefined>;
  label: ReactNode;
  type?: InputType;
  hint?: ReactNode;
  autoComplete?: string;
  inputMode?: InputHTMLAttributes<HTMLInputElement>["inputMode"];
  placeholder?: string;
}

function FieldFrame({
  meta,
  label,
  hint,
  extra,
  children,
}: {
  meta: FieldMetadata<string | number | undefined>;
  label: ReactNode;
  hint?: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={meta.id} className="block text-sm font-semibold text-stone-800">
        {label}
      </label>
      {children}
      {extra}
      {hint ? (
        <p id={`${meta.id}-hint`} className="text-sm text-stone-600">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

export function TextField({ meta, label, type = "text", hint, autoComplete, inputMode, placeholder }: FieldProps) {
  const { key, ...inputProps } = getInputProps(meta, { type });
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <input
        {...inputProps}
        key={key}
        aria-describedby={describedBy(inputProps["aria-describedby"], !!hint && `${meta.id}-hint`)}
        autoComplete={autoComplete}
        inputMode={inputMode}
        placeholder={placeholder}
        className="input"
      />
    </FieldFrame>
  );
}

export function TextAreaField({
  meta,
  label,
  hint,
  placeholder,
  rows = 4,
  maxLength,
}: Omit<FieldProps, "type" | "autoComplete" | "inputMode"> & { rows?: number; maxLength?: number }) {
  const { key, ...props } = getTextareaProps(meta);
  const countId = `${meta.id}-count`;
  return (
    <FieldFrame
      meta={meta}
      label={label}
      hint={hint}
      extra={
        maxLength ? <CharacterCount id={countId} length={(meta.value ?? "").toString().length} max={maxLength} /> : null
      }
    >
      <textarea
        {...props}
        key={key}
        aria-describedby={describedBy(props["aria-describedby"], !!hint && `${meta.id}-hint`, !!maxLength && countId)}
        rows={rows}
        maxLength={maxLength}
        placeholder={placeholder}
        className="input"
      />
    </FieldFrame>
  );
}

export function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="space-y-0.5 text-sm font-medium text-red-700">
      {errors.map((error) => (
        <li key={error}>{t(error)}</li>
      ))}
    </ul>
  );
}

// Takes the whole form: reading allErrors subscribes it to every field's errors, so a submit that changes
// nothing but errors (an untouched, empty form) still shows them beside each field.
export function FormError<Schema extends Record<string, unknown>>({ form }: { form: FormMetadata<Schema, string[]> }) {
  const { t } = useTranslation();
  void form.allErrors;
  const errors = form.errors;
  return (
    <div
      id={form.errorId}
      role="alert"
      className={
        errors?.length ? "rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800 ring-1 ring-red-200" : "sr-only"
      }
    >
      {errors?.map((error) => (
        <p key={error}>{t(error)}</p>
      ))}
    </div>
  );
}

// The reply leaves passwords out; with JavaScript the page is not reloaded, so this empties the boxes too.
export function useEmptyPasswordsOnReply(reply: unknown, ...fields: FieldMetadata<string | undefined>[]) {
  const ids = fields.map((field) => field.id).join(" ");
  useEffect(() => {
    if (!reply) return;
    for (const id of ids.split(" ")) {
      const input = document.getElementById(id);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }, [reply, ids]);
}

export function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  const { t } = useTranslation();
  return (
    <p
      id={id}
      aria-live="polite"
      className={`text-right text-sm ${length > max ? "font-semibold text-red-700" : "text-stone-600"}`}
    >
      {t("characterCount", { length, max })}
    </p>
  );
}
