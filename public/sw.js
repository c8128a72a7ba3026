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
