// The plan as a picture: one band per step, source -> endpoint -> fields, parameters feeding the
// endpoint, and chained steps as arrows from a producer step's field to the consumer's parameter.
// Built only from the plan JSON (and, when known, the registry's source list), as SVG elements.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const ROW = 40, BOX_H = 32, GAP = 26;
  const X = { source: 10, endpoint: 230, fields: 560 };
  const W = { source: 190, endpoint: 230, param: 230, fields: 330 };

  function el(name, attrs, text) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A binding is {"from": step id, "field": name, "pick": ...}; anything else is a literal value.
  function isBinding(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value) &&
      typeof value.from === "string" && typeof value.field === "string";
  }

  function literal(value) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text.length > 28 ? text.slice(0, 27) + "\u2026" : text;
  }

  function box(svg, x, y, w, kind, title, sub, data) {
    const g = el("g", Object.assign({ class: "node " + kind }, data || {}));
    g.appendChild(el("rect", { x: x, y: y, width: w, height: BOX_H, rx: 5 }));
    g.appendChild(el("text", { x: x + 8, y: y + 13, class: "title" }, title));
    if (sub) g.appendChild(el("text", { x: x + 8, y: y + 26, class: "sub" }, sub));
    svg.appendChild(g);
    return { x: x, y: y, w: w, mid: y + BOX_H / 2 };
  }

  function link(svg, from, to, kind) {
    const x1 = from.x + from.w, y1 = from.mid, x2 = to.x, y2 = to.mid;
    const c = Math.max(30, (x2 - x1) / 2);
    svg.appendChild(el("path", { d: `M${x1},${y1} C${x1 + c},${y1} ${x2 - c},${y2} ${x2},${y2}`, class: "edge " + kind }));
  }

  function chainArrow(svg, from, to, data) {
    // out of the producer's field on the right, swinging back into the parameter's right edge
    const x1 = from.x + from.w, y1 = from.mid, x2 = to.x + to.w, y2 = to.mid;
    const d = `M${x1},${y1} C${x1 + 90},${y1} ${x2 + 70},${y2} ${x2 + 2},${y2}`;
    svg.appendChild(el("path", Object.assign({ d: d, class: "chain", "marker-end": "url(#arrow)" }, data)));
  }

  function sourceSub(step, sources) {
    const known = sources && sources[step.source];
    if (known) return `${known.source_type} \u00b7 ${known.license}`;
    const metas = Object.values(step.meta || {});
    const types = [...new Set(metas.map((m) => m.source_type))].join("/");
    const licenses = [...new Set(metas.map((m) => m.license))].join("/");
    return [types, licenses].filter(Boolean).join(" \u00b7 ");
  }

  // Draws ``plan`` into ``container`` (replacing what is there); returns the <svg>.
  function draw(plan, container, sources) {
    container.replaceChildren();
    const steps = plan.steps || [];
    const svg = el("svg", { class: "plan-svg", role: "img", "aria-label": "plan picture" });
    const defs = el("defs");
    const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 8,
      markerHeight: 8, orient: "auto-start-reverse" });
    marker.appendChild(el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }));
    defs.appendChild(marker);
    svg.appendChild(defs);
    const fieldPos = {};   // step id -> field name -> box
    const endpointPos = {};
    const paramPos = [];   // [step index][param name] -> box
    const ids = steps.map((s, i) => s.id || `s${i + 1}`);
    let y = 10;
    steps.forEach((step, i) => {
      const fields = step.fields || [];
      const params = Object.entries(step.params || {});
      const rows = Math.max(fields.length, 1 + params.length, 1);
      const top = y;
      const band = el("rect", { x: 2, y: top - 6, width: X.fields + W.fields + 8, height: rows * ROW + 4,
        class: "band", rx: 8 });
      svg.appendChild(band);
      const src = box(svg, X.source, top, W.source, "source", step.source, sourceSub(step, sources),
        { "data-source": step.source });
      const ep = box(svg, X.endpoint, top, W.endpoint, "endpoint", `${ids[i]} \u00b7 ${step.endpoint}`,
        `${params.length} parameter(s)`, { "data-step": ids[i], "data-endpoint": step.endpoint });
      endpointPos[ids[i]] = ep;
      link(svg, src, ep, "calls");
      paramPos[i] = {};
      params.forEach(([name, value], k) => {
        const shown = isBinding(value) ? `${name} \u2190 ${value.from}.${value.field}` : `${name} = ${literal(value)}`;
        const sub = isBinding(value) ? `chained (${value.pick || "first"})` : "given";
        const p = box(svg, X.endpoint, top + (k + 1) * ROW, W.param, isBinding(value) ? "param bound" : "param",
          shown, sub, { "data-step": ids[i], "data-param": name });
        paramPos[i][name] = p;
      });
      fieldPos[ids[i]] = {};
      fields.forEach((name, k) => {
        const m = (step.meta || {})[name] || {};
        const title = m.unit ? `${name} [${m.unit}]` : name;
        const sub = [m.source_type, m.license].filter(Boolean).join(" \u00b7 ");
        const f = box(svg, X.fields, top + k * ROW, W.fields, "field", title, sub,
          { "data-step": ids[i], "data-field": name });
        fieldPos[ids[i]][name] = f;
        link(svg, ep, f, "returns");
      });
      y = top + rows * ROW + GAP;
    });
    // chains last, so they are drawn over the bands
    steps.forEach((step, i) => {
      for (const [name, value] of Object.entries(step.params || {})) {
        if (!isBinding(value)) continue;
        const producer = fieldPos[value.from] && fieldPos[value.from][value.field];
        const from = producer || endpointPos[value.from];
        if (!from) continue;  // a binding to an unknown step: the parameter box already says so
        chainArrow(svg, from, paramPos[i][name], { "data-from": `${value.from}.${value.field}`,
          "data-to": `${ids[i]}.${name}` });
      }
    });
    if (!steps.length) {
      svg.appendChild(el("text", { x: 10, y: 24, class: "title" }, plan.declined ? `declined: ${plan.declined}` : "no steps"));
      y = 40;
    }
    svg.setAttribute("width", X.fields + W.fields + 110);
    svg.setAttribute("height", y);
    container.appendChild(svg);
    return svg;
  }

  window.schemarouterPicture = { draw: draw, isBinding: isBinding };
})();
