// The replay viewer's script (engine/viewer.py inlines it into each page): steps through the positions.
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps, lines = data.lines, ids = data.clauses, div = data.divergence, parts = data.svg_parts;
  const rulingTable = data.rulings || [];
  // A step's picture is the step before's changed: [i, m] keeps m of its elements from the i-th, k adds
  // element k of the shared table (engine/viewer.py _shared_pictures).  Unpacked once, in order.
  const pictures = [];
  steps.reduce((before, s) => {
    const now = [];
    for (const op of s.svg) {
      if (Array.isArray(op)) for (let i = op[0]; i < op[0] + op[1]; i++) now.push(before[i]);
      else now.push(op);
    }
    pictures.push(now.map((k) => parts[k]).join(""));
    return now;
  }, []);
  const el = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  // A clause id links to its entry in the glossary, which holds its wording (shown as the link's title).
  const link = (id) => {
    const entry = el(`clause-${id}`);
    if (!entry) return esc(id);
    return `<a class="clause" href="#clause-${id}" title="${esc(entry.querySelector("p").textContent)}">${id}</a>`;
  };
  const linkify = (text) => esc(text).replace(/\b(?:T6|SP)-[A-Z]+-\d+\b/g, (id) => link(id));
  // A long unbroken run (a position's notation, a card list) may break after its separators.
  const breakable = (text) => esc(text).replace(/([/,;:|*.])(?=\S)/g, "$1<wbr>");
  const LONG = /\S{40,}/;
  // A narration line holding such a run: its label, then the rest in a wrapping code box with a copy
  // button (the text is the record's exact notation, to paste into `arbiter show` or `explain`).
  const narrated = (line) => {
    const sub = /^\s/.test(line) ? "sub" : "";
    const text = line.trim();
    if (!LONG.test(text)) return `<p class="${sub}">${linkify(text)}</p>`;
    const cut = text.indexOf(": ");
    const label = cut > 0 && cut < 40 && !LONG.test(text.slice(0, cut)) ? text.slice(0, cut + 1) : "";
    const rest = label ? text.slice(cut + 2) : text;
    return `<div class="long ${sub}">${label ? `<span>${linkify(label)}</span> ` : ""}`
      + `<button class="copy" type="button" title="copy to the clipboard">copy</button>`
      + `<code>${breakable(rest)}</code></div>`;
  };
  const copy = (button) => {
    const code = button.parentNode.querySelector("code");
    const done = () => {
      button.dataset.copies = String(Number(button.dataset.copies || 0) + 1);  // stays: what a test can wait on
      button.textContent = "copied";
      setTimeout(() => { button.textContent = "copy"; }, 1500);
    };
    const select = () => {
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      if (document.execCommand("copy")) done();
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(code.textContent).then(done, select);
    else select();
  };
  let current = 0;
  function show(i) {
    current = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[current];
    el("picture").innerHTML = pictures[current];
    el("counter").textContent = `step ${current} / ${steps.length - 1}`;
    el("slider").value = current;
    el("step-title").textContent = s.title;
    // the action's text (what `arbiter explain --action` takes here), then the record's JSON, spaced to wrap
    // (the text is the title's end unless the page gives it: engine/viewer.py _page_data)
    const text = s.text !== undefined ? s.text : s.title.slice(s.title.indexOf(": ") + 2);
    const json = s.action ? esc(JSON.stringify(s.action, null, 1).replace(/\n\s*/g, " ")) : "";
    el("action").innerHTML = s.action ? (text ? `<b>${breakable(text)}</b>` : "") + `<span>${json}</span>` : "";
    el("narration").innerHTML = s.narration.map((k) => narrated(lines[k])).join("");
    if (s.comment) el("narration").innerHTML += `<p class="comment">record comment: ${linkify(s.comment)}</p>`;
    // a ruling's chip is marked: the seeds disagree or are silent, or an option reads it the other way
    const ruled = (k) => {
      const id = ids[k];
      const r = (s.rulings || []).map((j) => rulingTable[j]).find((x) => x.id === id);
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
  el("narration").addEventListener("click", (e) => { if (e.target.classList.contains("copy")) copy(e.target); });
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
