// A tournament page that follows its progress: polls the JSON API every second while the
// tournament runs, and updates the counts, bar, status, standings and latest matches in place.
(function () {
  "use strict";
  var root = document.getElementById("progress");
  if (!root) return;
  var api = root.getAttribute("data-api");
  var live = document.getElementById("live");

  function set(id, value) { document.getElementById(id).textContent = String(value); }

  function latestRows(matches) {
    var tbody = document.querySelector("#latest tbody");
    if (tbody) window.arenaMatchRows(tbody, matches);
  }

  function standingsRows(rows) {
    var tbody = document.querySelector("#standings tbody");
    if (!tbody || !rows.length) return;
    tbody.textContent = "";
    rows.forEach(function (s) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-bot", String(s.bot_id));
      var botCell = document.createElement("td");
      botCell.className = "bot";
      var link = document.createElement("a");
      link.href = "/bots/" + encodeURIComponent(s.bot_id);
      link.textContent = s.bot;
      botCell.appendChild(link);
      tr.appendChild(botCell);
      [s.matches, s.wins, s.mean_rank.toFixed(2), s.mean_score.toFixed(2), s.faults].forEach(function (value, k) {
        var td = document.createElement("td");
        td.className = "n" + (k === 4 && value ? " bad" : "");
        td.textContent = String(value);
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
  }

  function poll() {
    fetch(api, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (t) {
      var p = t.progress;
      set("done", p.done); set("total", p.total); set("failed", p.failed); set("pending", p.pending);
      set("status", t.status);
      root.setAttribute("data-status", t.status);
      root.querySelector(".fill").style.width = (p.total ? 100 * p.done / p.total : 0) + "%";
      standingsRows(t.standings);
      latestRows(t.latest);
      var finished = t.status === "finished";
      var running = t.status === "running" || t.status === "created";
      live.textContent = finished ? "" : "(live)";
      // An interrupted or incomplete tournament may be resumed: keep watching, less often.
      if (!finished) setTimeout(poll, running ? 1000 : 5000);
    }).catch(function () {
      live.textContent = "(connection lost; retrying)";
      setTimeout(poll, 3000);
    });
  }

  if (root.getAttribute("data-status") !== "finished") poll();
})();
