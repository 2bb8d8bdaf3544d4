// compare from the form: start a run, poll its progress every 0.3 s, cancel it, show the answer.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("compare-data").textContent);
  const $ = (id) => document.getElementById(id);
  const form = $("compare-form");
  const POLL_MS = 300;
  let job = data.job;
  let timer = null;

  function option(value, text, selected) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    o.selected = !!selected;
    return o;
  }

  // a game's presets, players and rule options, from the same declarations as `whistsim rules`
  function showGame(name) {
    const g = data.games[name];
    const a = $("cf-preset-a"), b = $("cf-preset-b");
    a.replaceChildren(...g.presets.map((p, i) => option(i ? p : "", i ? p : p + " (the default)")));
    b.replaceChildren(option("", "A's preset"), ...g.presets.map((p) => option(p, "the " + p + " preset")));
    $("cf-strategies").replaceChildren(...g.players.map((p) => option(p, p)));
    $("cf-title").textContent = g.title;
    const rows = g.options.map((o) => {
      const tr = document.createElement("tr");
      const key = document.createElement("code");
      key.textContent = o.key;
      const cells = [key, o.default, o.choices, o.doc].map((v) => {
        const td = document.createElement("td");
        if (typeof v === "string") td.textContent = v; else td.append(v);
        return td;
      });
      tr.append(...cells);
      return tr;
    });
    $("cf-options").tBodies[0].replaceChildren(...rows);
  }

  function number(x) {
    return x.toLocaleString("en");
  }

  function show(j) {
    job = j;
    $("job").hidden = false;
    $("job-command").textContent = j.command;
    const bar = $("job-bar");
    bar.max = Math.max(1, j.total);
    bar.value = j.done;
    const secs = j.elapsed_s.toFixed(1) + " s";
    const words = {
      checking: "getting the players ready (a player's first run compiles it, which can take a minute)",
      running: number(j.done) + " of " + number(j.total) + " deals, " + secs,
      drawing: number(j.done) + " deals played; drawing the chart",
      done: number(j.done) + " deals in " + secs,
      cancelled: "cancelled",
      failed: "failed",
    };
    $("job-status").textContent = words[j.state] || j.state;
    if (j.state === "running" && j.done === 0) $("job-status").textContent = "getting the players ready, " + secs;
    $("job-cancel").hidden = !["checking", "running"].includes(j.state);
    $("job-cancel").disabled = false;
    $("job-warnings").replaceChildren(...(j.warnings || []).map((w) => {
      const li = document.createElement("li");
      li.textContent = "warning: " + w;
      return li;
    }));
    const over = ["done", "cancelled", "failed"].includes(j.state);
    $("cf-run").disabled = !over;
    if (!over) return;
    $("job-note").hidden = !j.note;
    $("job-note").textContent = j.note || "";
    $("job-error").textContent = j.error || "";
    $("job-text").hidden = !j.text;
    $("job-text").textContent = j.text || "";
    const chart = $("job-chart");
    if (j.chart) {
      chart.src = "/api/compare/" + j.id + "/chart.png";
      chart.hidden = false;
    } else {
      chart.hidden = true;
      chart.removeAttribute("src");
    }
  }

  async function poll() {
    timer = null;
    let j;
    try {
      const r = await fetch("/api/compare/" + job.id, { headers: { Accept: "application/json" } });
      j = await r.json();
      if (!r.ok) throw new Error(j.error || r.statusText);
    } catch (e) {
      $("job-error").textContent = String(e.message || e);
      $("cf-run").disabled = false;
      return;
    }
    show(j);
    if (!["done", "cancelled", "failed"].includes(j.state)) timer = setTimeout(poll, POLL_MS);
  }

  function clearAnswer() {
    for (const id of ["job-text", "job-chart", "job-note"]) $(id).hidden = true;
    $("job-error").textContent = "";
    $("job-warnings").replaceChildren();
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("cf-error").textContent = "";
    $("cf-run").disabled = true;
    let r, j;
    try {
      r = await fetch("/api/compare", { method: "POST", body: new FormData(form), headers: { Accept: "application/json" } });
      j = await r.json();
    } catch (e) {
      $("cf-error").textContent = String(e.message || e);
      $("cf-run").disabled = false;
      return;
    }
    if (!r.ok) {  // the CLI's own line for a bad value; nothing was started
      $("cf-error").textContent = j.error;
      $("cf-run").disabled = false;
      return;
    }
    clearAnswer();
    history.pushState({}, "", j.page);
    show(j);
    if (timer) clearTimeout(timer);
    timer = setTimeout(poll, POLL_MS);
  });

  $("job-cancel").addEventListener("click", async () => {
    if (!job) return;
    $("job-cancel").disabled = true;
    $("job-status").textContent = "cancelling after the deals in play";
    await fetch("/api/compare/" + job.id + "/cancel", { method: "POST" });
  });

  $("cf-game").addEventListener("change", (ev) => showGame(ev.target.value));
  window.addEventListener("popstate", () => location.reload());

  if (job) {
    show(job);
    if (!["done", "cancelled", "failed"].includes(job.state)) timer = setTimeout(poll, POLL_MS);
  }
})();
