// Keeps the parts of the page marked data-live up to date without reloading it: every
// data-poll-ms milliseconds the page is fetched again (same URL, same session cookie) and
// each data-live element whose content changed is replaced. A region the agent is working in
// (focus inside it) is left alone until they leave it. No framework, no build step.
(function () {
  "use strict";
  var body = document.body;
  var every = parseInt(body.getAttribute("data-poll-ms"), 10);
  if (!document.querySelector("[data-live]") || !(every > 0)) {
    return;
  }
  var busy = false;

  function refresh() {
    if (busy || document.hidden) {
      return;
    }
    busy = true;
    fetch(window.location.href, { credentials: "same-origin", redirect: "manual",
                                  headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("status " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live]").forEach(function (region) {
          var next = fresh.getElementById(region.id);
          if (next && next.innerHTML !== region.innerHTML &&
              !region.contains(document.activeElement)) {
            region.innerHTML = next.innerHTML;
          }
        });
      })
      .catch(function () { /* signed out or offline: the next round tries again */ })
      .then(function () { busy = false; });
  }

  window.setInterval(refresh, every);
})();
