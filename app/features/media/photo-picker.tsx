import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldErrors } from "~/platform/ui/field";

export function PhotoPicker({
  name = "photos",
  label,
  remaining,
  errors,
  errorId,
}: {
  name?: string;
  label: string;
  remaining: number;
  errors?: string[];
  errorId?: string;
}) {
  const { t } = useTranslation("profile");
  const id = useId();
  const hintId = `${id}-hint`;
  const errorsId = errorId ?? `${id}-error`;
  const [previews, setPreviews] = useState<string[]>([]);
  useEffect(() => () => previews.forEach((url) => URL.revokeObjectURL(url)), [previews]);
  if (remaining <= 0) return <p className="text-sm text-stone-700">{t("photos.full")}</p>;
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-semibold text-stone-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept="image/jpeg,image/png,image/gif,image/webp"
        multiple={remaining > 1}
        aria-describedby={[hintId, errors?.length ? errorsId : ""].filter(Boolean).join(" ")}
        aria-invalid={errors?.length ? true : undefined}
        className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-xl file:border-0 file:bg-brand-100 file:px-4 file:font-semibold file:text-brand-800"
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []).slice(0, remaining);
          setPreviews(files.map((file) => URL.createObjectURL(file)));
        }}
      />
      <p id={hintId} className="text-sm text-stone-600">
        {t("photos.hint", { count: remaining })}
      </p>
      {previews.length > 0 ? (
        <ul className="grid grid-cols-3 gap-2" aria-label={t("photos.previews")}>
          {previews.map((url, index) => (
            <li key={url}>
              <img
                src={url}
                alt={t("photos.previewAlt", { number: index + 1 })}
                className="aspect-square w-full rounded-lg object-cover"
              />
            </li>
          ))}
        </ul>
      ) : null}
      <FieldErrors id={errorsId} errors={errors} />
    </div>
  );
}
