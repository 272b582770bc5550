// The Play form: offer only the seats of the players chosen (you and the opponents picked),
// so that a seat beyond them cannot be chosen.  The server checks the choice again.
(function () {
  "use strict";
  var form = document.getElementById("play-form");
  if (!form) return;
  var seat = form.querySelector("select[name=seat]");
  var slots = form.querySelectorAll("select[name=opponent]");

  function update() {
    var players = 1;
    slots.forEach(function (s) { if (s.value) players += 1; });
    Array.prototype.forEach.call(seat.options, function (option) {
      option.disabled = option.hidden = Number(option.value) >= players;
    });
    if (Number(seat.value) >= players) seat.value = String(players - 1);
  }

  slots.forEach(function (s) { s.addEventListener("change", update); });
  update();
})();
