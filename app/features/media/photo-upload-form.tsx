import { Form, useNavigate } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { PHOTOS_MAX } from "./limits";
import { PhotoPicker } from "./photo-picker";

// With JavaScript the post goes through XMLHttpRequest, the only browser API that reports upload progress.
export function PhotoUploadForm({
  petId,
  redirectTo,
  photoCount,
}: {
  petId?: string;
  redirectTo: string;
  photoCount: number;
}) {
  const { t } = useTranslation("profile");
  const navigate = useNavigate();
  const [progress, setProgress] = useState<number | null>(null);
  const remaining = PHOTOS_MAX - photoCount;

  function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const request = new XMLHttpRequest();
    // The data address answers with the redirect as data, so the server's message is still there for the next page.
    request.open("POST", "/photos.data");
    request.upload.onprogress = (progressEvent) => {
      if (progressEvent.lengthComputable) setProgress(Math.round((progressEvent.loaded / progressEvent.total) * 100));
    };
    request.onloadend = () => {
      setProgress(null);
      form.reset();
      navigate(redirectTo, { replace: true, preventScrollReset: true });
    };
    setProgress(0);
    request.send(new FormData(form));
  }

  return (
    <Form method="post" action="/photos" encType="multipart/form-data" onSubmit={upload} className="space-y-2">
      {petId ? <input type="hidden" name="petId" value={petId} /> : null}
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <PhotoPicker label={t("photos.add")} remaining={remaining} />
      {remaining > 0 ? (
        <button type="submit" disabled={progress !== null} className="btn btn-secondary">
          {t("photos.upload")}
        </button>
      ) : null}
      {progress !== null ? (
        <div className="space-y-1">
          <progress
            max={100}
            value={progress}
            aria-label={t("photos.uploading")}
            className="h-2 w-full accent-brand-700"
          />
          <p className="text-sm text-stone-700" role="status">
            {t("photos.uploadProgress", { percent: progress })}
          </p>
        </div>
      ) : null}
    </Form>
  );
}
