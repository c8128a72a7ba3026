import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepLive, type LiveSource } from "./live-connection";

const RETRY_MS = 3000;

/**
 * A server that keeps `cap` streams of one person and ends the oldest with `displaced`, and
 * sources that, like EventSource, reconnect after RETRY_MS when the server ends them (unless
 * closed by the page).
 */
function world(cap: number) {
  const live: FakeSource[] = [];
  let opened = 0;

  class FakeSource implements LiveSource {
    private listeners = new Map<string, (() => void)[]>();
    closedByPage = false;

    constructor(readonly tab: number) {
      this.connect();
    }

    private connect() {
      opened += 1;
      live.push(this);
      while (live.length > cap) {
        const oldest = live.shift()!;
        oldest.dispatch("displaced");
        oldest.endedByServer();
      }
    }

    private endedByServer() {
      setTimeout(() => {
        if (!this.closedByPage) this.connect();
      }, RETRY_MS);
    }

    dispatch(type: string) {
      for (const listener of this.listeners.get(type) ?? []) listener();
    }

    addEventListener(type: string, listener: () => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }

    close() {
      this.closedByPage = true;
      const index = live.indexOf(this);
      if (index >= 0) live.splice(index, 1);
    }
  }

  function tab(index: number) {
    let news = 0;
    let shown: (() => void) | undefined;
    const sources: FakeSource[] = [];
    const stop = keepLive({
      open: () => {
        const source = new FakeSource(index);
        sources.push(source);
        return source;
      },
      onNews: () => (news += 1),
      onShown: (listener) => {
        shown = listener;
        return () => (shown = undefined);
      },
    });
    return {
      sources,
      news: () => news,
      show: () => shown?.(),
      stop,
      isLive: () => live.some((source) => source.tab === index),
    };
  }

  return { tab, opened: () => opened, liveTabs: () => live.map((source) => source.tab) };
}

describe("a tab's live connection", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("calls back on each kind of live event", () => {
    const { tab } = world(5);
    const first = tab(1);
    for (const type of ["message", "notification", "match", "booking", "deck"]) first.sources[0]!.dispatch(type);
    expect(first.news()).toBe(5);
  });

  it("six tabs over a limit of five: the first one is displaced and stays closed, nobody reconnects in a loop", () => {
    const { tab, opened, liveTabs } = world(5);
    const tabs = [1, 2, 3, 4, 5, 6].map(tab);
    expect(opened()).toBe(6);
    vi.advanceTimersByTime(10 * 60_000);
    expect(opened()).toBe(6);
    expect(tabs[0]!.sources[0]!.closedByPage).toBe(true);
    expect(liveTabs()).toEqual([2, 3, 4, 5, 6]);
  });

  it("a displaced tab shown again reloads once and reconnects, ending the oldest other tab, which stays closed", () => {
    const { tab, opened, liveTabs } = world(5);
    const tabs = [1, 2, 3, 4, 5, 6].map(tab);
    tabs[0]!.show();
    expect(tabs[0]!.news()).toBe(1);
    expect(liveTabs()).toEqual([3, 4, 5, 6, 1]);
    vi.advanceTimersByTime(10 * 60_000);
    expect(opened()).toBe(7);
    expect(tabs[1]!.isLive()).toBe(false);
    // A live tab shown again does nothing: only a displaced one reconnects.
    tabs[2]!.show();
    expect(tabs[2]!.news()).toBe(0);
    expect(opened()).toBe(7);
  });

  it("two tabs over a limit of one take turns only when the person switches between them", () => {
    const { tab, opened, liveTabs } = world(1);
    const [a, b] = [tab(1), tab(2)];
    vi.advanceTimersByTime(10 * 60_000);
    expect(opened()).toBe(2);
    expect(liveTabs()).toEqual([2]);
    for (let round = 0; round < 3; round += 1) {
      a.show();
      b.show();
    }
    vi.advanceTimersByTime(10 * 60_000);
    expect(opened()).toBe(8);
    expect(liveTabs()).toEqual([2]);
  });

  it("stopping closes the connection", () => {
    const { tab, liveTabs } = world(5);
    const first = tab(1);
    first.stop();
    expect(liveTabs()).toEqual([]);
    expect(first.sources[0]!.closedByPage).toBe(true);
  });
});
