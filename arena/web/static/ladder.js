// A ladder page that follows the ladder: polls /api/ladders/{id}?since=ID every 2 s while a
// process runs it (every 10 s otherwise: it may be started again) and updates the status line,
// the leaderboard and the latest matches in place. The page is complete without it. After the
// first answer, each poll asks only for the played matches above `next_since`, which the
// server keeps below every match still in play, and merges them by id.
(function () {
  "use strict";
  var root = document.getElementById("ladder");
  if (!root) return;
  var api = root.getAttribute("data-api");
  var live = document.getElementById("live");
  var since = null;
  var latest = [];
  var LATEST = 10;

  function set(id, value) { document.getElementById(id).textContent = String(value); }

  function num(value, digits) { return value === null || value === undefined ? "" : value.toFixed(digits); }

  // As arena.league.queries.age_text: "42 s ago", "5 min ago", "3 h ago".
  function ago(seconds) {
    var whole = Math.max(0, Math.floor(seconds));
    return whole < 120 ? whole + " s ago" : whole < 7200 ? Math.floor(whole / 60) + " min ago"
      : Math.floor(whole / 3600) + " h ago";
  }

  function cell(tr, text, className) {
    var td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = String(text);
    tr.appendChild(td);
    return td;
  }

  function boardRows(entrants) {
    var tbody = document.querySelector("#board tbody");
    if (!tbody || !entrants.length) return;
    tbody.textContent = "";
    entrants.forEach(function (e) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-bot", String(e.bot_id));
      tr.className = "state-" + e.state;
      cell(tr, e.rank || "", "n");
      var botCell = cell(tr, "", "bot");
      var link = document.createElement("a");
      link.href = "/bots/" + encodeURIComponent(e.bot_id);
      link.textContent = e.bot;
      botCell.appendChild(link);
      if (e.boss) {
        var mark = document.createElement("span");
        mark.className = "boss";
        mark.title = "a reference bot: never retired";
        mark.textContent = "boss";
        botCell.appendChild(document.createTextNode(" "));
        botCell.appendChild(mark);
      }
      cell(tr, e.state, "state");
      cell(tr, num(e.mu, 2), "n");
      cell(tr, num(e.sigma, 2), "n");
      cell(tr, num(e.conservative === null && e.rank ? e.mu : e.conservative, 2), "n strong");
      cell(tr, e.rank ? (e.best_rank === e.worst_rank ? e.best_rank : e.best_rank + "-" + e.worst_rank) : "");
      cell(tr, e.tied_with.join(" "));
      cell(tr, num(e.los_next, 3), "n los");
      cell(tr, e.matches, "n matches");
      cell(tr, num(e.per_minute, 1), "n");
      var last = cell(tr, "", "last");
      if (e.last_match) {
        var when = document.createElement("time");
        when.setAttribute("datetime", e.last_match);
        when.title = e.last_match;
        when.textContent = ago(e.last_match_age_s);
        last.appendChild(when);
      }
      cell(tr, e.reason, "reason");
      tbody.appendChild(tr);
    });
  }

  function mergeLatest(matches) {
    var byId = {};
    latest.concat(matches).forEach(function (m) { byId[m.id] = m; });
    latest = Object.keys(byId).map(function (id) { return byId[id]; })
      .sort(function (a, b) { return b.id - a.id; }).slice(0, LATEST);
    var tbody = document.querySelector("#latest tbody");
    if (tbody && latest.length) window.arenaMatchRows(tbody, latest);
  }

  function poll() {
    var url = api + (since === null ? "" : "?since=" + encodeURIComponent(since));
    fetch(url, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (l) {
      var state = document.getElementById("state");
      state.textContent = "";
      var b = document.createElement("b");
      b.className = l.running ? "running" : "stopped";
      b.textContent = l.running ? "running" : "not running";
      state.appendChild(b);
      set("per-minute", l.matches_per_minute.toFixed(1));
      set("in-flight", l.in_flight);
      set("done", l.matches_done);
      set("failed", l.matches_failed);
      set("note", l.note);
      document.getElementById("note").hidden = !l.note;
      boardRows(l.entrants);
      mergeLatest(l.latest);
      since = l.next_since;
      live.textContent = l.running ? "(live)" : "";
      setTimeout(poll, l.running ? 2000 : 10000);
    }).catch(function () {
      live.textContent = "(connection lost; retrying)";
      setTimeout(poll, 5000);
    });
  }

  poll();
})();
