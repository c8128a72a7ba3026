import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import { FieldErrors } from "./field";

export function ChoiceChips({
  meta,
  legend,
  options,
  type,
  labelOf,
}: {
  meta: FieldMetadata<string[] | string | undefined>;
  legend: string;
  options: readonly string[];
  type: "checkbox" | "radio";
  labelOf: (option: string) => string;
}) {
  const inputs = getCollectionProps(meta, { type, options: [...options] });
  return (
    <fieldset aria-describedby={meta.errors?.length ? meta.errorId : undefined} className="space-y-2">
      <legend className="text-sm font-semibold text-stone-800">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {inputs.map(({ key, ...input }) => (
          <label
            key={key}
            className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full border border-stone-300 bg-white px-3.5 text-sm has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:font-semibold has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
          >
            <input {...input} aria-describedby={undefined} className="size-4 accent-brand-700" />
            {labelOf(input.value)}
          </label>
        ))}
      </div>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
