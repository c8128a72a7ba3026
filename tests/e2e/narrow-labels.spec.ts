import type { Locator, Page } from "@playwright/test";
import { expect, newPerson, signUpAndConfirm, test } from "./support";

const LANGUAGES = ["en", "es", "pt", "it", "ru", "pl", "fr", "de"] as const;

interface Problem {
  label: string;
  problem: string;
}

/**
 * Each label inside its own box, and every line break of it at a space or a soft hyphen: a word broken
 * anywhere else (or running past its box into the next label) is a problem.
 */
async function labelProblems(labels: Locator): Promise<Problem[]> {
  return labels.evaluateAll((elements) => {
    const problems: { label: string; problem: string }[] = [];
    const boxes = elements.map((element) => element.getBoundingClientRect());
    elements.forEach((element, index) => {
      const label = (element.textContent ?? "").replace(/\u00ad/g, "");
      const own = boxes[index]!;
      if (element.scrollWidth > element.clientWidth + 1)
        problems.push({ label, problem: `text ${element.scrollWidth}px wide in a ${element.clientWidth}px box` });
      const range = document.createRange();
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      let previous: { top: number; right: number; char: string } | null = null;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (let at = 0; at < text.length; at += 1) {
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const rect = [...range.getClientRects()].at(-1);
          if (!rect || rect.width === 0) {
            // A soft hyphen or collapsed space takes no room where the line does not break.
            if (previous) previous.char = text[at]!;
            continue;
          }
          if (rect.left < own.left - 1 || rect.right > own.right + 1)
            problems.push({ label, problem: `"${text[at]}" outside its box` });
          if (previous && rect.top > previous.top + 2 && !/[\s\u00ad-]/.test(previous.char))
            problems.push({ label, problem: `broken mid-word before "${text.slice(at)}"` });
          previous = { top: rect.top, right: rect.right, char: text[at]! };
        }
      }
      boxes.forEach((other, otherIndex) => {
        const overlap =
          otherIndex > index &&
          own.left < other.right - 1 &&
          other.left < own.right - 1 &&
          own.top < other.bottom - 1 &&
          other.top < own.bottom - 1;
        if (overlap) problems.push({ label, problem: `overlaps "${elements[otherIndex]!.textContent}"` });
      });
    });
    return problems;
  });
}

async function checkLabels(page: Page) {
  const tabs = page
    .getByRole("navigation", { name: /./ })
    .filter({ has: page.locator('a[href^="/bookings?tab="]') })
    .getByRole("link");
  const barLabels = page
    .getByRole("navigation", { name: /./ })
    .filter({ has: page.locator('a[href="/profile"]') })
    .locator("li a > span:not(.absolute)");
  await expect(tabs).toHaveCount(4);
  await expect(barLabels).toHaveCount(5);
  return [...(await labelProblems(tabs)), ...(await labelProblems(barLabels))];
}

test("in every language, booking filter tabs and bottom-bar labels fit at 320 and 393 px: nothing overflows, overlaps or breaks mid-word", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  await signUpAndConfirm(page, newPerson("owner"), jsEnabled);
  const problems: string[] = [];
  for (const width of [320, 393]) {
    await page.setViewportSize({ width, height: 740 });
    for (const language of LANGUAGES) {
      await page.goto(`/bookings?lng=${language}`);
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      for (const { label, problem } of await checkLabels(page))
        problems.push(`${width}px ${language} "${label}": ${problem}`);
    }
  }
  expect(problems).toEqual([]);
  // The page is left in English for the accessibility check that ends every test.
  await page.goto("/bookings?lng=en");
});
