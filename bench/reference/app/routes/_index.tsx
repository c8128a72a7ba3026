import { useLoaderData } from "@remix-run/react";

const NAMES = ["Luna", "Max", "Bella", "Charlie", "Coco"];

export async function loader() {
  return {
    items: Array.from({ length: 20 }, (_, i) => ({
      id: i + 1,
      name: `${NAMES[i % NAMES.length]} ${i + 1}`,
      note: "Walks twice a day, loves the park.",
    })),
  };
}

export default function Index() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Reference</h1>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={`/items/${item.id}`}>{item.name}</a> <span>{item.note}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
