// The frame that asks one agreed host (see net.html). Its address's fragment names the origin;
// before anything else this script adds a policy admitting that origin only, so nothing run in
// this frame can reach another host. The page sends requests with a port to answer on: the
// head, then the body chunk by chunk as the asker pulls them (transferred, not copied).
"use strict";
(function () {
  var asked = null;
  try {
    var u = new URL(decodeURIComponent(location.hash.slice(1)));
    if ((u.protocol === "http:" || u.protocol === "https:") && u.origin !== "null") asked = u.origin;
  } catch (e) {
    asked = null;
  }
  var meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  // Nothing at all when the fragment names no host.
  meta.content = "connect-src " + (asked || "'none'");
  document.head.appendChild(meta);

  function serve(req) {
    var reply = req.reply;
    var controller = new AbortController();
    var reader = null;
    reply.onmessage = function (ev) {
      var m = ev.data;
      if (m && m.type === "cancel") {
        controller.abort();
        if (reader) reader.cancel().catch(function () {});
        reply.close();
      } else if (m && m.type === "pull" && reader) {
        reader.read().then(
          function (r) {
            if (r.done) return reply.postMessage({ type: "end" });
            var b = r.value.buffer.byteLength === r.value.byteLength ? r.value.buffer : r.value.slice().buffer;
            reply.postMessage({ type: "chunk", bytes: b }, [b]);
          },
          function (e) {
            reply.postMessage({ type: "error", message: String((e && e.message) || e) });
          },
        );
      }
    };
    var target;
    try {
      target = new URL(req.url);
    } catch (e) {
      return reply.postMessage({ type: "error", message: "not an address" });
    }
    if (target.origin !== asked) return reply.postMessage({ type: "error", message: target.host + " was not agreed to" });
    fetch(target.href, { headers: req.headers || {}, credentials: "omit", cache: "no-store", redirect: "follow", signal: controller.signal }).then(
      function (res) {
        reader = res.body ? res.body.getReader() : null;
        var headers = [];
        res.headers.forEach(function (v, k) {
          headers.push([k, v]);
        });
        reply.postMessage({ type: "head", status: res.status, statusText: res.statusText, headers: headers, body: reader !== null });
      },
      function (e) {
        reply.postMessage({ type: "error", message: String((e && e.message) || e) });
      },
    );
  }

  window.addEventListener("message", function (ev) {
    if (ev.origin !== location.origin || ev.source !== window.parent) return;
    var m = ev.data;
    if (m && m.type === "fetch" && m.reply) serve(m);
  });
  window.parent.postMessage({ type: "net-ready", origin: asked }, location.origin);
})();
