import { getFormProps, useForm } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { constraintOf } from "~/platform/forms.server";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PHOTOS_MAX, PhotoPicker } from "~/features/media";
import { listPhotos, readImageUpload } from "~/features/media/index.server";
import { BIO_MAX, SitterDetailsFields, sitterSetupSchema, loadProfileSchemas } from "~/features/profiles";
import { completeSitterProfile, sitterDetailsDefaults } from "~/features/profiles/index.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError, TextAreaField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["profile"], uploads: true, title: "profile:sitterSetup.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const photos = await listPhotos({ userId: user.id, petId: null });
  return {
    photoCount: photos.length,
    constraints: { sitterSetupSchema: constraintOf(sitterSetupSchema) },
    defaults: {
      bio: user.bio,
      ...(await sitterDetailsDefaults(user)),
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const existing = (await listPhotos({ userId: user.id, petId: null })).length;
  const upload = await readImageUpload(request, { field: "photos", maxFiles: PHOTOS_MAX });
  if ("error" in upload)
    return data({ status: "error" as const, error: { photos: [`profile:${upload.error}`] } }, { status: 400 });
  const submission = parseWithZod(upload.formData, { schema: sitterSetupSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (existing + upload.images.length > PHOTOS_MAX) {
    return data(submission.reply({ fieldErrors: { photos: ["profile:media.tooMany"] } }), { status: 400 });
  }
  const result = await completeSitterProfile(user, submission.value, upload.images);
  if (result.status === "refused")
    return data(submission.reply({ fieldErrors: { photos: [`profile:${result.problem}`] } }), { status: 400 });
  return redirectWithToast("/profile/edit", {
    type: "success",
    title: "profile:sitterSetup.successTitle",
    description: "profile:sitterSetup.successBody",
  });
}

export default function SitterProfileSetup() {
  const { t } = useTranslation("profile");
  const { photoCount, defaults } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "sitter-setup",
    ...useSchemaValidation("sitter-setup", () => loadProfileSchemas().then((schemas) => schemas.sitterSetupSchema)),
    lastResult,
    defaultValue: defaults,
    constraint: constraints.sitterSetupSchema,
  });
  return (
    <>
      <header className="flex items-center gap-2 px-4 pt-4 pb-2">
        <h1 className="flex-1 text-2xl font-bold tracking-tight">{t("sitterSetup.title")}</h1>
        <Link to="/" className="inline-flex size-11 items-center justify-center rounded-full hover:bg-stone-200">
          <svg aria-hidden viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
          </svg>
          <span className="sr-only">{t("sitterSetup.close")}</span>
        </Link>
      </header>
      <Form
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        noValidate
        className="space-y-5 px-4 pb-8"
      >
        <p className="text-stone-700">{t("sitterSetup.intro")}</p>
        <FormError form={form} />
        <PhotoPicker
          label={t("sitterSetup.photos")}
          remaining={PHOTOS_MAX - photoCount}
          errors={lastResult?.error?.photos ?? undefined}
        />
        <TextAreaField
          meta={fields.bio}
          label={t("sitterSetup.about")}
          rows={5}
          maxLength={BIO_MAX}
          placeholder={t("sitterSetup.aboutPlaceholder")}
        />
        <SitterDetailsFields fields={fields} />
        <p className="rounded-xl bg-brand-50 p-3 text-sm text-brand-800">{t("sitterSetup.availabilityHint")}</p>
        <SubmitButton className="w-full">{t("sitterSetup.submit")}</SubmitButton>
      </Form>
    </>
  );
}
