import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { recordAudit } from "~/platform/audit.server";
import { purgeErasedEmails } from "~/platform/lifecycle.server";
import { enqueueEmail } from "~/platform/email.server";
import { context } from "~/testing/browser";
import { person } from "~/testing/people";
import { action as personAction } from "~/routes/admin-person";
import { refundSchema, resolveSchema } from "~/features/disputes";
import { reportActionSchema, suspendSchema } from "./schema";

const DAY_MS = 24 * 60 * 60 * 1000;

const errorsOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe("the operator's reason, kept forever in the audit log", () => {
  const contacts = [
    "Called her on +34 611 987 654, she denies it",
    "Phone 611987654 given in chat",
    "Wrote to zephyrine.q@example.com about it",
    "Reach him at (030) 1234-5678",
  ];
  const fine = [
    "Scam messages reported three times this week",
    "Booking 123e4567-e89b-12d3-a456-426614174000 on 2026-05-01: refunded 45.50 € after 10:30 photos",
    "Report 42 and 43: same wording",
  ];

  it("refuses emails and phone numbers, with a translated error, in every operator form that writes it", () => {
    for (const reason of contacts) {
      expect(errorsOf(suspendSchema.safeParse({ intent: "suspend", reason })), reason).toEqual([
        "admin:errors.reasonContact",
      ]);
      expect(errorsOf(reportActionSchema.safeParse({ intent: "warn", reportId: "r1", reason })), reason).toEqual([
        "admin:errors.reasonContact",
      ]);
      expect(errorsOf(refundSchema.safeParse({ amount: "5", note: reason })), reason).toEqual([
        "admin:errors.reasonContact",
      ]);
      expect(errorsOf(resolveSchema.safeParse({ outcome: "release", note: reason })), reason).toEqual([
        "admin:errors.reasonContact",
      ]);
    }
    for (const reason of fine)
      expect(suspendSchema.safeParse({ intent: "suspend", reason }).success, reason).toBe(true);
  });

  it("is refused by the suspension action itself: nothing happens, nothing is logged", async () => {
    const operator = await person("owner", { signedIn: true, columns: { is_admin: 1 } });
    const member = await person("sitter");
    const response = (await personAction({
      request: new Request(`http://localhost/admin/people/${member.id}`, {
        method: "POST",
        headers: { Cookie: operator.cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          intent: "suspend",
          reason: `Threatened the owner, call ${member.email} or +34 600 111 222`,
        }),
      }),
      params: { userId: member.id },
      context: context(),
    })) as unknown as { init: { status: number }; data: { error: string } };
    expect(response.init.status).toBe(400);
    expect(response.data.error).toBe("admin:errors.reasonContact");
    expect(await db.selectFrom("audit_log").select("id").where("subject_id", "=", member.id).execute()).toEqual([]);
    expect(
      (await db.selectFrom("users").select("suspended_at").where("id", "=", member.id).executeTakeFirstOrThrow())
        .suspended_at,
    ).toBeNull();
  });

  it("reaches the log without contact data even from a caller that skipped the form's check", async () => {
    const member = await person("sitter");
    await recordAudit(db, {
      operatorId: null,
      action: "test.act",
      subjectType: "user",
      subjectId: member.id,
      reason: `Asked ${member.email} and +34 611 987 654`,
    });
    const row = await db
      .selectFrom("audit_log")
      .select("reason")
      .where("subject_id", "=", member.id)
      .executeTakeFirstOrThrow();
    expect(row.reason).not.toContain(member.email);
    expect(row.reason).not.toMatch(/611/);
  });
});

describe("an erased person's emails", () => {
  const erased = (to: string) =>
    enqueueEmail({
      to,
      subject: "Your account was deleted",
      text: `Goodbye ${to}`,
      html: `<p>Goodbye ${to}</p>`,
      purgeAfterSend: true,
    });
  const rowsTo = (to: string) =>
    db.selectFrom("email_outbox").select(["id", "to_address"]).where("text_body", "like", `%${to}%`).execute();

  it("leave the outbox once sent, and after 7 days at the latest when never sent; other emails stay", async () => {
    const sent = `sent-${Date.now()}@example.com`;
    const waiting = `waiting-${Date.now()}@example.com`;
    const old = `old-${Date.now()}@example.com`;
    const other = `other-${Date.now()}@example.com`;
    for (const to of [sent, waiting, old]) await erased(to);
    await enqueueEmail({ to: other, subject: "Hello", text: `Hello ${other}`, html: "<p>Hello</p>" });
    const at = new Date();
    await db
      .updateTable("email_outbox")
      .set({ sent_at: at.toISOString(), to_address: "", subject: "", html_body: "" })
      .where("text_body", "like", `%${sent}%`)
      .execute();
    await db
      .updateTable("email_outbox")
      .set({ created_at: new Date(at.getTime() - 7 * DAY_MS - 60_000).toISOString() })
      .where("text_body", "like", `%${old}%`)
      .execute();
    await db
      .updateTable("email_outbox")
      .set({ created_at: new Date(at.getTime() - 6 * DAY_MS).toISOString() })
      .where("text_body", "like", `%${waiting}%`)
      .execute();

    await purgeErasedEmails();
    expect(await rowsTo(sent)).toEqual([]);
    expect(await rowsTo(old)).toEqual([]);
    expect(await rowsTo(waiting)).toHaveLength(1);
    expect(await rowsTo(other)).toHaveLength(1);
  });
});
