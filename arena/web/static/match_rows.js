// The rows of a match table (macros.html's match_rows) drawn from the JSON API's matches, for
// the pages that update in place (live.js, ladder.js). Bot text goes in as textContent only.
(function () {
  "use strict";
  window.arenaMatchRows = function (tbody, matches) {
    tbody.textContent = "";
    matches.forEach(function (m) {
      var tr = document.createElement("tr");
      tr.className = "status-" + m.status + (m.faults ? " has-faults" : "");
      tr.setAttribute("data-match", String(m.id));
      var idCell = document.createElement("td");
      var link = document.createElement("a");
      link.href = "/matches/" + encodeURIComponent(m.id);
      link.textContent = String(m.id);
      idCell.appendChild(link);
      tr.appendChild(idCell);
      var cells = [m.tournament_id || "", m.game + " (" + m.variant + ")",
        m.seats.map(function (s) { return s.bot + (s.rank ? " #" + s.rank : ""); }).join(", "),
        m.status, m.seats.map(function (s) { return s.score === null ? "" : String(s.score); }).join(" · "),
        m.reason || ""];
      cells.forEach(function (text) {
        var td = document.createElement("td");
        td.textContent = String(text);
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
  };
})();
