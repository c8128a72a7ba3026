import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { addPhotos, movePhoto, type PhotoMove, readImageUpload } from "~/features/media/index.server";
import { PHOTOS_MAX } from "~/features/media";
import { findOwnPet } from "~/features/pets/index.server";
import { formDataOf } from "~/platform/forms.server";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";

// Multipart posts here are photo uploads, read with their own limits (readImageUpload).
export const handle = { uploads: true };

export const loader = () => redirect("/profile/edit");

const MOVES: PhotoMove[] = ["main", "earlier", "later"];

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const isUpload = request.headers.get("Content-Type")?.startsWith("multipart/form-data");
  if (isUpload) {
    const upload = await readImageUpload(request, { field: "photos", maxFiles: PHOTOS_MAX });
    const back = safeRedirectTarget("formData" in upload ? upload.formData.get("redirectTo") : null, "/profile/edit");
    if ("error" in upload)
      return redirectWithToast(back, { type: "error", title: "errors.title", description: `profile:${upload.error}` });
    const petId = upload.formData.get("petId");
    if (typeof petId === "string" && petId && !(await findOwnPet(user.id, petId)))
      throw new Response("Not found", { status: 404 });
    if (upload.images.length === 0) {
      return redirectWithToast(back, { type: "error", title: "errors.title", description: "profile:media.noneChosen" });
    }
    const result = await addPhotos(
      { userId: user.id, petId: typeof petId === "string" && petId ? petId : null },
      upload.images,
    );
    if (result.status === "refused")
      return redirectWithToast(back, {
        type: "error",
        title: "profile:media.uploadFailed",
        description: `profile:${result.problem}`,
      });
    return redirectWithToast(back, { type: "success", title: "profile:photos.added", values: { count: result.count } });
  }

  const form = await formDataOf(request);
  const back = safeRedirectTarget(form.get("redirectTo"), "/profile/edit");
  const move = form.get("move");
  const photoId = form.get("photoId");
  if (typeof photoId !== "string" || !MOVES.includes(move as PhotoMove))
    throw new Response("Bad request", { status: 400 });
  if (!(await movePhoto(user.id, photoId, move as PhotoMove))) throw new Response("Not found", { status: 404 });
  return redirect(back);
}
