import { NotFound } from "~/platform/ui/not-found";

export const handle = { title: "common:notFound.title" };

export function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}
