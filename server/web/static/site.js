// Progressive enhancement only: every page works without this file.
"use strict";

function visitorTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

// "Your time": an event's start in the visitor's own zone, when it differs from the event's.
function showLocalTimes() {
  const zone = visitorTimeZone();
  const format = new Intl.DateTimeFormat(undefined, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  });
  for (const el of document.querySelectorAll("[data-local-time]")) {
    const when = new Date(el.getAttribute("data-local-time"));
    if (!zone || Number.isNaN(when.getTime()) || zone === el.getAttribute("data-zone")) continue;
    el.textContent = `Your time: ${format.format(when)}`;
    el.hidden = false;
  }
}

// Copy buttons are hidden without JavaScript, since they cannot work then.
function enableCopyButtons() {
  for (const button of document.querySelectorAll("[data-copy-target]")) {
    const target = document.getElementById(button.getAttribute("data-copy-target"));
    if (!target || !navigator.clipboard) continue;
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(target.textContent.trim()).then(
        () => {
          button.textContent = "Copied";
          setTimeout(() => (button.textContent = label), 2000);
        },
        () => (button.textContent = "Copy failed: select the text instead"),
      );
    });
  }
}

showLocalTimes();
enableCopyButtons();
