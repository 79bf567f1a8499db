// Search on the index page, in the browser, over search-index.js (no server, no other host).
(function () {
  "use strict";
  var form = document.getElementById("search");
  var input = document.getElementById("q");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var index = self.BENCHKG_SEARCH || [];
  var LIMIT = 50;
  if (!form || !input || !list) return;
  form.hidden = false;
  function run() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!words.length) { status.textContent = ""; return; }
    var hits = index.filter(function (e) {
      var text = e[3];
      return words.every(function (w) { return text.indexOf(w) !== -1; });
    });
    hits.slice(0, LIMIT).forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = e[0];
      a.textContent = e[1];
      li.appendChild(a);
      li.appendChild(document.createTextNode(" — " + e[2]));
      list.appendChild(li);
    });
    status.textContent = hits.length === 0 ? "No match." :
      hits.length > LIMIT ? hits.length + " matches; the first " + LIMIT + " are shown." :
      hits.length + (hits.length === 1 ? " match." : " matches.");
  }
  input.addEventListener("input", run);
  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(); });
  if (input.value) run();
})();
