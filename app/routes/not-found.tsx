import { NotFound } from "~/platform/ui/not-found";

export const handle = { title: "common:notFound.title" };

/** Any unknown address: a real 404 status with the friendly page. */
export function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}
