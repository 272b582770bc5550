// An SPRT page that follows its run: while the run is open, polls /api/submissions/{id}/sprt
// every 3 s and reloads the page once the worker has stored another batch (or ended the run),
// so the server draws the chart, in one place. The page is complete without it.
(function () {
  "use strict";
  var root = document.getElementById("sprt");
  if (!root || root.getAttribute("data-running") !== "yes") return;
  var api = root.getAttribute("data-api");
  var played = Number(root.getAttribute("data-played"));
  var live = document.getElementById("live");

  function poll() {
    fetch(api, {cache: "no-store", credentials: "same-origin"}).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then(function (run) {
      if (run.played !== played || !run.running) {
        window.location.reload();
        return;
      }
      live.textContent = "(live)";
      setTimeout(poll, 3000);
    }).catch(function () {
      live.textContent = "(connection lost; retrying)";
      setTimeout(poll, 5000);
    });
  }

  live.textContent = "(live)";
  setTimeout(poll, 3000);
})();
