import { describe, expect, it } from "vitest";
import { translatorFor } from "~/platform/i18n.server";
import type { MessageView } from "./messages.server";
import { conversationsText, messagesText } from "./text";

const message = (id: number, at: string): MessageView => ({
  id,
  mine: id % 2 === 0,
  body: `message ${id}`,
  media: null,
  link: null,
  at,
  removed: false,
});

describe("the messages page's times, written on the server", () => {
  it("heads each message with its day in the reader's time zone: Today, Yesterday, N days ago, then the date", async () => {
    // 23:30 UTC on 20 November is already 21 November in Madrid (UTC+1).
    const now = new Date("2026-11-21T10:00:00Z");
    const messages = [
      message(1, "2026-11-10T12:00:00Z"),
      message(2, "2026-11-18T12:00:00Z"),
      message(3, "2026-11-20T10:00:00Z"),
      message(4, "2026-11-20T23:30:00Z"),
    ];
    const shown = messagesText(messages, {
      language: "en",
      timeZone: "Europe/Madrid",
      now,
      t: await translatorFor("en", "messages"),
    });
    expect(shown.map((item) => item.day)).toEqual(["Nov 10, 2026", "3 days ago", "Yesterday", "Today"]);
    expect(shown[3]!.time).toBe("12:30 AM");
    expect(shown[3]).toMatchObject({ id: 4, body: "message 4", mine: true });
  });

  it("writes them in the reader's language", async () => {
    const now = new Date("2026-11-21T10:00:00Z");
    const shown = messagesText([message(1, "2026-11-01T17:05:00Z"), message(2, "2026-11-21T08:00:00Z")], {
      language: "de",
      timeZone: "Europe/Berlin",
      now,
      t: await translatorFor("de", "messages"),
    });
    expect(shown.map((item) => [item.day, item.time])).toEqual([
      ["01.11.2026", "18:05"],
      ["Heute", "09:00"],
    ]);
  });

  it("dates each conversation as messaging apps do: the time today, Yesterday, the weekday, then the date", async () => {
    const now = new Date("2026-11-21T10:00:00Z");
    const base = {
      activityAt: "2026-11-21T08:00:00.000Z",
      other: { id: "u", name: "Ana", photo: null, label: "owner" as const },
      unread: 0,
      bookingStatus: null,
    };
    const said = (id: string, at: string) => ({
      ...base,
      id,
      lastMessage: { body: "hi", at, mine: false, removed: false },
    });
    const shown = conversationsText(
      [
        said("a", "2026-11-21T08:00:00Z"),
        said("b", "2026-11-20T12:00:00Z"),
        said("c", "2026-11-17T12:00:00Z"),
        said("d", "2026-01-12T02:40:00Z"),
        { ...base, id: "e", lastMessage: null },
      ],
      {
        language: "fr",
        timeZone: "Europe/Paris",
        now,
        t: await translatorFor("fr", "messages"),
      },
    );
    expect(shown.map((item) => item.time)).toEqual(["09:00", "Hier", "mardi", "12 janv. 2026", null]);
    // The list's paging cursor, the other person's id and the raw times stay on the server.
    expect(
      shown.every(
        (item) => !("activityAt" in item) && !("id" in item.other) && !(item.lastMessage && "at" in item.lastMessage),
      ),
    ).toBe(true);
  });
});
