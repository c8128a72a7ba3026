import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PhotoGrid, PhotoUploadForm } from "~/features/media";
import { listPhotos, toPhotoView } from "~/features/media/index.server";
import {
  BIO_MAX,
  profileEditSchema,
  SitterDetailsFields,
  sitterDetailsSchema,
  loadProfileSchemas,
} from "~/features/profiles";
import { TOO_OFTEN } from "~/features/geo/index.server";
import { isSitter, sitterDetailsDefaults, updateProfile, updateSitterDetails } from "~/features/profiles/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FieldErrors, FormError, TextAreaField, TextField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["profile"], title: "profile:edit.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const photos = await listPhotos({ userId: user.id, petId: null });
  return {
    name: user.name,
    photos: photos.map(toPhotoView),
    timeZones: Intl.supportedValuesOf("timeZone"),
    constraints: {
      profileEditSchema: constraintOf(profileEditSchema),
      sitterDetailsSchema: constraintOf(sitterDetailsSchema),
    },
    defaults: {
      name: user.name,
      phone: user.phone,
      city: user.city,
      postalCode: user.postal_code,
      bio: user.bio,
      timeZone: user.time_zone,
    },
    sitter: isSitter(user.role) ? await sitterDetailsDefaults(user) : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await formDataOf(request);
  if (formData.get("intent") === "sitter") {
    const submission = parseWithZod(formData, { schema: sitterDetailsSchema });
    if (submission.status !== "success")
      return data({ form: "sitter" as const, reply: submission.reply() }, { status: 400 });
    if (!(await updateSitterDetails(user, submission.value))) {
      return data(
        { form: "sitter" as const, reply: submission.reply({ formErrors: ["profile:edit.notSitter"] }) },
        { status: 403 },
      );
    }
    return redirectWithToast("/profile", { type: "success", title: "profile:edit.saved" });
  }
  const submission = parseWithZod(formData, { schema: profileEditSchema });
  if (submission.status !== "success")
    return data({ form: "profile" as const, reply: submission.reply() }, { status: 400 });
  if ((await updateProfile(user.id, submission.value)) === TOO_OFTEN) {
    return data(
      { form: "profile" as const, reply: submission.reply({ fieldErrors: { city: ["profile:edit.cityTooOften"] } }) },
      { status: 429 },
    );
  }
  return redirectWithToast("/profile", { type: "success", title: "profile:edit.saved" });
}

export default function EditProfile() {
  const { t } = useTranslation("profile");
  const { name, photos, timeZones, defaults, sitter } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "profile",
    ...useSchemaValidation("profile", () => loadProfileSchemas().then((schemas) => schemas.profileEditSchema)),
    lastResult: actionData?.form === "profile" ? actionData.reply : undefined,
    defaultValue: defaults,
    constraint: constraints.profileEditSchema,
  });
  const { key: zoneKey, ...zoneProps } = getSelectProps(fields.timeZone);
  return (
    <>
      <PageHeader title={t("edit.title")} backTo="/profile" />
      <section aria-labelledby="my-photos" className="space-y-3 px-4 pb-6">
        <h2 id="my-photos" className="text-lg font-semibold">
          {t("photos.title")}
        </h2>
        <p className="text-sm text-stone-700">{t("photos.mainHint")}</p>
        <PhotoGrid photos={photos} name={name} />
        <PhotoUploadForm redirectTo="/profile/edit" photoCount={photos.length} />
      </section>
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4 px-4 pb-8">
        <h2 className="text-lg font-semibold">{t("edit.details")}</h2>
        <FormError form={form} />
        <TextField meta={fields.name} label={t("edit.name")} autoComplete="name" />
        <TextField meta={fields.phone} type="tel" label={t("edit.phone")} autoComplete="tel" />
        <TextField meta={fields.city} label={t("edit.city")} hint={t("edit.cityHint")} autoComplete="address-level2" />
        <TextField meta={fields.postalCode} label={t("edit.postalCode")} autoComplete="postal-code" />
        <TextAreaField meta={fields.bio} label={t("edit.bio")} rows={4} maxLength={BIO_MAX} />
        <div className="space-y-1.5">
          <label htmlFor={fields.timeZone.id} className="block text-sm font-semibold text-stone-800">
            {t("edit.timeZone")}
          </label>
          <select {...zoneProps} key={zoneKey} className="input">
            {timeZones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll("_", " ")}
              </option>
            ))}
          </select>
          <FieldErrors id={fields.timeZone.errorId} errors={fields.timeZone.errors} />
        </div>
        <SubmitButton className="w-full">{t("edit.save")}</SubmitButton>
        <p className="text-center">
          <Link to="/reset-password" className="link">
            {t("edit.changePassword")}
          </Link>
        </p>
      </Form>
      {sitter ? (
        <SitterDetailsForm
          defaults={sitter}
          lastResult={actionData?.form === "sitter" ? actionData.reply : undefined}
        />
      ) : null}
    </>
  );
}

function SitterDetailsForm({
  defaults,
  lastResult,
}: {
  defaults: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["sitter"]>;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation("profile");
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "sitter-details",
    ...useSchemaValidation("sitter-details", () => loadProfileSchemas().then((schemas) => schemas.sitterDetailsSchema)),
    lastResult,
    defaultValue: defaults,
    constraint: constraints.sitterDetailsSchema,
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      noValidate
      aria-labelledby="sitter-details-title"
      className="space-y-4 px-4 pb-8"
    >
      <h2 id="sitter-details-title" className="text-lg font-semibold">
        {t("edit.sitterDetails")}
      </h2>
      <FormError form={form} />
      <input type="hidden" name="intent" value="sitter" />
      <SitterDetailsFields fields={fields} />
      <SubmitButton className="w-full">{t("edit.saveSitterDetails")}</SubmitButton>
    </Form>
  );
}
