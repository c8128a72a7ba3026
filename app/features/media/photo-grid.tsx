import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmLink } from "~/platform/ui/confirm-link";
import type { PhotoView } from "./photos.server";

export function PhotoGrid({ photos, name }: { photos: PhotoView[]; name: string }) {
  const { t } = useTranslation("profile");
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  if (photos.length === 0) return <p className="text-stone-700">{t("photos.none")}</p>;
  return (
    <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {photos.map((photo, index) => (
        <li key={photo.id} className="space-y-1.5">
          <div className="relative">
            <img
              src={photo.cardUrl}
              alt={t("photos.alt", { name, number: index + 1 })}
              width={photo.width}
              height={photo.height}
              className="aspect-square w-full rounded-xl object-cover"
            />
            {index === 0 ? (
              <span className="absolute top-2 left-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
                {t("photos.main")}
              </span>
            ) : null}
          </div>
          <Form method="post" action="/photos" className="flex flex-wrap gap-1">
            <input type="hidden" name="photoId" value={photo.id} />
            <input type="hidden" name="redirectTo" value={back} />
            {index > 0 ? (
              <>
                <button type="submit" name="move" value="main" className="btn btn-secondary min-h-9 px-2 py-1 text-xs">
                  {t("photos.makeMain")}
                  <span className="sr-only"> ({t("photos.number", { number: index + 1 })})</span>
                </button>
                <button
                  type="submit"
                  name="move"
                  value="earlier"
                  className="btn btn-secondary min-h-9 px-2 py-1 text-xs"
                >
                  <span aria-hidden>←</span>
                  <span className="sr-only">{t("photos.moveEarlier", { number: index + 1 })}</span>
                </button>
              </>
            ) : null}
            {index < photos.length - 1 ? (
              <button type="submit" name="move" value="later" className="btn btn-secondary min-h-9 px-2 py-1 text-xs">
                <span aria-hidden>→</span>
                <span className="sr-only">{t("photos.moveLater", { number: index + 1 })}</span>
              </button>
            ) : null}
          </Form>
          <ConfirmLink
            to={`/photos/${photo.id}/delete?redirectTo=${encodeURIComponent(back)}`}
            question={t("photos.deleteQuestion")}
            confirmLabel={t("photos.delete")}
            className="btn btn-secondary min-h-9 px-2 py-1 text-xs text-red-800"
          >
            {t("photos.delete")}
            <span className="sr-only"> ({t("photos.number", { number: index + 1 })})</span>
          </ConfirmLink>
        </li>
      ))}
    </ol>
  );
}
