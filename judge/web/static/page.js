// The web view's one script (served from the judge, no inline script: the
// page's Content-Security-Policy allows only this file).
// 1. Each deadline shown in the game's zone is followed by the reader's own time.
// 2. Each map can be zoomed (buttons, wheel) and panned (drag) by moving its viewBox.
"use strict";

function showLocalTimes() {
  for (const el of document.querySelectorAll("time[datetime]")) {
    const at = new Date(el.getAttribute("datetime"));
    if (isNaN(at)) continue;
    const local = document.createElement("span");
    local.className = "local-time";
    local.textContent = " (your time: " + at.toLocaleString(undefined, {
      weekday: "short", day: "numeric", month: "short", year: "numeric",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short" }) + ")";
    el.parentElement.append(local);  // after any note on the game's zone
  }
}

function zoomable(figure) {
  const svg = figure.querySelector(".map-frame svg");
  if (!svg) return;
  const frame = svg.parentElement;
  const whole = svg.viewBox.baseVal;
  const home = { x: whole.x, y: whole.y, width: whole.width, height: whole.height };
  let view = { ...home };
  const apply = () => svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.width} ${view.height}`);
  const clamp = () => {
    view.width = Math.min(home.width, Math.max(home.width / 40, view.width));
    view.height = view.width * home.height / home.width;
    view.x = Math.min(home.x + home.width - view.width, Math.max(home.x, view.x));
    view.y = Math.min(home.y + home.height - view.height, Math.max(home.y, view.y));
  };
  // zoom by `factor` (<1 in) keeping the board point under (fx, fy) of the frame still
  const zoom = (factor, fx = 0.5, fy = 0.5) => {
    const px = view.x + fx * view.width, py = view.y + fy * view.height;
    view.width *= factor; view.height *= factor;
    view.x = px - fx * view.width; view.y = py - fy * view.height;
    clamp(); apply();
  };
  figure.querySelector(".zoom-in")?.addEventListener("click", () => zoom(1 / 1.5));
  figure.querySelector(".zoom-out")?.addEventListener("click", () => zoom(1.5));
  figure.querySelector(".zoom-reset")?.addEventListener("click", () => { view = { ...home }; apply(); });
  frame.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = frame.getBoundingClientRect();
    zoom(event.deltaY < 0 ? 1 / 1.25 : 1.25,
         (event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
  }, { passive: false });
  let drag = null;
  frame.addEventListener("pointerdown", (event) => {
    drag = { x: event.clientX, y: event.clientY, view: { ...view } };
    frame.setPointerCapture(event.pointerId);
    frame.classList.add("dragging");
  });
  frame.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const box = frame.getBoundingClientRect();
    view.x = drag.view.x - (event.clientX - drag.x) * view.width / box.width;
    view.y = drag.view.y - (event.clientY - drag.y) * view.height / box.height;
    clamp(); apply();
  });
  const stop = () => { drag = null; frame.classList.remove("dragging"); };
  frame.addEventListener("pointerup", stop);
  frame.addEventListener("pointercancel", stop);
}

document.addEventListener("DOMContentLoaded", () => {
  showLocalTimes();
  document.querySelectorAll("figure.map").forEach(zoomable);
});
