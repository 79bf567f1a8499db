// Sortable comparison tables: a header becomes a button that sorts its column (numbers as numbers),
// and again the other way. Without JavaScript the table reads as published, in the query's order.
(function () {
  "use strict";
  function key(cell, numeric) {
    var text = cell.textContent.trim();
    if (!numeric) return text.toLowerCase();
    var n = parseFloat(text.replace(/,/g, ""));
    return isNaN(n) ? -Infinity : n;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var body = table.tBodies[0];
    table.querySelectorAll("thead th").forEach(function (th, column) {
      var numeric = th.classList.contains("num");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = th.textContent;
      button.title = "Sort by " + th.textContent;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        table.querySelectorAll("thead th").forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[column], numeric), y = key(b.cells[column], numeric);
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
