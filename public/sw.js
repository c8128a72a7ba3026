// The service worker: the app keeps working as an installed app on a phone.
// - Built assets (/assets/*, hashed and never changed) come from the cache once fetched.
// - Pages always come from the network (they are personal and must be fresh); when the network
//   is gone, the offline page is shown instead, in the language this worker was registered for
//   (entry.client.tsx registers /sw.js?lng=<language>, so a new language installs a new copy).
const language = new URL(self.location.href).searchParams.get("lng") || "en";
const STATIC_CACHE = "static-v1";
const OFFLINE_CACHE = `offline-v1-${language}`;
const OFFLINE_URL = `/offline?lng=${language}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(OFFLINE_CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { credentials: "same-origin" })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== STATIC_CACHE && key !== OFFLINE_CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.open(OFFLINE_CACHE).then((cache) => cache.match(OFFLINE_URL))));
    return;
  }
  if (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/icons/") || url.pathname === "/favicon.svg") {
    event.respondWith(
      caches.open(STATIC_CACHE).then((cache) =>
        cache.match(request).then(
          (cached) =>
            cached ||
            fetch(request).then((response) => {
              if (response.ok) void cache.put(request, response.clone());
              return response;
            }),
        ),
      ),
    );
  }
});

// Web Push: the server sends a short title, body and a link inside the app (never an outside address).
self.addEventListener("push", (event) => {
  let push = {};
  try {
    push = event.data ? event.data.json() : {};
  } catch {
    push = {};
  }
  const link = typeof push.link === "string" && push.link.startsWith("/") && !push.link.startsWith("//") ? push.link : "/notifications";
  const shown = self.registration.showNotification(typeof push.title === "string" ? push.title : "Trusted Sitters", {
    body: typeof push.body === "string" ? push.body : "",
    icon: "/icons/icon-192.png",
    badge: "/icons/icon-192.png",
    data: { link },
  });
  // The home-screen badge shows the unread count where the browser has one.
  const badge =
    typeof push.badge === "number" && "setAppBadge" in self.navigator
      ? (push.badge > 0 ? self.navigator.setAppBadge(push.badge) : self.navigator.clearAppBadge()).catch(() => undefined)
      : Promise.resolve();
  event.waitUntil(Promise.all([shown, badge]));
});

// Pressing a push opens its page: in a tab of the app that is already open, else in a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.link || "/notifications", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) return open.focus().then((client) => (client ?? open).navigate(target));
      return self.clients.openWindow(target);
    }),
  );
});
