// The replay viewer's script (engine/viewer.py inlines it into each page): steps through the positions.
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps, clauses = data.clauses, div = data.divergence, parts = data.svg_parts;
  // A step's picture is a list of runs of the shared table of SVG elements (k, or [k, count]).
  const picture = (runs) => runs.map((r) => (Array.isArray(r) ? parts.slice(r[0], r[0] + r[1]).join("") : parts[r])).join("");
  const el = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const link = (id) => {
    const c = clauses[id];
    const title = c ? esc(c.text) : "";
    return c ? `<a class="clause" href="#clause-${id}" title="${title}">${id}</a>` : esc(id);
  };
  const linkify = (text) => esc(text).replace(/\b(?:T6|SP)-[A-Z]+-\d+\b/g, (id) => link(id));
  let current = 0;
  function show(i) {
    current = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[current];
    el("picture").innerHTML = picture(s.svg);
    el("counter").textContent = `step ${current} / ${steps.length - 1}`;
    el("slider").value = current;
    el("step-title").textContent = s.title;
    // spaced JSON, which wraps between its fields
    el("action").textContent = s.action ? JSON.stringify(s.action, null, 1).replace(/\n\s*/g, " ") : "";
    el("narration").innerHTML = s.narration
      .map((l) => `<p class="${/^\s/.test(l) ? "sub" : ""}">${linkify(l.trim())}</p>`).join("");
    if (s.comment) el("narration").innerHTML += `<p class="comment">record comment: ${linkify(s.comment)}</p>`;
    // a ruling's chip is marked: the seeds disagree or are silent, or an option reads it the other way
    const ruled = (id) => {
      const r = (s.rulings || []).find((x) => x.id === id);
      if (!r) return link(id);
      const mark = r.chosen ? `option ${r.option}` : "ruling";
      const tip = r.chosen ? `the other reading of ruling ${id}, chosen by option ${r.option}` : `ruling; rejects: ${r.rejects}`;
      return `<span class="ruling" title="${esc(tip)}">${link(id)} <b>${esc(mark)}</b></span>`;
    };
    el("chips").innerHTML = s.clauses.length ? s.clauses.map(ruled).join(" ") : '<span class="muted">no clause</span>';
    el("first").disabled = el("prev").disabled = current === 0;
    el("last").disabled = el("next").disabled = current === steps.length - 1;
    el("divergence").hidden = !(div && div.step === current);
    if (history.replaceState) history.replaceState(null, "", `#step-${current}`);
  }
  el("first").onclick = () => show(0);
  el("prev").onclick = () => show(current - 1);
  el("next").onclick = () => show(current + 1);
  el("last").onclick = () => show(steps.length - 1);
  el("slider").max = steps.length - 1;
  el("slider").oninput = (e) => show(Number(e.target.value));
  if (div) el("jump-divergence").onclick = () => show(div.step);
  // The keys step through the game and do nothing else (Home and End would also scroll the page).
  const keys = {ArrowRight: () => current + 1, ArrowLeft: () => current - 1, Home: () => 0, End: () => steps.length - 1};
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey || !(e.key in keys)) return;
    e.preventDefault();
    show(keys[e.key]());
  });
  document.querySelectorAll("[data-linkify]").forEach((n) => { n.innerHTML = linkify(n.textContent); });
  const m = /^#step-(\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) : data.start);
})();
