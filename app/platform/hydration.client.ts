// The events for which React 18 hydrates a page synchronously when they reach a part it has not hydrated yet
// (react-dom's list of discrete events).
const EVENTS_THAT_FORCE_HYDRATION = [
  "mousedown",
  "mouseup",
  "touchcancel",
  "touchend",
  "touchstart",
  "auxclick",
  "dblclick",
  "pointercancel",
  "pointerdown",
  "pointerup",
  "dragend",
  "dragstart",
  "drop",
  "compositionend",
  "compositionstart",
  "keydown",
  "keypress",
  "keyup",
  "input",
  "textInput",
  "copy",
  "cut",
  "paste",
  "click",
  "change",
  "contextmenu",
  "reset",
  "submit",
] as const;

/**
 * Keeps a person's first presses and keystrokes away from React until `ready()` says the page can be hydrated
 * in one go. Remix decodes the page's data before it renders anything, so the first render of a hydration
 * waits for it; a press in that moment makes React 18 hydrate synchronously, meet that wait, and give up
 * on the page for good ("Root did not complete", facebook/react#28800; React 19 waits instead). Until then
 * the browser alone handles them, as it does before any script has run: links open, forms post, fields
 * take text. Listening on `window` in the capture phase comes before React's listeners on the document.
 */
export function keepEarlyInputFromReact(ready: () => boolean) {
  const hold = (event: Event) => {
    if (!ready()) {
      event.stopPropagation();
      return;
    }
    for (const type of EVENTS_THAT_FORCE_HYDRATION) window.removeEventListener(type, hold, true);
  };
  for (const type of EVENTS_THAT_FORCE_HYDRATION) window.addEventListener(type, hold, true);
}
