// Keeps the parts of a console page marked data-live up to date without reloading it: every
// data-poll-ms milliseconds the page (data-poll-url, else the current URL) is fetched again
// with the same session cookie, and each data-live element whose content changed is replaced.
// A region the user is working in (focus inside it) is left alone until they leave it.
// Shared by both consoles (billing_toolkit.webconsole). No framework, no build step.
(function () {
  "use strict";
  var body = document.body;
  var every = parseInt(body.getAttribute("data-poll-ms"), 10);
  if (!document.querySelector("[data-live]") || !(every > 0)) {
    return;
  }
  var url = body.getAttribute("data-poll-url") || window.location.href;
  var busy = false;

  function refresh() {
    if (busy || document.hidden) {
      return;
    }
    busy = true;
    fetch(url, { credentials: "same-origin", redirect: "manual",
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
