/* extract report: renders the embedded JSON with DOM APIs only (createElement, textContent). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var papers = data.papers, rows = data.rows;
  var FIELD_LABEL = { method: "method", dataset: "dataset", result: "number (result)", setting: "number (setting)" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      parent.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return parent;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  /* ---------------------------------------------------------------- highlighting */
  // spans: [field, start, end, status]; nested spans nest; a span crossing its parent's end is split
  // into pieces that share one data-span number.
  function renderMarked(container, text, spans) {
    var q = [];
    for (var i = 0; i < spans.length; i++) {
      var s = spans[i];
      if (s[2] > s[1] && s[1] >= 0 && s[2] <= text.length) q.push({ f: s[0], s: s[1], e: s[2], id: i, st: s[3] || "" });
    }
    q.sort(function (a, b) { return a.s - b.s || b.e - a.e || a.id - b.id; });
    var stack = [{ node: container, e: text.length }], pos = 0;
    function emit(to) { if (to > pos) { add(stack[stack.length - 1].node, text.slice(pos, to)); pos = to; } }
    for (var k = 0; k < q.length; k++) {
      var sp = q[k];
      while (stack.length > 1 && stack[stack.length - 1].e <= sp.s) { emit(stack[stack.length - 1].e); stack.pop(); }
      emit(sp.s);
      var top = stack[stack.length - 1], end = sp.e;
      if (end > top.e) {  // crosses the enclosing span: render the rest after it closes
        var rest = { f: sp.f, s: top.e, e: sp.e, id: sp.id, st: sp.st }, j = k + 1;
        while (j < q.length && (q[j].s < rest.s || (q[j].s === rest.s && q[j].e >= rest.e))) j++;
        q.splice(j, 0, rest);
        end = top.e;
      }
      var m = el("mark", "hl hl-" + sp.f);
      m.setAttribute("data-span", String(sp.id));
      m.setAttribute("data-field", sp.f);
      m.title = (FIELD_LABEL[sp.f] || sp.f) + (sp.st === "fuzzy" ? " (matched ignoring case and markup)" : "");
      if (sp.st) m.setAttribute("data-status", sp.st);
      top.node.appendChild(m);
      stack.push({ node: m, e: end });
    }
    while (stack.length > 1) { emit(stack[stack.length - 1].e); stack.pop(); }
    emit(text.length);
  }

  // Evidence contexts mark their spans «like this»; marks (offsets of the spans) say
  // which: the abstract itself may hold « or ».
  function renderContext(parent, s, marks) {
    s = String(s);
    var pos = 0;
    (marks || []).forEach(function (m) {
      if (m[0] < pos || m[1] > s.length) return;
      add(parent, s.slice(pos, m[0]));
      add(parent, el("b", null, s.slice(m[0], m[1])));
      pos = m[1];
    });
    add(parent, s.slice(pos));
  }

  /* ---------------------------------------------------------------- header */
  var flagTypes = {};
  data.flagTypes.forEach(function (f) { flagTypes[f.code] = f; });
  document.getElementById("title").textContent = data.meta.title;
  document.title = data.meta.title;
  var sub = document.getElementById("subtitle");
  sub.textContent = data.meta.source + " \u00b7 generated " + data.meta.generated;
  var stats = document.getElementById("stats");
  data.meta.stats.forEach(function (s) { add(stats, add(el("span"), el("b", null, s[1]), " " + s[0])); });
  var legend = document.getElementById("legend");
  add(legend, "Highlights:");
  ["method", "dataset", "result", "setting"].forEach(function (f) {
    add(legend, el("mark", "hl hl-" + f + " swatch", FIELD_LABEL[f]));
  });

  /* ---------------------------------------------------------------- tabs */
  var views = { papers: document.getElementById("view-papers"), table: document.getElementById("view-table") };
  var tabButtons = document.querySelectorAll(".tabs button");
  function showView(name) {
    Object.keys(views).forEach(function (k) { views[k].hidden = k !== name; });
    tabButtons.forEach(function (b) { b.setAttribute("aria-selected", String(b.getAttribute("data-view") === name)); });
  }
  tabButtons.forEach(function (b) { b.addEventListener("click", function () { showView(b.getAttribute("data-view")); }); });
  document.getElementById("tab-papers").textContent = "Papers (" + papers.length + ")";
  document.getElementById("tab-table").textContent = "Comparison table (" + rows.length + ")";

  /* ---------------------------------------------------------------- papers view */
  var pState = { q: "", flag: "", sort: "score", page: 0, size: 20 };
  papers.forEach(function (p, i) {
    p._i = i;
    p._hay = [p.id, p.source, p.title || "", p.task, p.contribution, p.text || "", p.reason || "",
      p.methods.map(function (m) { return m[0]; }).join(" "), p.datasets.map(function (m) { return m[0]; }).join(" ")]
      .join("\n").toLowerCase();
    p._codes = p.flags.map(function (f) { return f.code; });
  });
  var flagCounts = {};
  papers.forEach(function (p) { p._codes.forEach(function (c) { flagCounts[c] = (flagCounts[c] || 0) + 1; }); });

  var chips = document.getElementById("flag-chips");
  function chip(code, label, n) {
    var b = el("button", "chip");
    b.type = "button";
    b.setAttribute("data-flag", code);
    b.setAttribute("aria-pressed", String(pState.flag === code));
    add(b, label, el("span", "n", n));
    b.addEventListener("click", function () { pState.flag = pState.flag === code ? "" : code; pState.page = 0; renderChips(); renderPapers(); });
    return b;
  }
  function renderChips() {
    clear(chips);
    add(chips, chip("", "All papers", papers.length));
    add(chips, chip("*", "Any flag", papers.filter(function (p) { return p.score > 0; }).length));
    data.flagTypes.forEach(function (f) { if (flagCounts[f.code]) add(chips, chip(f.code, f.label, flagCounts[f.code])); });
  }

  var ids = Object.create(null);
  papers.forEach(function (p) { ids[p.id] = true; });
  function paperMatches(p) {
    if (pState.flag === "*" && !(p.score > 0)) return false;
    if (ids[pState.q.trim()] === true) return p.id === pState.q.trim();  // an exact id shows that paper only
    if (pState.flag && pState.flag !== "*" && p._codes.indexOf(pState.flag) < 0) return false;
    if (pState.q) {
      var words = pState.q.toLowerCase().split(/\s+/).filter(Boolean);
      for (var i = 0; i < words.length; i++) if (p._hay.indexOf(words[i]) < 0) return false;
    }
    return true;
  }

  function nameList(items, cls) {
    if (!items.length) return el("div", "none", "none");
    var d = el("div", "names");
    items.forEach(function (m) {
      var c = el("mark", "hl hl-" + cls + (m[1] ? "" : " bad"), m[0]);
      if (!m[1]) c.title = "not found at its offsets in the abstract";
      add(d, c);
    });
    return d;
  }

  function paperCard(p) {
    var card = el("article", "paper" + (p.failed ? " failed" : ""));
    card.setAttribute("data-id", p.id);
    card.id = "paper-" + p._i;
    var head = el("div", "paper-head");
    var sc = el("span", "score " + (p.score >= 6 ? "s3" : p.score >= 3 ? "s2" : p.score >= 1 ? "s1" : ""), p.score);
    sc.title = "triage score";
    var titleBox = el("div");
    add(titleBox, el("div", "paper-title", p.title || p.task || (p.failed ? "Extraction failed" : "(no task)")));
    var meta = add(el("div", "paper-meta"));
    if (p.contribution) add(meta, el("span", "tag", p.contribution));
    add(meta, el("span", "mono", p.id));
    if (p.source) add(meta, " \u00b7 " + p.source);
    if (p.title && p.task) add(meta, " \u00b7 " + p.task);
    add(titleBox, meta);
    add(head, sc, titleBox);
    add(card, head);

    var body = el("div", "paper-body");
    var abs = el("div", "abstract");
    if (p.text) renderMarked(abs, p.text, p.spans);
    else add(abs, el("span", "none", "abstract not available"));
    var side = el("div", "side");
    if (p.failed) {
      add(side, el("h3", null, "Extraction"), el("div", "bad", "failed: " + p.reason));
    } else {
      add(side, el("h3", null, "Methods"), nameList(p.methods, "method"));
      add(side, el("h3", null, "Datasets"), nameList(p.datasets, "dataset"));
      add(side, el("h3", null, "Numbers"));
      if (!p.numbers.length) add(side, el("div", "none", "none"));
      else {
        var t = el("table", "nums"), tb = el("tbody");
        p.numbers.forEach(function (n) {
          var tr = el("tr");
          var v = el("td", "v" + (n[4] ? "" : " bad"), n[0]);
          v.title = "as written: " + n[1] + (n[4] ? "" : " (not found at its offsets)");
          add(tr, v, el("td", "k kind-" + n[2], n[2]), el("td", null, n[3]));
          add(tb, tr);
        });
        add(side, add(t, tb));
      }
      if (p.dropped.length) add(side, el("h3", null, "Dropped (not in the abstract)"), el("div", "bad", p.dropped.join("; ")));
    }
    add(side, el("h3", null, "Triage flags"));
    if (!p.flags.length) add(side, el("div", "none", "no flags"));
    else {
      var ul = el("ul", "flags");
      p.flags.forEach(function (f) {
        var li = el("li");
        li.setAttribute("data-flag", f.code);
        var fw = el("span", "flag-w", "+" + (f.points === undefined ? f.weight : f.points));
        fw.title = "weight " + f.weight + (f.points !== undefined && f.points !== f.weight ? ", counted per item" : "");
        add(li, el("span", "flag-name", f.label), fw);
        f.evidence.slice(0, 4).forEach(function (e) {
          var d = el("div", "ev");
          if (e.context) renderContext(d, e.context, e.marks);
          else if (e.text) add(d, el("b", null, e.text));
          if (e.note) add(d, (e.context || e.text ? " " : ""), el("span", "note", (e.context || e.text ? "\u2014 " : "") + e.note));
          add(li, d);
        });
        if (f.evidence.length > 4) add(li, el("div", "ev note", "+" + (f.evidence.length - 4) + " more"));
        add(ul, li);
      });
      add(side, ul);
    }
    add(body, abs, side);
    add(card, body);
    return card;
  }

  function pager(node, page, pages, total, onGo) {
    clear(node);
    var prev = el("button", "btn", "\u2039 Previous"), next = el("button", "btn", "Next \u203a");
    prev.type = next.type = "button";
    prev.disabled = page <= 0;
    next.disabled = page >= pages - 1;
    prev.setAttribute("data-dir", "prev");
    next.setAttribute("data-dir", "next");
    prev.addEventListener("click", function () { onGo(page - 1); });
    next.addEventListener("click", function () { onGo(page + 1); });
    add(node, prev, el("span", "count", "Page " + (total ? page + 1 : 0) + " of " + pages + " \u00b7 " + total + " shown"), next);
  }

  var plist = document.getElementById("paper-list");
  function renderPapers() {
    var list = papers.filter(paperMatches);
    if (pState.sort === "score") list.sort(function (a, b) { return b.score - a.score || a._i - b._i; });
    var pages = Math.max(1, Math.ceil(list.length / pState.size));
    pState.page = Math.min(pState.page, pages - 1);
    var slice = list.slice(pState.page * pState.size, (pState.page + 1) * pState.size);
    clear(plist);
    if (!slice.length) add(plist, el("div", "empty", "No paper matches."));
    var frag = document.createDocumentFragment();
    slice.forEach(function (p) { frag.appendChild(paperCard(p)); });
    plist.appendChild(frag);
    var go = function (pg) { pState.page = pg; renderPapers(); window.scrollTo(0, 0); };
    pager(document.getElementById("paper-pager-top"), pState.page, pages, list.length, go);
    pager(document.getElementById("paper-pager"), pState.page, pages, list.length, go);
  }
  var pf = document.getElementById("paper-filter");
  pf.addEventListener("input", function () { pState.q = pf.value; pState.page = 0; renderPapers(); });
  var ps = document.getElementById("paper-sort");
  ps.addEventListener("change", function () { pState.sort = ps.value; pState.page = 0; renderPapers(); });
  var psz = document.getElementById("paper-size");
  psz.addEventListener("change", function () { pState.size = parseInt(psz.value, 10) || 20; pState.page = 0; renderPapers(); });

  /* ---------------------------------------------------------------- table view */
  // row: [dataset, method, metric, value, unit, kind, paper label, paper id, value shown, method role,
  //       change, change shown, compared to]: an absolute value in 3/8, a change (gain, drop,
  //       speedup) in 10/11, never both; null is "none named"; method "" is the paper's own approach.
  var NONE = "\u2014", OWN = "(unnamed, own)";
  function shownCell(r, i) {
    if (i === 1 && r[1] === "" && r[9] === "proposed") return OWN;
    var v = r[i];
    return v === null || v === undefined || v === "" ? null : String(v);
  }
  var COLS = [
    { key: "dataset", label: "Dataset", i: 0 }, { key: "method", label: "Method", i: 1 },
    { key: "metric", label: "Metric", i: 2 }, { key: "value", label: "Value", i: 3, num: true },
    { key: "change", label: "Change", i: 10, num: true }, { key: "compared", label: "vs", i: 12 },
    { key: "unit", label: "Unit", i: 4 }, { key: "kind", label: "Kind", i: 5 }, { key: "paper", label: "Paper", i: 6 }];
  var tState = { q: "", kind: "", sort: null, dir: 1, page: 0, size: 100 };
  rows.forEach(function (r, i) {
    r._i = i;
    r._hay = [r[0], shownCell(r, 1), r[2], r[8], r[11], r[12], r[4], r[5], r[6], r[7]].filter(function (x) { return x; }).join("\n").toLowerCase();
  });
  var thead = document.querySelector("#cmp-table thead tr"), tbody = document.querySelector("#cmp-table tbody");
  COLS.forEach(function (c) {
    var th = el("th", null, c.label);
    th.setAttribute("data-key", c.key);
    th.setAttribute("aria-sort", "none");
    th.tabIndex = 0;
    var sortBy = function () {
      if (tState.sort === c.key) tState.dir = -tState.dir; else { tState.sort = c.key; tState.dir = 1; }
      thead.querySelectorAll("th").forEach(function (h) {
        h.setAttribute("aria-sort", h.getAttribute("data-key") === tState.sort ? (tState.dir > 0 ? "ascending" : "descending") : "none");
      });
      tState.page = 0;
      renderTable();
    };
    th.addEventListener("click", sortBy);
    th.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sortBy(); } });
    add(thead, th);
  });
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  function cmpRows(a, b) {
    var c = COLS.filter(function (x) { return x.key === tState.sort; })[0], va = a[c.i], vb = b[c.i], r;
    if (c.num) {
      var na = va === null || va === undefined, nb = vb === null || vb === undefined;
      if (na || nb) return na === nb ? a._i - b._i : (na ? 1 : -1);  // empty values last either way
      r = va - vb;
    } else {
      if (!va || !vb) return !va === !vb ? a._i - b._i : (!va ? 1 : -1);
      r = collator.compare(va, vb);
    }
    return r * tState.dir || a._i - b._i;
  }
  function renderTable() {
    var words = tState.q.toLowerCase().split(/\s+/).filter(Boolean);
    var list = rows.filter(function (r) {
      if (tState.kind && r[5] !== tState.kind) return false;
      for (var i = 0; i < words.length; i++) if (r._hay.indexOf(words[i]) < 0) return false;
      return true;
    });
    if (tState.sort) list.sort(cmpRows);
    var pages = Math.max(1, Math.ceil(list.length / tState.size));
    tState.page = Math.min(tState.page, pages - 1);
    var slice = list.slice(tState.page * tState.size, (tState.page + 1) * tState.size);
    clear(tbody);
    var frag = document.createDocumentFragment();
    slice.forEach(function (r) {
      var tr = el("tr");
      var v = el("td", "num value", r[8] || NONE), ch = el("td", "num change", r[11] || NONE);
      if (r[3] !== null && r[3] !== undefined) v.setAttribute("data-value", String(r[3]));
      if (r[10] !== null && r[10] !== undefined) ch.setAttribute("data-value", String(r[10]));
      var pid = el("button", "pid" + (r[6] === r[7] ? " mono" : ""), r[6]);
      pid.type = "button";
      pid.title = "show paper " + r[7];
      pid.setAttribute("data-id", r[7]);
      pid.addEventListener("click", function () { openPaper(r[7]); });
      function td(i, cls) {
        var t = shownCell(r, i);
        return t === null ? el("td", "none", NONE) : el("td", cls || null, t);
      }
      var m = td(1, r[9] ? "role-" + r[9] : null);
      if (r[9]) m.title = r[9] === "proposed" ? "the paper's own method" : "another named system";
      add(tr, td(0), m, td(2), v, ch, td(12), td(4), td(5, "kind-" + r[5]), add(el("td", "paper-cell"), pid));
      frag.appendChild(tr);
    });
    tbody.appendChild(frag);
    document.getElementById("table-empty").hidden = list.length > 0;
    pager(document.getElementById("table-pager"), tState.page, pages, list.length,
      function (pg) { tState.page = pg; renderTable(); });
  }
  var tf = document.getElementById("table-filter");
  tf.addEventListener("input", function () { tState.q = tf.value; tState.page = 0; renderTable(); });
  var tk = document.getElementById("table-kind");
  tk.addEventListener("change", function () { tState.kind = tk.value; tState.page = 0; renderTable(); });

  function openPaper(id) {
    pState.q = id; pState.flag = ""; pState.page = 0;
    pf.value = id;
    renderChips(); renderPapers(); showView("papers");
    window.scrollTo(0, 0);
  }

  renderChips();
  renderPapers();
  renderTable();
  document.documentElement.setAttribute("data-ready", "1");
})();
