// Reads a scenario file picked in the QA console into its textarea (input[data-fills] names
// the textarea's id), so it is sent with the form. No framework, no build step.
(function () {
  "use strict";
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
})();
