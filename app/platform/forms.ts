import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useState } from "react";
import type { z } from "./validation";

// The browser's half of a form: ids, constraint attributes, the server's errors tied to their fields and
// the values typed so far. The same names and markup as conform's own React helpers, without its client
// validation (conform, its zod adapter and zod: ~20 KB gzip on every form page). Validation happens once,
// on the server (`parseWithZod` in the action, every error at once); the constraint attributes come from
// the schema there too (`constraintOf` in forms.server.ts) and travel with the loader's data.

export type { SubmissionResult };

/** One field's HTML constraints, as `getZodConstraint` describes them. */
export interface Constraint {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  multiple?: boolean;
  pattern?: string;
  accept?: string;
}

type FieldNames<Values> = Values extends unknown ? keyof Values & string : never;

/** Every field's constraints of one schema (`constraintOf(schema)` on the server). */
export type ConstraintOf<Schema extends z.core.$ZodType> = Record<FieldNames<z.input<Schema>>, Constraint>;

type FormValue = string | string[] | null | undefined;

// The type parameter only documents the field's value, as conform's did.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface FieldMetadata<Value = unknown> extends Constraint {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  key: string | undefined;
  errors: string[] | undefined;
  initialValue: FormValue;
  value: FormValue;
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface FormMetadata<Schema = unknown, FormError = string[]> {
  id: string;
  errorId: string;
  status: "success" | "error" | undefined;
  errors: string[] | undefined;
  allErrors: Record<string, string[]>;
  noValidate: boolean;
}

type Reply = SubmissionResult<string[]> | null | undefined;

function serialize(value: unknown): FormValue {
  if (Array.isArray(value)) return value.map((item) => serialize(item) as string);
  if (typeof value === "string" || value === null) return value;
  if (typeof value === "boolean") return value ? "on" : null;
  if (typeof value === "number" || typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString().slice(0, -1);
  return undefined;
}

const serializeAll = (values: Record<string, unknown> | null | undefined) =>
  Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, serialize(value)]));

function errorsOf(reply: Reply): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(reply?.error ?? {})) if (list?.length) errors[name] = list;
  return errors;
}

function valuesOf(form: HTMLFormElement): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  const data = new FormData(form);
  for (const name of new Set(data.keys())) {
    const all = data.getAll(name).filter((item): item is string => typeof item === "string");
    values[name] = all.length > 1 ? all : all[0];
  }
  return values;
}

interface FormState {
  initial: Record<string, FormValue>;
  values: Record<string, FormValue>;
  errors: Record<string, string[]>;
  status: "success" | "error" | undefined;
  reply: Reply;
  /** A reply that came while the page stayed (with JavaScript): its first field in error takes the focus. */
  focus: boolean;
}

