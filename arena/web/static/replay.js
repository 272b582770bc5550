// The replay viewer: fetches the re-simulated steps from the API and steps through them.
// Keys: Left/Right one move, Home/End first/last.  The address follows the step shown
// (?step=N), and a page opened with ?step=N starts there, however far into the match.
// Bot-supplied text (names, actions,
// comments, events) goes in with textContent only; the board is the server's escaped drawing.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var api = root.getAttribute("data-api");
  var teams = JSON.parse(root.getAttribute("data-teams") || "[]");
  var viewSelect = document.getElementById("view");
  var counter = document.getElementById("step-counter");
  var board = document.getElementById("board");
  var moveBox = document.getElementById("move");
  var eventsList = document.getElementById("events");
  var timeline = document.getElementById("timeline");
  var outcomeBox = document.getElementById("outcome");
  var problemsBox = document.getElementById("problems");
  var luckChart = document.querySelector("svg.chart.luck");  // the match page's luck chart, if any
  var luckBox = document.getElementById("luck-step");
  var data = null;
  var index = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function moveText(move) {
    var text = "move " + move.number + ": seat " + move.seat + " (" + move.player + ") " + move.action;
    return text;
  }

  function appendTimeline(from) {
    data.steps.slice(from).forEach(function (step, k) {
      if (!step.move) return;
      var i = from + k;
      var m = step.move;
      var li = el("li", "status-" + m.status + (m.faults.length ? " fault" : ""));
      li.value = m.number;
      li.appendChild(el("span", "action", "seat " + m.seat + ": " + m.action));
      li.appendChild(el("span", "ms", " " + m.elapsed_ms.toFixed(1) + " ms"));
      if (m.status !== "ok") li.appendChild(el("span", "badge", " " + m.status));
      li.addEventListener("click", function () { go(i); });
      timeline.appendChild(li);
    });
  }

  function followStep(i) {  // replace, not push: stepping through a match is not a history of pages
    var params = new URLSearchParams(window.location.search);
    if (i) params.set("step", String(i)); else params.delete("step");  // step 0 is the plain address
    var query = params.toString();
    var url = window.location.pathname + (query ? "?" + query : "");
    if (url !== window.location.pathname + window.location.search) window.history.replaceState(null, "", url);
  }

  function placeCursor(i) {  // the luck chart's cursor at the step shown: the moves played so far
    if (!luckChart) return;
    var moves = Number(luckChart.getAttribute("data-moves")) || 1;
    var x = Number(luckChart.getAttribute("data-left")) + Number(luckChart.getAttribute("data-plot-width")) *
      Math.min(i, moves) / moves;
    var cursor = luckChart.querySelector(".cursor");
    cursor.setAttribute("x1", x.toFixed(1));
    cursor.setAttribute("x2", x.toFixed(1));
  }

  function signed(x) { return (x >= 0 ? "+" : "") + x.toFixed(2); }

  function showLuck(i) {  // the chance events of this step and what each gave every seat (the table's view only)
    if (!luckBox) return;
    luckBox.textContent = "";
    var here = data.luck ? data.luck.steps.filter(function (s) { return s[0] === i; }) : [];
    luckBox.hidden = !here.length;
    here.forEach(function (s) {
      luckBox.appendChild(el("div", "", "luck of " + s[1] + ": " + s[2].map(function (x, seat) {
        return "seat " + seat + " " + signed(x);
      }).join(", ")));
    });
  }

  function show(i) {
    if (!data) return;
    index = Math.max(0, Math.min(data.steps.length - 1, i));
    var step = data.steps[index];
    placeCursor(index);
    showLuck(index);
    counter.textContent = "step " + index + "/" + (total - 1) + (data.steps.length < total ? " (loading)" : "");
    counter.setAttribute("data-step", String(index));
    counter.setAttribute("data-last", String(total - 1));
    if (pending === null) followStep(index);
    board.innerHTML = step.html;  // server-made SVG/HTML in which every text is escaped
    moveBox.textContent = "";
    if (step.move) {
      var m = step.move;
      moveBox.appendChild(el("span", "action", moveText(m)));
      moveBox.appendChild(el("span", "ms", " · " + m.elapsed_ms.toFixed(1) + " ms"));
      if (m.status !== "ok") moveBox.appendChild(el("span", "badge bad", " " + m.status));
      if (m.comment) moveBox.appendChild(el("q", "comment", m.comment));
      m.faults.forEach(function (f) {
        moveBox.appendChild(el("div", "fault bad", "fault: " + f.kind + ": " + f.detail));
      });
    } else {
      moveBox.appendChild(el("span", "action", "start"));
    }
    eventsList.textContent = "";
    step.events.forEach(function (e) {
      var text = e.text;
      var li = el("li", e.visible_to ? "private" : "", text);
      if (e.visible_to) li.appendChild(el("small", "", " (seen by seat " + e.visible_to.join(", ") + ")"));
      eventsList.appendChild(li);
    });
    var items = timeline.children;
    for (var k = 0; k < items.length; k++) {
      items[k].classList.toggle("current", k === index - 1);
    }
    if (index > 0 && items[index - 1] && items[index - 1].scrollIntoView) {
      items[index - 1].scrollIntoView({block: "nearest"});
    }
    if (step.outcome) {
      outcomeBox.hidden = false;
      outcomeBox.textContent = "";
      outcomeBox.appendChild(el("strong", "", "Result: "));
      // Best first: rank 1 is the best (the API's ranks count from 1), ties share a rank; a
      // team (Jass) is one entry, placed among the teams (1 and 2, not 1 and 3).
      var ranking = step.outcome.ranking;
      var entries = teams.length ? teams.map(function (team) { return {rank: ranking[team[0]], seats: team}; })
        : ranking.map(function (rank, seat) { return {rank: rank, seats: [seat]}; });
      entries.sort(function (a, b) { return a.rank - b.rank || a.seats[0] - b.seats[0]; });
      var scores = el("span", "scores", entries.map(function (entry) {
        var place = 1 + entries.filter(function (other) { return other.rank < entry.rank; }).length;
        var names = entry.seats.map(function (seat) { return "seat " + seat + ": " + data.players[seat]; }).join(" and ");
        return "#" + place + " " + (entry.seats.length > 1 ? "team " : "") + names + " "
          + step.outcome.scores[entry.seats[0]];
      }).join(" · "));
      scores.setAttribute("data-scores", JSON.stringify(step.outcome.scores));
      scores.setAttribute("data-ranks", JSON.stringify(ranking));
      outcomeBox.appendChild(scores);
      outcomeBox.appendChild(el("div", "meta", step.outcome.detail));
    } else {
      outcomeBox.hidden = true;
    }
  }

  var PAGE = 40;  // steps per request: the first page shows at once, the rest arrive behind it
  var total = 0;
  var pending = null;  // a step asked for (End, a held arrow key) that has not arrived yet
  var loading = 0;  // bumped by each load, so a page of a replaced view is dropped

  function go(i) {
    if (!data) return;
    var last = total - 1;
    i = Math.max(0, Math.min(last, i));
    if (i > data.steps.length - 1) {
      pending = i;
      i = data.steps.length - 1;
    } else {
      pending = null;
    }
    show(i);
  }

  function showProblems() {
    problemsBox.hidden = !data.problems.length && !data.faults.length;
    problemsBox.textContent = "";
    data.problems.forEach(function (p) { problemsBox.appendChild(el("div", "", "replay: " + p)); });
    data.faults.forEach(function (f) {
      problemsBox.appendChild(el("div", "", "fault: seat " + f.seat + " " + f.kind + ": " + f.detail));
    });
  }

  function fetchPage(view, from, ticket) {
    return fetch(api + "?view=" + encodeURIComponent(view) + "&from=" + from + "&count=" + PAGE).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (json) {
      if (ticket !== loading) return null;
      return json;
    });
  }

  function more(view, ticket) {
    if (!data || ticket !== loading) return;
    if (data.steps.length >= total) {
      root.setAttribute("data-ready", view);
      if (pending !== null) go(pending);
      return;
    }
    fetchPage(view, data.steps.length, ticket).then(function (json) {
      if (!json) return;
      if (!json.steps.length) total = data.steps.length;  // the record stops replaying: what is there is all
      var before = data.steps.length;
      Array.prototype.push.apply(data.steps, json.steps);
      if (json.problems.length) {  // the page that reaches the end carries the replay's findings
        data.problems = json.problems;
        showProblems();
      }
      appendTimeline(before);
      if (pending !== null) go(pending); else show(index);
      more(view, ticket);
    }).catch(function (err) {
      counter.textContent = "could not load the replay: " + err.message;
    });
  }

  function load(view, keep) {
    counter.textContent = "loading…";
    root.removeAttribute("data-ready");
    var ticket = ++loading;
    pending = null;
    fetchPage(view, 0, ticket).then(function (json) {
      if (!json) return;
      data = json;
      total = json.total_steps;
      showProblems();
      timeline.textContent = "";
      appendTimeline(0);
      go(keep);
      more(view, ticket);
    }).catch(function (err) {
      counter.textContent = "could not load the replay: " + err.message;
    });
  }

  if (luckChart) {  // a click on a chance event of the luck chart shows the step it happened at
    Array.prototype.forEach.call(luckChart.querySelectorAll(".event"), function (mark) {
      mark.addEventListener("click", function () { go(Number(mark.getAttribute("data-move"))); });
    });
  }
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(index - 1); });
  document.getElementById("next").addEventListener("click", function () { go(index + 1); });
  document.getElementById("last").addEventListener("click", function () { go(total - 1); });
  viewSelect.addEventListener("change", function () { load(viewSelect.value, index); viewSelect.blur(); });
  document.addEventListener("keydown", function (event) {
    if (!data || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    var moves = {ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: total - 1};
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
  var asked = parseInt(new URLSearchParams(window.location.search).get("step"), 10);
  load(viewSelect.value, asked >= 0 ? asked : 0);
})();
