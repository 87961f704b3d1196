// The explorer of the published studies (simkit/studies/explorer.py writes its data and chart spec into the page).
// The state is the address's hash, #study=NAME&table=8p2t&lineup=SPEC&source=N&change=TEXT; a query string of
// the same keys (?study=...) opens a view too, the hash winning. Nothing is fetched: vegaEmbed is inline.
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("explorer-data").textContent);
  const SPEC = JSON.parse(document.getElementById("explorer-chart").textContent);
  const KEYS = ["study", "table", "lineup", "source", "change"];
  const root = document.getElementById("explorer-app");

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const c of children) node.append(c);
    return node;
  }

  // The controls, in the order a reader narrows a view.
  const picks = {};
  const form = el("div", { class: "explorer-controls" });
  for (const [key, label] of [["study", "Study"], ["table", "Table"], ["lineup", "Line-up"], ["source", "Rows"],
                              ["change", "Change"]]) {
    picks[key] = el("select", { id: "explorer-" + key, name: key, "aria-label": label });
    form.append(el("label", { for: "explorer-" + key }, label, picks[key]));
  }
  // The chosen row's numbers, the chart of its neighbours (every change at its table and line-up), then
  // the commands that play it and where to read more.
  const title = el("p", { class: "explorer-title", id: "explorer-title" });
  const numbers = el("div", { class: "explorer-numbers", id: "explorer-numbers" });
  const chart = el("div", { class: "explorer-chart", id: "explorer-chart-view" });
  const commands = el("div", { class: "explorer-commands", id: "explorer-commands" });
  const link = el("a", { id: "explorer-permalink", href: "#" }, "Permalink to this view");
  root.replaceChildren(form, title, numbers, chart, commands, el("p", {}, link));

  const studies = new Map(DATA.studies.map((s) => [s.name, s]));
  const tableOrder = (t) => t.match(/\d+/g).map(Number);
  const byTable = (a, b) => { const x = tableOrder(a), y = tableOrder(b); return x[0] - y[0] || x[1] - y[1]; };
  const unique = (xs) => [...new Set(xs)];
  const tableText = (t) => t.replace("p", "p/");  // 8p2t -> 8p/2t

  function fill(select, values, wanted, text) {
    select.replaceChildren(...values.map((v) => el("option", { value: v }, text ? text(v) : v)));
    select.value = values.includes(wanted) ? wanted : values[0];
  }

  function fillChanges(rows, study, wanted) {
    const select = picks.change;
    select.replaceChildren(...rows.map((r) => el("option", { value: r.change }, r.change)));
    select.value = rows.some((r) => r.change === wanted) ? wanted : rows[0].change;
  }

  // Narrow the controls to what exists, from the study down, keeping every choice that still applies.
  function settle(state) {
    const study = studies.get(state.study) || DATA.studies[0];
    fill(picks.study, DATA.studies.map((s) => s.name), study.name);
    fill(picks.table, unique(study.rows.map((r) => r.table)).sort(byTable), state.table, tableText);
    const atTable = study.rows.filter((r) => r.table === picks.table.value);
    fill(picks.lineup, unique(atTable.map((r) => r.lineup)), state.lineup);
    const played = atTable.filter((r) => r.lineup === picks.lineup.value);
    const sources = unique(played.map((r) => String(r.source)));
    fill(picks.source, sources, String(state.source), (s) => `${study.sources[s].title} (${study.sources[s].file})`);
    const rows = played.filter((r) => String(r.source) === picks.source.value);
    fillChanges(rows, study, state.change);
    return { study, rows, row: rows.find((r) => r.change === picks.change.value) };
  }

  function current() {
    return Object.fromEntries(KEYS.map((k) => [k, picks[k].value]));
  }

  // A number as the summaries write it: 2 decimals (1 for turns and Elo points, 3 for lead changes per game), a
  // sign where it is a difference.
  function shown(value, unit, signed) {
    if (value === null || value === undefined) return "—";
    const text = value.toFixed(unit === "turns" || unit === "Elo" ? 1 : unit === "per game" ? 3 : 2);
    return signed && value >= 0 ? "+" + text : text;
  }

  function estimate(m, unit, signed) {
    const [value, low, high] = m;
    const u = unit === "pp" ? " pp" : unit === "%" ? "%" : " " + unit;
    return `${shown(value, unit, signed)}${u} [${shown(low, unit, signed)}, ${shown(high, unit, signed)}]`;
  }


  function holm(p) {
    if (p === null || p === undefined) return "";
    const survives = p < DATA.holm_level;
    const text = p === 0 ? "< 1e-300" : p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);  // 0: below a double's range
    return `p (Holm) ${text}: ` +
      (survives ? "survives" : "does not survive") + ` Holm's correction at ${DATA.holm_level * 100}%`;
  }

  function describe(view) {
    const { study, row } = view;
    const source = study.sources[row.source];
    const items = source.measures.map(([name, unit, signed], i) => {
      const m = row.measures[i];
      return el("tr", { "data-measure": String(i) },
        el("th", {}, name),
        el("td", { class: "explorer-estimate" }, estimate(m, unit, signed)),
        el("td", { class: "explorer-holm" }, holm(m[3])));
    });
    const facts = [`${row.games === null ? "—" : row.games.toLocaleString("en")} games`,
                   `intervals ${row.confidence}%`];
    if ("verdict" in row) facts.push(`${source.verdict} (${source.file}): ${row.verdict ? "yes" : "no"}`);
    title.textContent = study.title;
    numbers.replaceChildren(
      el("table", { class: "explorer-measures" }, el("tbody", {}, ...items)),
      el("p", { class: "explorer-facts", id: "explorer-facts" }, facts.join("; ")));
    const parts = [el("p", {}, `The study's command${row.commands.length > 1 ? "s" : ""} that play${row.commands.length > 1 ? "" : "s"} it:`),
                   ...row.commands.map((i) => el("pre", {}, el("code", {}, study.commands[i])))];
    if (row.run) parts.push(el("p", {}, "This configuration alone, game for game:"),
                            el("pre", {}, el("code", { class: "explorer-run" }, row.run)));
    const summary = el("a", { href: `${DATA.summaries}/${study.name}/summary.html#${row.table}` },
      `this table in the study's summary`);
    parts.push(el("p", {}, "Read ", summary, ` (${study.name}/summary.md), with its notes.`));
    commands.replaceChildren(...parts);
  }

  // The chart of a view. Draws run one after another, a view drawn only if it is still the latest, and the
  // page is ready (data-ready="true") once the latest is drawn.
  let embedded = null;
  let latest = 0;
  let drawing = Promise.resolve();
  async function draw(view) {
    const { study, rows, row } = view;
    const [name, unit] = study.sources[row.source].measures[0];
    const values = rows.map((r) => ({ change: r.change, value: r.measures[0][0], low: r.measures[0][1],
                                      high: r.measures[0][2], chosen: r === row }));
    const spec = JSON.parse(JSON.stringify(SPEC));
    spec.datasets = { rows: values, zero: [{ x: 0 }] };
    spec.title = { text: `${name} (${unit}) at ${tableText(row.table)}, ${row.lineup}`, anchor: "start" };
    if (embedded) embedded.finalize();
    embedded = await vegaEmbed(chart, spec, { actions: false, renderer: "svg" });
    embedded.view.addEventListener("click", (event, item) => {
      if (item && item.datum && item.datum.change) show({ ...current(), change: item.datum.change });
    });
  }

  function hashOf(state) {
    return "#" + new URLSearchParams(KEYS.map((k) => [k, state[k]])).toString();
  }

  function show(state) {
    const view = settle(state);
    const hash = hashOf(current());
    if (location.hash !== hash) history.replaceState(null, "", hash);
    link.href = hash;
    describe(view);
    root.dataset.ready = "false";
    const token = ++latest;
    drawing = drawing
      .then(() => (token === latest ? draw(view) : null))
      .catch((error) => console.error(error))
      .then(() => { if (token === latest) root.dataset.ready = "true"; });
  }

  function fromAddress() {
    const text = location.hash.length > 1 ? location.hash.slice(1) : location.search.slice(1);
    const params = new URLSearchParams(text);
    return Object.fromEntries(KEYS.map((k) => [k, params.get(k)]));
  }

  for (const key of KEYS) {
    picks[key].addEventListener("change", () => show(current()));
  }
  window.addEventListener("hashchange", () => show(fromAddress()));
  show(fromAddress());
})();
