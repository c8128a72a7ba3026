import type { User } from "~db/schema";
import { getUser } from "./session.server";

/** The signed-in operator, or a 404 for everyone else (a console that does not exist for them). */
export async function requireAdmin(request: Request): Promise<User> {
  const user = await getUser(request);
  if (!user || user.is_admin !== 1) throw new Response("Not found", { status: 404 });
  return user;
}
