/* cipherlab's book script: plain JavaScript shipped with the book, no CDN, works from file://.
 *
 * 1. The verdict page's filter (form.cl-filter): rows of table.cl-verdicts carry data-paper,
 *    data-tier and data-verdict; the selects hide the rows that do not match, a paper's section
 *    whose rows are all hidden is hidden too, and the count says how many rows are shown.  The
 *    page's query string presets the filter: verdicts.html?paper=003&verdict=contradicted.
 * 2. The theme's ".pdf" download entry only called window.print(): it now links the real PDFs
 *    that `make pdf` writes (pdf/report-<paper>.pdf on a referee's report, else pdf/cipherlab-book.pdf).
 * 3. Printing from the browser opens every fold first (beforeprint), as `make pdf` prints them.
 */
(function () {
  "use strict";

  function applyFilter(form) {
    var want = {};
    form.querySelectorAll("select[data-filter]").forEach(function (s) { want[s.dataset.filter] = s.value; });
    var rows = document.querySelectorAll("table.cl-verdicts tbody tr[data-verdict]");
    var shown = 0;
    rows.forEach(function (tr) {
      var ok = Object.keys(want).every(function (k) { return !want[k] || tr.dataset[k] === want[k]; });
      tr.hidden = !ok;
      if (ok) { shown += 1; }
    });
    document.querySelectorAll("table.cl-verdicts").forEach(function (table) {
      var sec = table.closest("section");
      if (!sec) { return; }
      var any = table.querySelector("tbody tr[data-verdict]:not([hidden])") !== null;
      sec.classList.toggle("cl-filtered-out", !any);
    });
    var count = form.querySelector(".cl-filter-count");
    if (count) { count.textContent = shown + " of " + rows.length + " rows shown"; }
    form.dataset.visible = String(shown);
    var params = new URLSearchParams();
    Object.keys(want).forEach(function (k) { if (want[k]) { params.set(k, want[k]); } });
    if (window.history && window.history.replaceState && location.protocol !== "file:") {
      var q = params.toString();
      window.history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
    }
  }

  function setUpFilter() {
    var form = document.querySelector("form.cl-filter");
    if (!form) { return; }
    var params = new URLSearchParams(location.search);
    form.querySelectorAll("select[data-filter]").forEach(function (s) {
      var v = params.get(s.dataset.filter);
      if (v !== null && Array.prototype.some.call(s.options, function (o) { return o.value === v; })) {
        s.value = v;
      }
      s.addEventListener("change", function () { applyFilter(form); });
    });
    applyFilter(form);
  }

  function linkPdf() {
    var page = location.pathname.split("/").pop() || "";
    var m = page.match(/^report_(\d{3})\.html$/);
    var target = m ? "pdf/report-" + m[1] + ".pdf" : "pdf/cipherlab-book.pdf";
    document.querySelectorAll(".btn-download-pdf-button").forEach(function (btn) {
      var a = document.createElement("a");
      a.href = target;
      a.className = btn.className;
      a.title = "PDF written by make pdf (" + target + ")";
      a.innerHTML = btn.innerHTML;
      btn.replaceWith(a);
    });
  }

  // 3. A reader who prints a page from the browser gets its folds open, as `make pdf` prints them;
  //    those the reader had closed close again afterwards.
  function openFoldsForPrint() {
    var opened = [];
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll("details:not([open])").forEach(function (d) { d.open = true; opened.push(d); });
    });
    window.addEventListener("afterprint", function () {
      opened.forEach(function (d) { d.open = false; });
      opened = [];
    });
  }

  function ready(fn) {
    if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); }
  }
  ready(function () { setUpFilter(); linkPdf(); openFoldsForPrint(); });
}());
