import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { getUser, isSignedIn } from "~/platform/session.server";
import { bus } from "~/platform/events/bus.server";
import { joinHub } from "~/platform/events/hub.server";
import { resetClockAfterEach } from "~/testing/clock";
import { bookingRow, card, ownerWithPet, paymentRow, requested, sitterWithSlot } from "~/testing/bookings";
import { emailsTo, matchOf, person } from "~/testing/people";
import { deckFor, admirersOf, swipe } from "~/features/discovery/index.server";
import { payForBooking, requestBooking, transition } from "~/features/bookings/index.server";
import { conversationWith, readConversation, sendMessage } from "~/features/messages/index.server";
import { fileReport } from "~/features/safety/index.server";
import { verifyLogin } from "~/features/auth/accounts.server";
import { PASSWORD } from "~/testing/people";
import { liftSuspension, suspendPerson } from "./suspension.server";
import { listReports, resolveReport } from "./reports.server";
import { auditEntries } from "./audit-log.server";

resetClockAfterEach();

const EMPTY = { image: "📷", video: "🎥" };
const asking = (cookie: string) => new Request("http://localhost/dashboard", { headers: { Cookie: cookie } });

async function operator() {
  return person("owner", { columns: { is_admin: 1 } });
}

/** A sitter with an owner's confirmed, paid booking and a pending request from another owner, matched and chatting. */
async function busySitter() {
  const sitter = await sitterWithSlot({ daysAhead: 2 });
  const owner = await ownerWithPet();
  const confirmed = await requested(owner, sitter, "10:00", 2);
  expect(await payForBooking(owner, confirmed.id, card(), randomUUID())).toEqual({ status: "held" });
  expect((await transition(confirmed.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  const other = await ownerWithPet();
  const waiting = await requested(other, sitter, "14:00", 2);
  expect(await payForBooking(other, waiting.id, card(), randomUUID())).toEqual({ status: "held" });
  await matchOf(owner.id, sitter.id);
  const conversationId = (await conversationWith(owner.id, sitter.id))!;
  return { sitter, owner, other, confirmed, waiting, conversationId };
}

const viewerRow = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function deckIds(viewerId: string) {
  await db.updateTable("users").set({ browse_mode: "global" }).where("id", "=", viewerId).execute();
  const result = await deckFor(await viewerRow(viewerId), "sitters", 100);
  if (result.status !== "cards") throw new Error(result.status);
  return result.cards.map((card) => card.userId);
}

describe("suspending a person", () => {
  it("ends their sessions and streams, refuses sign-in, cancels and refunds their open bookings, emails them and is audited", async () => {
    const admin = await operator();
    const { sitter, owner, other, confirmed, waiting } = await busySitter();
    const session = await person("sitter", { signedIn: true, password: PASSWORD });
    const writes: Uint8Array[] = [];
    let displaced = 0;
    await bus.listening();
    const leave = joinHub(
      session.id,
      { sessionKey: "s", sentUpTo: 0, write: (bytes) => writes.push(bytes), displace: () => (displaced += 1) },
      { perSession: 5, perPerson: 5 },
    );
    expect(await getUser(asking(session.cookie))).not.toBeNull();

    const result = await suspendPerson(admin.id, session.id, "Fake identity documents");
    expect(result).toEqual({ status: "suspended", closedBookings: [] });
    // Through the event bus: at once in one process, a NOTIFY round trip away on PostgreSQL.
    await expect.poll(() => displaced).toBe(1);
    leave();
    expect(await getUser(asking(session.cookie))).toBeNull();
    expect(await isSignedIn(asking(session.cookie))).toBe(false);
    expect(await db.selectFrom("sessions").select("id_hash").where("user_id", "=", session.id).execute()).toEqual([]);
    expect(await verifyLogin(session.email, PASSWORD)).toEqual({ status: "suspended" });
    expect(await verifyLogin(session.email, "wrong password here")).toEqual({ status: "invalid" });

    const withBookings = await suspendPerson(admin.id, sitter.id, "Asked owners to pay cash");
    expect(withBookings.status).toBe("suspended");
    expect(withBookings.status === "suspended" && withBookings.closedBookings.sort()).toEqual(
      [confirmed.id, waiting.id].sort(),
    );
    for (const id of [confirmed.id, waiting.id]) {
      const row = await bookingRow(id);
      expect(row).toMatchObject({ status: "cancelled", payment_status: "refunded", payment_task: null });
      expect(await paymentRow(row.hold_ref)).toMatchObject({ status: "voided" });
    }
    const emails = await emailsTo(sitter.email);
    expect(emails.at(-1)?.subject).toBe("Your Trusted Sitters account is suspended");
    expect(emails.at(-1)?.text_body).toContain("Asked owners to pay cash");
    expect((await emailsTo(owner.email)).length).toBeGreaterThan(0);
    expect((await emailsTo(other.email)).length).toBeGreaterThan(0);

    const audit = (await auditEntries({ subjectId: sitter.id })).entries;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "user.suspend",
      reason: "Asked owners to pay cash",
      operator: { id: admin.id },
    });
    expect(JSON.parse(audit[0]!.details)).toMatchObject({
      cancelledBookings: expect.arrayContaining([confirmed.id, waiting.id]),
    });

    // Twice, oneself, nobody: refused, nothing more written.
    expect(await suspendPerson(admin.id, sitter.id, "again")).toEqual({ status: "already" });
    expect(await suspendPerson(admin.id, admin.id, "me")).toEqual({ status: "self" });
    expect(await suspendPerson(admin.id, randomUUID(), "nobody")).toEqual({ status: "not-found" });
    expect((await auditEntries({ subjectId: sitter.id })).entries).toHaveLength(1);
  });

  it("hides them from every deck, 'See who liked you', booking and messages; lifting restores access but not the bookings", async () => {
    const admin = await operator();
    const { sitter, owner, confirmed, conversationId } = await busySitter();
    await db
      .insertInto("swipes")
      .values({
        swiper_id: sitter.id,
        target_user_id: owner.id,
        target_pet_id: owner.petId,
        decision: "like",
        created_at: new Date().toISOString(),
      })
      .execute();
    const looker = await ownerWithPet();
    expect(await deckIds(looker.id)).toContain(sitter.id);
    expect((await admirersOf(owner.id)).map((a) => a.userId)).toContain(sitter.id);

    await suspendPerson(admin.id, sitter.id, "Scam");
    expect(await deckIds(looker.id)).not.toContain(sitter.id);
    expect((await admirersOf(owner.id)).map((a) => a.userId)).not.toContain(sitter.id);
    expect(await swipe(looker, { userId: sitter.id, petId: null }, "like")).toEqual({ status: "not-found" });
    const again = await requestBooking(looker, {
      id: randomUUID(),
      sitterId: sitter.id,
      petIds: [looker.petId],
      day: sitter.day,
      startTime: "15:00",
      hours: 1,
      notes: "",
    });
    expect(again).toEqual({ status: "refused", reason: "sitterNotFound" });
    expect(await sendMessage(owner.id, conversationId, "still there?", null, EMPTY)).toEqual({ status: "closed" });
    expect((await readConversation(owner.id, conversationId))?.closed).toBe(true);

    expect(await liftSuspension(admin.id, sitter.id, "Identity checked")).toBe("lifted");
    expect(await liftSuspension(admin.id, sitter.id, "twice")).toBe("not-suspended");
    expect(await deckIds(looker.id)).toContain(sitter.id);
    expect(await verifyLogin(sitter.email, PASSWORD)).not.toEqual({ status: "suspended" });
    expect(await sendMessage(owner.id, conversationId, "welcome back", null, EMPTY)).toMatchObject({ status: "sent" });
    expect(await bookingRow(confirmed.id)).toMatchObject({ status: "cancelled" });
    expect((await emailsTo(sitter.email)).at(-1)?.subject).toBe("Your Trusted Sitters account is active again");
  });
});

describe("the report queue", () => {
  it("hides a reported message for everyone, closes every report of it and audits the decision", async () => {
    const admin = await operator();
    const { sitter, owner, conversationId } = await busySitter();
    const sent = await sendMessage(sitter.id, conversationId, "Pay me by bank transfer instead", null, EMPTY);
    if (sent.status !== "sent") throw new Error(sent.status);
    expect(
      await fileReport(owner.id, {
        subjectType: "message",
        subjectId: String(sent.id),
        reason: "scam",
        details: "outside the app",
      }),
    ).toBe("reported");
    const report = (await listReports("open")).find((r) => r.subjectId === String(sent.id))!;
    expect(report).toMatchObject({
      reporter: { id: owner.id },
      reported: { id: sitter.id },
      words: "outside the app",
      thing: { kind: "message", body: "Pay me by bank transfer instead" },
    });

    // No reason, no action: the whole decision rolls back.
    await expect(resolveReport(admin.id, report.id, "hide", "  ")).rejects.toThrow(/reason/);
    expect((await readConversation(owner.id, conversationId))!.messages.find((m) => m.id === sent.id)).toMatchObject({
      removed: false,
    });
    expect(await resolveReport(admin.id, report.id, "hide", "Payment outside the platform")).toBe("done");
    for (const viewer of [owner.id, sitter.id]) {
      const shown = (await readConversation(viewer, conversationId))!.messages.find((m) => m.id === sent.id)!;
      expect(shown).toMatchObject({ removed: true, body: "", media: null });
    }
    // The notification that quoted it says so too.
    const notices = await db
      .selectFrom("notifications")
      .select("data")
      .where("user_id", "=", owner.id)
      .where("type", "=", "message")
      .execute();
    expect(
      notices.map((notice) => JSON.parse(notice.data) as { preview: string }).map((data) => data.preview),
    ).toContain("Removed by Trusted Sitters");
    expect(JSON.stringify(notices)).not.toContain("bank transfer");
    expect(await resolveReport(admin.id, report.id, "dismiss", "again")).toBe("closed");
    expect((await listReports("closed")).find((r) => r.id === report.id)).toMatchObject({ resolution: "hidden" });
    const audit = (await auditEntries({ subjectId: String(sent.id) })).entries;
    expect(audit.map((entry) => entry.action)).toEqual(["message.hide"]);
  });

  it("refuses to hide a profile, and suspends from a report", async () => {
    const admin = await operator();
    const reporter = await person("owner");
    const target = await person("sitter", { signedIn: true });
    expect(
      await fileReport(reporter.id, {
        subjectType: "profile",
        subjectId: target.id,
        reason: "fake-profile",
        details: "",
      }),
    ).toBe("reported");
    const report = (await listReports("open", { reportedUserId: target.id }))[0]!;
    expect(await resolveReport(admin.id, report.id, "hide", "no")).toBe("not-hideable");
    expect(await resolveReport(admin.id, randomUUID(), "dismiss", "no")).toBe("not-found");
    expect(await resolveReport(admin.id, report.id, "warn", "Use your real photos")).toBe("done");
    expect((await emailsTo(target.email)).at(-1)?.text_body).toContain("Use your real photos");
    expect(
      await fileReport((await person("owner")).id, {
        subjectType: "profile",
        subjectId: target.id,
        reason: "scam",
        details: "",
      }),
    ).toBe("reported");
    const second = (await listReports("open", { reportedUserId: target.id }))[0]!;
    expect(await resolveReport(admin.id, second.id, "suspend", "Repeated fake profile")).toBe("done");
    expect(await getUser(asking(target.cookie))).toBeNull();
    expect(await listReports("open", { reportedUserId: target.id })).toEqual([]);
  });
});
