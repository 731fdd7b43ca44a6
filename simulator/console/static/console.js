// Keeps the regions marked data-live (fault rules, the request journal) up to date: every
// data-poll-ms milliseconds the console page is fetched again (same session cookie) and each
// data-live region whose content changed is replaced, unless the user is working inside it.
// Also reads a picked scenario file into its textarea. No framework, no build step.
(function () {
  "use strict";
  var body = document.body;
  var every = parseInt(body.getAttribute("data-poll-ms"), 10);
  var url = body.getAttribute("data-poll-url");
  var busy = false;

  function refresh() {
    if (busy || document.hidden) {
      return;
    }
    busy = true;
    fetch(url, { credentials: "same-origin", redirect: "manual", headers: { "Accept": "text/html" } })
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
          if (next && next.innerHTML !== region.innerHTML && !region.contains(document.activeElement)) {
            region.innerHTML = next.innerHTML;
          }
        });
      })
      .catch(function () { /* signed out or offline: the next round tries again */ })
      .then(function () { busy = false; });
  }

  document.querySelectorAll("input[type=file][data-fills]").forEach(function (input) {
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (file) {
        file.text().then(function (text) {
          document.getElementById(input.getAttribute("data-fills")).value = text;
        });
      }
    });
  });

  if (document.querySelector("[data-live]") && every > 0) {
    window.setInterval(refresh, every);
  }
})();
