// The person's seat: long-polls the seat's view from the API and sends the chosen action.
// Keys: 1-9 choose that action; Up/Down move the selection, Enter sends it.  A click on a
// card sends the one legal action naming it (or marks the actions naming it); clicking dice
// picks them and selects the reroll of the picked ones.  Bot-supplied
// text goes in with textContent only; the board is the server's escaped drawing.
(function () {
  "use strict";
  var root = document.getElementById("play");
  if (!root) return;
  var api = root.getAttribute("data-api");
  var csrf = root.getAttribute("data-csrf");
  var board = document.getElementById("board");
  var statusBox = document.getElementById("status");
  var clock = document.getElementById("clock");
  var actionsBox = document.getElementById("actions-box");
  var actionsList = document.getElementById("actions");
  var playersList = document.getElementById("players");
  var eventsList = document.getElementById("events");
  var resultBox = document.getElementById("result");
  var version = -1;
  var pending = null;
  var deadline = 0;
  var selected = 0;
  var sending = false;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function buttons() { return actionsList.querySelectorAll("button"); }

  function select(i) {
    var all = buttons();
    if (!all.length) return;
    selected = (i + all.length) % all.length;
    all.forEach(function (b, k) { b.classList.toggle("selected", k === selected); });
    all[selected].focus();
  }

  function send(index) {
    if (!pending || sending) return;
    sending = true;
    actionsList.classList.add("sent");
    fetch(api + "/move", {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
                          body: JSON.stringify({number: pending.number, index: index})})
      .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
      .then(function (answer) {
        if (!answer.ok) { statusBox.textContent = answer.body.error || "refused"; sending = false; }
      })
      .catch(function () { sending = false; });
  }

  function showActions(p) {
    pending = p;
    sending = false;
    actionsList.textContent = "";
    actionsList.classList.remove("sent");
    if (!p) { actionsBox.hidden = true; return; }
    actionsBox.hidden = false;
    deadline = Date.now() + p.ms_left;
    p.actions.forEach(function (a, k) {
      var li = el("li");
      var b = el("button", "action", (k < 9 ? (k + 1) + ". " : "") + a.text);
      b.setAttribute("data-index", String(a.index));
      b.addEventListener("click", function () { send(a.index); });
      li.appendChild(b);
      actionsList.appendChild(li);
    });
    select(0);
    tick();
  }

  function tick() {
    if (pending && !sending) {
      var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      clock.textContent = "your clock: " + left + " s";
      clock.classList.toggle("low", left <= 10);
    } else {
      clock.textContent = "";
    }
  }

  function update(data) {
    version = data.version;
    var inviteBox = document.getElementById("invite-box");
    inviteBox.hidden = !data.invite;
    if (data.invite) {
      var link = document.getElementById("invite");
      link.href = data.invite;
      link.textContent = window.location.origin + data.invite;
    }
    board.innerHTML = data.board;  // server-made SVG/HTML in which every text is escaped
    playersList.textContent = "";
    data.players.forEach(function (name, seat) {
      var li = el("li", seat === data.seat ? "you" : "", name + (seat === data.seat ? " (you)" : ""));
      if (seat === data.to_play) li.classList.add("to-play");
      playersList.appendChild(li);
    });
    eventsList.textContent = "";
    data.events.forEach(function (text) { eventsList.appendChild(el("li", "", text)); });
    eventsList.scrollTop = eventsList.scrollHeight;
    var samePending = pending && data.pending && pending.number === data.pending.number;
    if (!samePending) showActions(data.pending);
    if (data.status === "done" || data.status === "failed") {
      leave.hidden = true;
      statusBox.textContent = data.status === "done" ? "the match is over" : "the match failed";
      statusBox.setAttribute("data-status", data.status);
      resultBox.hidden = false;
      resultBox.textContent = "";
      var r = data.result || {};
      resultBox.appendChild(el("p", "", r.reason || ""));
      if (r.ranking) {
        var ol = el("ol", "ranks");
        data.players.forEach(function (name, seat) {
          ol.appendChild(el("li", "", "#" + (r.ranking[seat] + 1) + " " + name + (seat === data.seat ? " (you)" : "")
                            + ": " + r.scores[seat] + (r.forfeited.indexOf(seat) >= 0 ? " (forfeited)" : "")));
        });
        resultBox.appendChild(ol);
      }
      if (data.match_id !== null) {
        var a = el("a", "", "replay match " + data.match_id);
        a.href = "/play/matches/" + data.match_id;
        a.id = "replay-link";
        resultBox.appendChild(a);
      }
      return false;
    }
    statusBox.textContent = data.status === "starting" ? "starting the bots…"
      : (data.pending ? "your move" : "waiting for seat " + data.to_play);
    statusBox.setAttribute("data-status", data.status);
    return true;
  }

  function poll() {
    fetch(api + (version < 0 ? "" : "?after=" + version), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (data) { if (update(data)) poll(); })
      .catch(function () { setTimeout(poll, 1000); });
  }

  function pickDie(die) {
    // Dice: clicking toggles a die; the reroll of the picked values is selected (Enter sends it).
    die.classList.toggle("picked");
    var values = [];
    board.querySelectorAll("svg.dice .picked[data-value]").forEach(function (d) {
      values.push(Number(d.getAttribute("data-value")));
    });
    values.sort();
    var wanted = "reroll " + values.join(" ");
    buttons().forEach(function (b, k) {
      var index = Number(b.getAttribute("data-index"));
      if (pending.actions[index].text === wanted) select(k);
    });
  }

  board.addEventListener("click", function (event) {
    if (!pending || !event.target.closest) return;
    var die = event.target.closest("svg.dice [data-value]");
    if (die) { pickDie(die); return; }
    var card = event.target.closest("[data-card]");
    if (!card) return;
    var text = card.getAttribute("data-card");
    var matching = [];
    pending.actions.forEach(function (a) { if (a.text.split(" ").indexOf(text) >= 0) matching.push(a.index); });
    if (matching.length === 1) { send(matching[0]); return; }
    buttons().forEach(function (b) {
      b.classList.toggle("matches-card", matching.indexOf(Number(b.getAttribute("data-index"))) >= 0);
    });
  });

  document.addEventListener("keydown", function (event) {
    if (!pending || event.altKey || event.ctrlKey || event.metaKey) return;
    if (/^[1-9]$/.test(event.key)) {
      var k = Number(event.key) - 1;
      if (k < pending.actions.length) { event.preventDefault(); send(pending.actions[k].index); }
    } else if (event.key === "ArrowDown" || event.key === "ArrowRight") {
      event.preventDefault(); select(selected + 1);
    } else if (event.key === "ArrowUp" || event.key === "ArrowLeft") {
      event.preventDefault(); select(selected - 1);
    } else if (event.key === "Enter") {
      event.preventDefault(); send(pending.actions[selected].index);
    }
  });

  var leave = document.getElementById("leave");
  leave.addEventListener("click", function () {
    leave.disabled = true;
    fetch(api + "/leave", {method: "POST", headers: {"X-CSRF-Token": csrf}});
  });

  actionsBox.hidden = true;
  setInterval(tick, 250);
  poll();
})();
