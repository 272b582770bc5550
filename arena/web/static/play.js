// The person's seat: long-polls the seat's view from the API and sends the chosen action.
// Keys: 1-9 choose that button; Up/Down move the selection, Enter sends it.  Cards that a
// legal action names are marked playable: a click sends the one action naming it (or marks
// the buttons naming it); a card no action names says why (the server's reason, in the
// game's words).  Dice: Yahtzee's rerolls are one Reroll button over the dice picked by
// clicking them, which sends exactly the legal "reroll ..." action of those dice.
// The page tells the server it is there (each poll) and that it is closing (a beacon on
// pagehide): a closed tab's seat leaves soon, as "Leave" does (docs/play.md).
// Bot-supplied text goes in with textContent only; the board is the server's escaped drawing.
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
  var how = document.getElementById("how");
  var cardNote = document.getElementById("card-note");
  var playersList = document.getElementById("players");
  var eventsList = document.getElementById("events");
  var resultBox = document.getElementById("result");
  var version = -1;
  var pending = null;
  var deadline = 0;
  var selected = 0;
  var sending = false;
  var over = false;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function buttons() { return actionsList.querySelectorAll("button:not([disabled])"); }

  function select(i) {
    var all = buttons();
    if (!all.length) return;
    selected = (i + all.length) % all.length;
    actionsList.querySelectorAll("button").forEach(function (b) { b.classList.remove("selected"); });
    all[selected].classList.add("selected");
    all[selected].focus();
  }

  function send(index) {
    if (!pending || sending || index === null || index === undefined) return;
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

  function actionButton(label, index) {
    var b = el("button", "action", label);
    b.setAttribute("data-label", label);
    b.setAttribute("data-index", String(index));
    b.addEventListener("click", function () { send(Number(b.getAttribute("data-index"))); });
    return b;
  }

  function group(title, cls) {
    var li = el("li", "group " + cls);
    li.appendChild(el("span", "group-title", title));
    actionsList.appendChild(li);
    return li;
  }

  function renumber() {  // the keys 1-9 press the enabled buttons in order: their labels say which
    actionsList.querySelectorAll("button").forEach(function (b) { b.textContent = b.getAttribute("data-label"); });
    buttons().forEach(function (b, k) { if (k < 9) b.textContent = (k + 1) + ". " + b.textContent; });
  }

  function rerolls(p) { return p.actions.filter(function (a) { return a.text.indexOf("reroll ") === 0; }); }

  function showActions(p) {
    pending = p;
    sending = false;
    actionsList.textContent = "";
    actionsList.classList.remove("sent");
    cardNote.textContent = "";
    if (!p) { actionsBox.hidden = true; markCards(); return; }
    actionsBox.hidden = false;
    how.textContent = "(" + p.hint + "; keys 1–9, ↑ ↓ and Enter)";
    deadline = Date.now() + p.ms_left;
    var dice = rerolls(p);
    if (dice.length) {  // Yahtzee: the dice are the toggles, one Reroll button sends their reroll
      var roll = group("roll again:", "rerolls");
      var b = actionButton("Reroll the picked dice", "");
      b.id = "reroll";
      b.disabled = true;
      roll.appendChild(b);
      var scores = group("or score:", "scores");
      p.actions.forEach(function (a) { if (dice.indexOf(a) < 0) scores.appendChild(actionButton(a.text, a.index)); });
    } else {
      var list = group("", "all");
      p.actions.forEach(function (a) { list.appendChild(actionButton(a.text, a.index)); });
    }
    renumber();
    markCards();
    select(0);
    tick();
  }

  function named() {
    var words = {};
    if (pending) pending.actions.forEach(function (a) { a.text.split(" ").forEach(function (w) { words[w] = true; }); });
    return words;
  }

  function markCards() {  // playable cards stand out; the hand's others are dimmed, with the reason
    var words = named();
    board.querySelectorAll("[data-card]").forEach(function (card) {
      var text = card.getAttribute("data-card");
      var blocked = pending && pending.blocked[text];
      card.classList.toggle("playable", !!(pending && words[text]));
      card.classList.toggle("blocked", !!blocked);
      var title = card.querySelector("title");
      if (blocked && !title) {
        title = document.createElementNS("http://www.w3.org/2000/svg", "title");
        card.appendChild(title);
      }
      if (title) title.textContent = blocked || "";
    });
  }

  function tick() {
    if (pending && !sending) {
      var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      var bank = Math.floor(pending.bank_ms / 1000);
      var own = left - bank;
      clock.textContent = own > 0 ? "your clock: " + own + " s" + (bank ? " (then " + bank + " s of time bank)" : "")
        : "your time bank: " + left + " s";
      clock.classList.toggle("low", left <= 10);
    } else {
      clock.textContent = "";
    }
  }

  function showResult(data) {
    resultBox.hidden = false;
    resultBox.textContent = "";
    var r = data.result || {};
    resultBox.appendChild(el("p", "", r.reason || ""));
    if (r.ranking) resultBox.appendChild(rankList(data, r));
    if (data.match_id !== null) {
      var a = el("a", "", "replay match " + data.match_id);
      a.href = "/play/matches/" + data.match_id;
      a.id = "replay-link";
      resultBox.appendChild(a);
    }
  }

  function seatName(data, seat) {
    return "seat " + seat + ": " + data.players[seat] + (seat === data.seat ? " (you)" : "");
  }

  function rankList(data, r) {
    // Best first; a team (Jass) is one line, ranked among the teams (1 and 2, not 1 and 3).
    var entries = data.teams.length ? data.teams.map(function (team) {
      return {rank: r.ranking[team[0]], seats: team};
    }) : r.ranking.map(function (rank, seat) { return {rank: rank, seats: [seat]}; });
    entries.sort(function (a, b) { return a.rank - b.rank || a.seats[0] - b.seats[0]; });
    var ol = el("ol", "ranks");
    entries.forEach(function (entry) {
      var place = 1 + entries.filter(function (other) { return other.rank < entry.rank; }).length;
      var names = entry.seats.map(function (seat) {
        return seatName(data, seat) + (r.forfeited.indexOf(seat) >= 0 ? " (forfeited)" : "");
      }).join(" and ");
      var li = el("li", "", "#" + place + " " + (entry.seats.length > 1 ? "team " : "") + names + ": "
                  + r.scores[entry.seats[0]]);
      li.setAttribute("data-place", String(place));
      ol.appendChild(li);
    });
    return ol;
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
      var li = el("li", seat === data.seat ? "you" : "", seatName(data, seat));
      if (seat === data.to_play) li.classList.add("to-play");
      playersList.appendChild(li);
    });
    eventsList.textContent = "";
    data.events.forEach(function (text) { eventsList.appendChild(el("li", "", text)); });
    var scroller = eventsList.closest("aside") || eventsList;  // the panel scrolls, not the list
    scroller.scrollTop = scroller.scrollHeight;
    var samePending = pending && data.pending && pending.number === data.pending.number;
    if (!samePending) showActions(data.pending); else markCards();
    if (data.status === "done" || data.status === "failed") {
      over = true;
      leave.hidden = true;
      confirmBox.hidden = true;
      statusBox.textContent = data.status === "done" ? "the match is over" : "the match failed";
      statusBox.setAttribute("data-status", data.status);
      showResult(data);
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

  function pickedValues() {
    var values = [];
    board.querySelectorAll("svg.dice .picked[data-value]").forEach(function (d) {
      values.push(Number(d.getAttribute("data-value")));
    });
    return values.sort(function (a, b) { return a - b; });
  }

  function pickDie(die) {
    // Clicking toggles a die; the Reroll button then sends the legal reroll of the picked values.
    die.classList.toggle("picked");
    var values = pickedValues();
    var wanted = "reroll " + values.join(" ");
    var match = rerolls(pending).filter(function (a) { return a.text === wanted; })[0];
    var b = document.getElementById("reroll");
    b.disabled = !match;
    b.setAttribute("data-index", match ? String(match.index) : "");
    b.setAttribute("data-label", match ? "Reroll " + values.join(" ") : "Reroll the picked dice");
    renumber();
    if (match) select(0);
  }

  board.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    var die = event.target.closest("svg.dice [data-value]");
    if (die && pending && rerolls(pending).length) { pickDie(die); return; }
    var card = event.target.closest("[data-card]");
    if (!card) return;
    var text = card.getAttribute("data-card");
    if (!pending) { cardNote.textContent = over ? "" : "wait for your turn"; return; }
    if (pending.blocked[text]) { cardNote.textContent = text + ": " + pending.blocked[text]; return; }
    var matching = [];
    pending.actions.forEach(function (a) { if (a.text.split(" ").indexOf(text) >= 0) matching.push(a.index); });
    if (matching.length === 1) { send(matching[0]); return; }
    cardNote.textContent = matching.length ? text + ": choose one of the marked buttons" : "";
    actionsList.querySelectorAll("button").forEach(function (b) {
      b.classList.toggle("matches-card", matching.indexOf(Number(b.getAttribute("data-index"))) >= 0);
    });
  });

  document.addEventListener("keydown", function (event) {
    if (!pending || event.altKey || event.ctrlKey || event.metaKey) return;
    var all = buttons();
    if (/^[1-9]$/.test(event.key)) {
      var k = Number(event.key) - 1;
      if (k < all.length) { event.preventDefault(); all[k].click(); }
    } else if (event.key === "ArrowDown" || event.key === "ArrowRight") {
      event.preventDefault(); select(selected + 1);
    } else if (event.key === "ArrowUp" || event.key === "ArrowLeft") {
      event.preventDefault(); select(selected - 1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (all[selected]) all[selected].click();
    }
  });

  // Leaving forfeits: a first click asks, a second one (Yes) leaves.
  var leave = document.getElementById("leave");
  var confirmBox = document.getElementById("leave-confirm");
  leave.addEventListener("click", function () { leave.hidden = true; confirmBox.hidden = false; });
  document.getElementById("leave-no").addEventListener("click", function () {
    confirmBox.hidden = true; leave.hidden = false;
  });
  document.getElementById("leave-yes").addEventListener("click", function () {
    confirmBox.hidden = true;
    statusBox.textContent = "leaving: your seat forfeits";
    fetch(api + "/leave", {method: "POST", headers: {"X-CSRF-Token": csrf}});
  });

  window.addEventListener("pagehide", function () {  // closing or reloading: the server waits briefly
    if (over || !navigator.sendBeacon) return;
    var body = new Blob(["csrf=" + encodeURIComponent(csrf)], {type: "application/x-www-form-urlencoded"});
    navigator.sendBeacon(api + "/closing", body);
  });

  actionsBox.hidden = true;
  setInterval(tick, 250);
  poll();
})();
