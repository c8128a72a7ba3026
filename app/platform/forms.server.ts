/**
 * Control characters no field of ours accepts: nobody types them, and stored they break emails,
 * exports and other people's screens. Tab, line feed and carriage return are ordinary text.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const hasControlCharacters = (text: string) => CONTROL_CHARACTER.test(text);

/**
 * The posted form, or a 400: a request without a readable form body (a missing or foreign
 * Content-Type, a broken body) or with control characters in a field is the sender's mistake,
 * never a server error, and never stored.
 */
export async function formDataOf(request: Request): Promise<FormData> {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    throw new Response("The request has no readable form.", { status: 400 });
  }
  for (const [name, value] of formData) {
    if (hasControlCharacters(name) || (typeof value === "string" && hasControlCharacters(value))) {
      throw new Response("The form contains control characters.", { status: 400 });
    }
  }
  return formData;
}