export function useForm<Name extends string>(options: {
  id: string;
  lastResult?: Reply;
  defaultValue?: Record<string, unknown>;
  constraint: Record<Name, Constraint>;
}): [FormMetadata, Record<Name, FieldMetadata>] {
  const { id, lastResult, defaultValue, constraint } = options;
  const [state, setState] = useState<FormState>(() => {
    const initial = serializeAll(lastResult?.initialValue ?? defaultValue);
    return { initial, values: initial, errors: errorsOf(lastResult), status: lastResult?.status, reply: lastResult, focus: false };
  });

  // A new reply replaces the last one's errors; the values typed stay as they are.
  let current = state;
  if (lastResult && lastResult !== state.reply) {
    current = { ...state, reply: lastResult, errors: errorsOf(lastResult), status: lastResult.status, focus: true };
    setState(current);
  }

  useEffect(() => {
    if (!state.focus || state.status !== "error") return;
    for (const element of document.forms.namedItem(id)?.elements ?? []) {
      const name = (element as HTMLInputElement).name;
      if (name && state.errors[name]) {
        (element as HTMLElement).focus();
        break;
      }
    }
    // Only a new reply moves the focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.reply]);

  useEffect(() => {
    const track = (event: Event) => {
      const form = (event.target as HTMLInputElement | null)?.form;
      if (form?.id === id) setState((previous) => ({ ...previous, values: valuesOf(form) }));
    };
    document.addEventListener("input", track);
    document.addEventListener("change", track);
    return () => {
      document.removeEventListener("input", track);
      document.removeEventListener("change", track);
    };
  }, [id]);

  const form: FormMetadata = {
    id,
    errorId: `${id}-error`,
    status: current.status,
    errors: current.errors[""],
    allErrors: current.errors,
    noValidate: true,
  };
  // Any name answers, as with conform: a form may show a field its schema of the moment lacks.
  const fields = new Proxy({} as Record<Name, FieldMetadata>, {
    get(made, name) {
      if (typeof name !== "string") return undefined;
      const fieldId = `${id}-${name}`;
      return (made[name as Name] ??= {
        ...(constraint as Record<string, Constraint>)[name],
        id: fieldId,
        name,
        formId: id,
        errorId: `${fieldId}-error`,
        descriptionId: `${fieldId}-description`,
        key: undefined,
        errors: current.errors[name],
        initialValue: current.initial[name],
        value: current.values[name],
      });
    },
  });
  return [form, fields];
}

function withoutUndefined<T extends object>(props: T): T {
  for (const key of Object.keys(props) as (keyof T)[]) if (props[key] === undefined) delete props[key];
  return props;
}

function ariaOf(meta: { errorId: string; errors: string[] | undefined }, field: boolean) {
  const invalid = meta.errors !== undefined;
  return { "aria-invalid": (field && invalid) || undefined, "aria-describedby": invalid ? meta.errorId : undefined };
}

export function getFormProps(form: FormMetadata) {
  return withoutUndefined({ id: form.id, noValidate: form.noValidate, ...ariaOf(form, false) });
}

function controlProps(meta: FieldMetadata) {
  return { key: undefined as string | undefined, required: meta.required || undefined, id: meta.id, name: meta.name, form: meta.formId, ...ariaOf(meta, true) };
}

export function getInputProps(meta: FieldMetadata, options: { type: string; value?: string | false }) {
  const props: ReturnType<typeof controlProps> & Constraint & { type: string; value?: string; defaultValue?: string; defaultChecked?: boolean } = {
    ...controlProps(meta),
    type: options.type,
    minLength: meta.minLength,
    maxLength: meta.maxLength,
    min: meta.min,
    max: meta.max,
    step: meta.step,
    pattern: meta.pattern,
    multiple: meta.multiple,
    accept: meta.accept,
  };
  if (options.value === undefined || options.value) {
    if (options.type === "checkbox" || options.type === "radio") {
      props.value = typeof options.value === "string" ? options.value : "on";
      props.defaultChecked = Array.isArray(meta.initialValue) ? meta.initialValue.includes(props.value) : meta.initialValue === props.value;
    } else if (typeof meta.initialValue === "string") {
      props.defaultValue = meta.initialValue;
    }
  }
  return withoutUndefined(props);
}

export function getSelectProps(meta: FieldMetadata) {
  const initial = meta.initialValue;
  return withoutUndefined({
    ...controlProps(meta),
    multiple: meta.multiple,
    defaultValue: Array.isArray(initial) ? initial.map((item) => `${item ?? ""}`) : (initial ?? undefined)?.toString(),
  });
}

export function getTextareaProps(meta: FieldMetadata) {
  return withoutUndefined({
    ...controlProps(meta),
    minLength: meta.minLength,
    maxLength: meta.maxLength,
    defaultValue: (meta.initialValue ?? undefined)?.toString(),
  });
}

export function getCollectionProps(meta: FieldMetadata, options: { type: "checkbox" | "radio"; options: string[] }) {
  return options.options.map((value) =>
    withoutUndefined({
      ...controlProps(meta),
      key: `${meta.key ?? ""}${value}`,
      id: `${meta.id}-${value}`,
      type: options.type,
      value,
      defaultChecked:
        options.type === "checkbox" && Array.isArray(meta.initialValue) ? meta.initialValue.includes(value) : meta.initialValue === value,
      // A group of checkboxes is not "all required".
      required: options.type === "checkbox" ? undefined : meta.required || undefined,
    }),
  );
}
