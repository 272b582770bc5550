// The replay viewer: fetches the re-simulated steps from the API and steps through them.
// Keys: Left/Right one move, Home/End first/last.  Bot-supplied text (names, actions,
// comments, events) goes in with textContent only; the board is the server's escaped drawing.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var api = root.getAttribute("data-api");
  var viewSelect = document.getElementById("view");
  var counter = document.getElementById("step-counter");
  var board = document.getElementById("board");
  var moveBox = document.getElementById("move");
  var eventsList = document.getElementById("events");
  var timeline = document.getElementById("timeline");
  var outcomeBox = document.getElementById("outcome");
  var problemsBox = document.getElementById("problems");
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

  function buildTimeline() {
    timeline.textContent = "";
    data.steps.forEach(function (step, i) {
      if (!step.move) return;
      var m = step.move;
      var li = el("li", "status-" + m.status + (m.faults.length ? " fault" : ""));
      li.value = m.number;
      li.appendChild(el("span", "action", "seat " + m.seat + ": " + m.action));
      li.appendChild(el("span", "ms", " " + m.elapsed_ms.toFixed(1) + " ms"));
      if (m.status !== "ok") li.appendChild(el("span", "badge", " " + m.status));
      li.addEventListener("click", function () { show(i); });
      timeline.appendChild(li);
    });
  }

  function show(i) {
    if (!data) return;
    index = Math.max(0, Math.min(data.steps.length - 1, i));
    var step = data.steps[index];
    counter.textContent = "step " + index + "/" + (data.steps.length - 1);
    counter.setAttribute("data-step", String(index));
    counter.setAttribute("data-last", String(data.steps.length - 1));
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
      var scores = el("span", "scores", step.outcome.scores.map(function (s, seat) {
        return data.players[seat] + " " + s;
      }).join(" · "));
      scores.setAttribute("data-scores", JSON.stringify(step.outcome.scores));
      outcomeBox.appendChild(scores);
      outcomeBox.appendChild(el("div", "meta", step.outcome.detail));
    } else {
      outcomeBox.hidden = true;
    }
  }

  function load(view, keep) {
    counter.textContent = "loading…";
    fetch(api + "?view=" + encodeURIComponent(view)).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (json) {
      data = json;
      problemsBox.hidden = !data.problems.length && !data.faults.length;
      problemsBox.textContent = "";
      data.problems.forEach(function (p) { problemsBox.appendChild(el("div", "", "replay: " + p)); });
      data.faults.forEach(function (f) {
        problemsBox.appendChild(el("div", "", "fault: seat " + f.seat + " " + f.kind + ": " + f.detail));
      });
      buildTimeline();
      show(keep);
      root.setAttribute("data-ready", view);
    }).catch(function (err) {
      counter.textContent = "could not load the replay: " + err.message;
    });
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(index - 1); });
  document.getElementById("next").addEventListener("click", function () { show(index + 1); });
  document.getElementById("last").addEventListener("click", function () { show(data ? data.steps.length - 1 : 0); });
  viewSelect.addEventListener("change", function () { load(viewSelect.value, index); viewSelect.blur(); });
  document.addEventListener("keydown", function (event) {
    if (!data || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    var moves = {ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: data.steps.length - 1};
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key]);
  });
  load(viewSelect.value, 0);
})();
