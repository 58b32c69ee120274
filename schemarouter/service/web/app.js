// The page: ask -> plan (as a picture) -> run -> attributed values; browse the registry.
// Talks to the JSON API of the server that served it; every text from the API is set as text,
// never parsed as HTML.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const state = { plan: null, sources: {}, token: sessionStorage.getItem("schemarouter-token") || "" };

  function status(text, isError) {
    const s = $("status");
    s.textContent = text;
    s.classList.toggle("error", Boolean(isError));
  }

  async function api(method, path, body) {
    const headers = { "Accept": "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (state.token) headers["Authorization"] = "Bearer " + state.token;
    const response = await fetch(path, { method: method, headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
    if (response.status === 401) $("token-box").hidden = false;
    if (!response.ok) throw new Error((data && data.error) || `HTTP ${response.status}`);
    return data;
  }

  function cell(row, text, cls) {
    const td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (cls) td.className = cls;
    row.appendChild(td);
    return td;
  }

  // A person reads six significant digits; the JSON (and the full-precision value) stay as they came.
  function shortValue(value) {
    const text = typeof value === "string" ? value
      : typeof value === "number" && !Number.isInteger(value) ? String(Number(value.toPrecision(6)))
      : JSON.stringify(value);
    return text.length > 160 ? text.slice(0, 159) + "\u2026" : text;
  }

  // -- plan ---------------------------------------------------------------------------------
  function showPlan(plan) {
    state.plan = plan;
    $("plan-section").hidden = false;
    const u = plan.understanding || {};
    const steps = (plan.steps || []).map((s) => `${s.source}.${s.endpoint}`).join(", ");
    $("plan-summary").textContent = plan.declined
      ? `Declined: ${plan.declined}`
      : `intent ${u.intent || "-"} \u00b7 concepts ${(u.concepts || []).join(", ") || "-"} \u00b7 ${steps}` +
        ` \u00b7 registry ${(plan.registry_fingerprint || "-").slice(0, 19)}\u2026`;
    window.schemarouterPicture.draw(plan, $("plan-picture"), state.sources);
    $("run-button").disabled = Boolean(plan.declined);
  }

  // The question and mode live in the URL (/?q=...&mode=...), so a plan can be linked and reloaded.
  function remember(question, mode) {
    const params = new URLSearchParams({ q: question, mode: mode });
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }

  function fromAddress() {
    const params = new URLSearchParams(location.search);
    const question = (params.get("q") || "").trim();
    const mode = params.get("mode");
    if (mode && [...$("mode").options].some((o) => o.value === mode)) $("mode").value = mode;
    if (!question) return;
    $("question").value = question;
    ask();
  }

  async function ask(event) {
    if (event) event.preventDefault();
    const question = $("question").value.trim();
    if (!question) return;
    remember(question, $("mode").value);
    $("values-section").hidden = true;
    status("planning\u2026");
    try {
      showPlan(await api("POST", "/v1/plan", { question: question, mode: $("mode").value }));
      status("planned");
    } catch (err) {
      status(err.message, true);
    }
  }

  // -- run ----------------------------------------------------------------------------------
  function showValues(result) {
    const body = $("values").querySelector("tbody");
    body.replaceChildren();
    const errors = $("step-errors");
    errors.replaceChildren();
    for (const step of result.steps || []) {
      if (step.error) {
        const li = document.createElement("li");
        li.className = "error";
        li.textContent = `${step.source}.${step.endpoint}: ${step.error.kind}: ${step.error.message}`;
        errors.appendChild(li);
      }
      for (const record of step.records || []) {
        for (const v of Object.values(record.values || {})) {
          if (v.value === null || v.value === undefined) continue;
          const row = document.createElement("tr");
          row.className = "value-row";
          cell(row, v.source_title || v.source);
          cell(row, v.record_id);
          cell(row, v.field, "field");
          cell(row, shortValue(v.value), "value");
          cell(row, v.unit, "unit");
          cell(row, v.source_type);
          cell(row, v.license);
          cell(row, v.attribution);
          body.appendChild(row);
        }
      }
    }
    // planned fields no record carries: said per step (the entity it asked about), never left out
    for (const missing of result.not_returned || []) {
      const li = document.createElement("li");
      li.className = "not-returned";
      li.textContent = `not returned by ${missing.about}: ${missing.fields.join(", ")}`;
      errors.appendChild(li);
    }
    if (result.declined) {
      const li = document.createElement("li");
      li.textContent = `declined: ${result.declined}`;
      errors.appendChild(li);
    }
    $("context").textContent = result.context || "";
    $("values-section").hidden = false;
  }

  async function run() {
    if (!state.plan) return;
    const offline = $("offline").checked;
    status(offline ? "running (offline replay)\u2026" : "running (live)\u2026");
    try {
      // the page shows every step in full, so it asks for the whole run (an agent gets the lean one)
      const result = await api("POST", "/v1/run", { plan: state.plan, offline: offline, include_plan: true });
      showValues(result);
      const n = $("values").querySelectorAll("tbody tr").length;
      status(`${result.status}: ${n} value(s)${offline ? " (offline replay)" : ""}`, result.status !== "ok");
    } catch (err) {
      status(err.message, true);
    }
  }

  // -- registry -----------------------------------------------------------------------------
  async function loadSources() {
    try {
      const data = await api("GET", "/v1/sources");
      state.sources = {};
      const body = $("sources").querySelector("tbody");
      body.replaceChildren();
      for (const s of data.sources) {
        state.sources[s.id] = s;
        const row = document.createElement("tr");
        const idCell = cell(row, "");
        const a = document.createElement("a");
        a.href = "#source-" + s.id;
        a.textContent = s.id;
        a.addEventListener("click", (e) => { e.preventDefault(); describe(s.id); });
        idCell.appendChild(a);
        for (const v of [s.title, s.domain, s.source_type, s.license, s.endpoints.length, s.fields]) cell(row, v);
        body.appendChild(row);
      }
      $("registry-line").textContent =
        `registry ${(data.registry_fingerprint || "-").slice(0, 19)}\u2026 \u00b7 ${data.sources.length} sources`;
    } catch (err) {
      $("registry-line").textContent = "registry: " + err.message;
    }
  }

  function table(head, rows) {
    const t = document.createElement("table");
    const tr = document.createElement("tr");
    for (const h of head) { const th = document.createElement("th"); th.textContent = h; tr.appendChild(th); }
    const thead = document.createElement("thead");
    thead.appendChild(tr);
    t.appendChild(thead);
    const tbody = document.createElement("tbody");
    for (const r of rows) { const row = document.createElement("tr"); r.forEach((v) => cell(row, v)); tbody.appendChild(row); }
    t.appendChild(tbody);
    return t;
  }

  async function describe(id) {
    const box = $("source-detail");
    try {
      const s = await api("GET", "/v1/sources/" + encodeURIComponent(id));
      box.replaceChildren();
      const h = document.createElement("h3");
      h.textContent = `${s.title} (${s.id})`;
      const p = document.createElement("p");
      p.textContent = `${s.source_type} \u00b7 ${s.license.id}${s.auth ? " \u00b7 key in $" + s.auth.env : ""} \u00b7 ${s.description || ""}`;
      box.append(h, p);
      for (const e of s.endpoints) {
        const eh = document.createElement("h4");
        eh.textContent = `${e.id}: ${e.method || "GET"} ${e.base_url}${e.path}`;
        box.appendChild(eh);
        box.appendChild(table(["parameter", "type", "required", "description"],
          (e.parameters || []).map((q) => [q.name, q.type, q.required ? "yes" : "", q.description || ""])));
        box.appendChild(table(["field", "type", "unit", "group", "source type", "license"],
          e.fields.map((f) => [f.name, f.type, f.unit || "", f.group, f.source_type || s.source_type,
            (f.license && f.license.id) || s.license.id])));
      }
      box.hidden = false;
    } catch (err) {
      status(err.message, true);
    }
  }

  function useToken() {
    state.token = $("token").value;
    sessionStorage.setItem("schemarouter-token", state.token);
    $("token").value = "";
    $("token-box").hidden = true;
    loadSources();
  }

  $("ask-form").addEventListener("submit", ask);
  $("run-button").addEventListener("click", run);
  $("token-button").addEventListener("click", useToken);
  loadSources();
  fromAddress();
})();
