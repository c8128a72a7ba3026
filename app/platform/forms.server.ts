/**
 * The posted form, or a 400: a request without a readable form body (a missing or foreign
 * Content-Type, a broken body) is the sender's mistake, never a server error.
 */
export async function formDataOf(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("The request has no readable form.", { status: 400 });
  }
}
