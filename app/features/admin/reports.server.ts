import { db } from "~/platform/db.server";

export async function openReportCount(): Promise<number> {
  const row = await db.selectFrom("reports").select((eb) => eb.fn.countAll<number>().as("count")).where("status", "=", "open").executeTakeFirstOrThrow();
  return Number(row.count);
}
