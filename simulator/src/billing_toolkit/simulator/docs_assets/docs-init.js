// Starts Swagger UI on the contract this simulator serves (same origin: "Try it out"
// sends requests to this very simulator). No inline script, so the page's CSP can forbid one.
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.spec,
    dom_id: "#swagger-ui",
    deepLinking: true,
    tryItOutEnabled: true,
    persistAuthorization: false,
  });
});
