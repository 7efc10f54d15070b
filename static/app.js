// After an action form was applied: a fresh nonce for the next submission (the server applies a
// nonce once, so a double tap pays once) and the typed values cleared. crypto.getRandomValues
// works on plain-http LAN addresses, unlike crypto.randomUUID.
function freshNonce() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A payment's first tap over half the cash is not applied: its answer is the question, put right after
// the form itself (HX-Retarget: this, web/answers/second_tap.py), which keeps what was typed, and its box.
const askedAgain = (event) => event.detail.target === event.detail.elt;
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt.closest && event.detail.elt.closest("form");
  if (!form || !event.detail.successful || form.method.toLowerCase() !== "post" || askedAgain(event)) return;
  form.reset();
  const nonce = form.querySelector("input[name=nonce]");
  if (nonce) nonce.defaultValue = nonce.value = freshNonce();
});

// A form applied from the turn panel (a card picked far down the picker, a bid) brings the top of
// the panel back into view, where the next decision appears, if the page was scrolled past it.
document.addEventListener("htmx:afterRequest", (event) => {
  const turn = event.detail.successful && event.detail.elt.closest && event.detail.elt.closest("#turn");
  if (turn && turn.getBoundingClientRect().top < 0) turn.scrollIntoView({ block: "start" });
});

// A payment box folds once its payment is applied (a details marked data-fold): left open, "Pay
// someone" stayed open for the rest of the game. What the reader did to it is forgotten, so the
// live update that follows draws it as the server does, folded; the form is cleared, what the
// payment did (under the box) brought into view, and a second tap's question
// (templates/_second_tap.html) goes. Noted when the form is sent and done when its answer comes, by
// the box's id: the live update may have come first and replaced the box, the form and its
// question, and the events of a replaced element reach no listener here.
document.addEventListener("htmx:beforeSend", (event) => {
  const id = event.detail.elt.closest?.("details[data-fold]")?.id;
  const xhr = event.detail.xhr;
  if (!id) return;
  xhr.addEventListener("load", () => {
    if (xhr.status !== 200 || xhr.getResponseHeader("HX-Retarget")) return;  // refused, or asked again
    const box = document.getElementById(id);
    if (!box) return;
    box.open = false;
    delete toggled[id];
    box.querySelectorAll(".answer").forEach((place) => place.remove());
    box.querySelector("form")?.reset();
    // Its answer, under it, was under the open box: it came up with the folding.
    const answer = box.nextElementSibling;
    if (answer?.matches(".answer")) answer.scrollIntoView({ block: "nearest" });
  });
});

// A tool the banker opens on a laptop's host screen shows whole: each column there scrolls in itself
// (app.css), and under eight players' balances "Bank pays or charges" opened with its buttons below
// the column's foot (a play-test). The column scrolls until the tool's foot is in view, never its name
// out of the top. Only a click's opening (a tap, or Enter on the summary): a details element also
// "toggles" when a live update brings it already open, and the columns must not jump then.
let toolClicked = null;
document.addEventListener("click", (event) => {
  toolClicked = event.target.closest?.("main.host summary")?.parentElement ?? null;
});
document.addEventListener("toggle", (event) => {
  const tool = event.target;
  if (tool !== toolClicked || !tool.open) return;
  toolClicked = null;
  const column = tool.closest("main.host > *");
  if (!column || column.scrollHeight <= column.clientHeight) return;
  const box = tool.getBoundingClientRect();
  const foot = column.getBoundingClientRect().bottom - column.clientTop - parseFloat(getComputedStyle(column).paddingBottom);
  const top = column.getBoundingClientRect().top + column.clientTop;
  if (box.bottom > foot) column.scrollBy({ top: Math.min(box.bottom - foot, box.top - top) });
}, true);  // toggle does not bubble

// A message is dismissed by tapping it, and leaves the page once it has faded (app.css, settle);
// a lasting one (what the page is there to say) stays.
document.addEventListener("click", (event) => {
  const message = event.target.closest && event.target.closest(".message:not(.lasting)");
  if (message) message.remove();
});
document.addEventListener("animationend", (event) => {
  if (event.animationName === "settle" && event.target.matches(".message")) event.target.remove();
});

// A form's answer never lies over a control: it is said in the page, under the form it answers (the
// confirmation of a box that folds once applied, under the box; of a form in a message, after the
// message), scrolled into view in its column
// (not a confirmation in the turn panel, whose top comes into view: above), and the next try at any
// form clears it. Only the host's top bar on a wide screen holds a confirmation instead (app.css,
// --holds-answers), in view there and over nothing. A live update that redraws that part of the
// page brings the answer along (its place's key: the form's or box's id, or the deed's row,
// data-square, in the nearest part with an id); where that is gone, into #message, atop the page.
function answerKey(spot) {
  if (spot.id) return `#${CSS.escape(spot.id)}`;
  const lot = spot.closest("[data-square]");
  const part = lot?.parentElement.closest("[id]");
  return part ? `#${CSS.escape(part.id)} [data-square="${CSS.escape(lot.dataset.square)}"]` : "";
}
function placeAnswer(place, spot) {
  if (spot.id || !spot.matches("[data-square]")) spot.after(place);
  else spot.append(place);
}
function answerPlace(form, confirms = false) {
  const box = document.getElementById("message");
  const barHolds = box && getComputedStyle(box).getPropertyValue("--holds-answers").trim();
  if (!form?.isConnected || (confirms && barHolds)) return box;
  const after = form.closest(".message") || (confirms && form.closest("details[data-fold]")) || form.closest(".row") || form;
  const key = answerKey(after);
  const place = document.createElement("div");
  place.className = "answer";
  place.dataset.key = key;
  placeAnswer(place, after.id || !key ? after : after.closest("[data-square]"));
  return place;
}
// (Not the answer holding the form being sent: a payment's second tap, which goes once applied.)
document.addEventListener("htmx:confirm", (event) => document.querySelectorAll(".answer").forEach((place) => {
  if (!place.contains(event.detail.elt)) place.remove();
}));
// A message that holds a form (a sum told after the third try, with its Pay) goes once that form is
// applied: its answer comes after it (answerPlace). Left, it offered to pay a paid sum all evening.
document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.successful && !askedAgain(event)) event.detail.elt.closest?.(".message")?.remove();
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.target?.id !== "message") return;
  const form = event.detail.requestConfig?.elt?.closest("form");
  event.detail.target = answerPlace(form, !event.detail.isError);
});
document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail.target;
  const said = target?.matches?.(".answer") && (target.querySelector(".error") || !target.closest("#turn"));
  const place = said ? target : askedAgain(event) ? target.nextElementSibling : null;
  place?.scrollIntoView({ block: "nearest" });
});
// An answer being read stays where it is on the screen: what the update changed above it moves the
// page, not the answer (the browser's own scroll anchoring loses its anchor with the redrawn part).
let reading = [];
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const part = event.detail.target;
  const fresh = event.detail.fragment;
  part?.querySelectorAll?.(".answer:has(.message)").forEach((place) => {
    const spot = place.dataset.key && fresh.querySelector?.(place.dataset.key);
    const { top, bottom } = place.getBoundingClientRect();
    if (spot && bottom > 0 && top < innerHeight) reading.push({ place, top });
    if (spot) placeAnswer(place, spot);
    // What a counting player was told about a sum no longer asked (paid, or the deed declined) goes.
    else document.getElementById("message")?.append(...[...place.children].filter((m) => !m.matches(".counted")));
  });
});
document.addEventListener("htmx:sseMessage", () => {
  reading.forEach(({ place, top }) => scrollBy(0, place.getBoundingClientRect().top - top));
  reading = [];
});

// A tap's confirmation goes once the turn panel's latest line, in view, says the same (the live
// update brings it there, before or after the answer): read twice, it said nothing new. When the
// line is out of view, or the live connection is down, the confirmation stays.
function dropRepeatedMessage() {
  const latest = document.querySelector("#turn .latest");
  if (!latest) return;
  const box = latest.getBoundingClientRect();
  if (box.bottom <= 0 || box.top >= window.innerHeight) return;
  const said = latest.textContent.trim();
  document.querySelectorAll("#message .message.ok, .answer .message.ok").forEach((message) => {
    if (said.includes(message.textContent.trim())) message.remove();
  });
}
document.addEventListener("htmx:afterSwap", dropRepeatedMessage);
document.addEventListener("htmx:sseMessage", dropRepeatedMessage);

// The auction's countdown, the same on every screen: to the deadline the server rendered
// (data-closes-at), counted on the server's clock (data-now: a phone whose own clock is off keeps
// the table's time). Each bid brings a new deadline. On the banker's screen, at zero it closes the
// auction if the box is ticked (the form carries the high bid it saw, so a last-second bid is never
// lost, and a nonce every banker screen shares, so two screens close it once).
// The auto-close box comes back ticked with every refresh of the panel, so the banker's choice is
// remembered per auction and put back at once (htmx:load) and before each tick.
const autoClose = {};
const auctionOf = (element) => element.closest("[data-auction]")?.dataset.auction;
document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches("[data-auto]")) autoClose[auctionOf(event.target)] = event.target.checked;
});
function restoreAutoClose(root) {
  root.querySelectorAll("[data-auto]").forEach((box) => {
    const id = auctionOf(box);
    if (id in autoClose) box.checked = autoClose[id];
  });
}
document.addEventListener("htmx:load", (event) => restoreAutoClose(event.target));
function tickCountdowns() {
  restoreAutoClose(document);
  document.querySelectorAll("[data-closes-at]").forEach((clock) => {
    clock.dataset.skew ??= String(Date.parse(clock.dataset.now) - Date.now());
    const left = Math.max(0, Math.ceil((Date.parse(clock.dataset.closesAt) - Date.now() - Number(clock.dataset.skew)) / 1000));
    clock.querySelector("[data-left]").textContent = left;
    clock.classList.toggle("ending", left <= 5);
    const form = clock.closest("[data-auction]")?.querySelector("form.close-auction");
    const auto = form?.querySelector("[data-auto]");
    if (left === 0 && auto?.checked && !form.dataset.sent) {
      form.dataset.sent = "1";
      form.requestSubmit();
    }
  });
}
setInterval(tickCountdowns, 250);

// A quick bid proposes: it fills the bid box ("+10 → $130") and names the bid on its button, as not
// sent yet ("Send bid $130": a player took "$50" for a bid made), and one more tap sends it. The form
// notes the proposal (data-proposal) until it is typed over, sent (the form is reset) or outbid (a
// live update drops it: below). Typing a bid puts the button back to its plain words.
const plainBid = (form) => {
  delete form.dataset.proposal;
  form.querySelector("button").textContent = form.querySelector("button").dataset.plain;
};
document.addEventListener("click", (event) => {
  const quick = event.target.closest && event.target.closest("button[data-bid]");
  if (!quick) return;
  const form = quick.closest(".bids")?.querySelector("form.typed-bid");
  if (!form) return;
  form.querySelector("input[name=amount]").value = quick.dataset.bid;
  form.dataset.proposal = quick.dataset.bid;
  const send = form.querySelector("button");
  send.textContent = send.dataset.proposed.replace("{amount}", quick.dataset.money);
  send.focus();
});
document.addEventListener("input", (event) => {
  const form = event.target.closest && event.target.closest("form.typed-bid");
  if (form) plainBid(form);
});
document.addEventListener("reset", (event) => {
  if (event.target.matches?.("form.typed-bid")) plainBid(event.target);
});

// The game's clock (a time limit, or a tournament's round), counting down to the deadline the server
// rendered. The server writes the whole minutes begun (so that its parts are not drawn again every
// second): each clock is set to the second as soon as it is on the page (loaded, or swapped in live),
// never showing the next minute up for the moment before the next tick.
function tickClocks(root = document) {
  root.querySelectorAll("[data-deadline]").forEach((clock) => {
    const left = Math.max(0, Math.floor((Date.parse(clock.dataset.deadline) - Date.now()) / 1000));
    clock.querySelector("[data-left]").textContent =
      left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : clock.dataset.over || "0:00";
    clock.classList.toggle("over", left === 0);
  });
}
tickClocks();
document.addEventListener("htmx:load", (event) => tickClocks(event.target.parentNode || document));
setInterval(tickClocks, 1000);

// A form that needs a second thought says so in hx-confirm, which htmx asks itself. A charge above
// the seat's cash is allowed (it becomes a debt), but a typo should not ruin the evening: the host's
// Charge button holds a question in data-over-cash, asked here, before htmx sends it, when the amount
// typed is above the chosen seat's cash as the balances show it. (A payment over half the payer's
// cash is asked by the server, naming payee and amount: web/answers/second_tap.py.)
document.addEventListener("htmx:confirm", (event) => {
  const form = event.detail.elt;
  const overCash = event.detail.triggeringEvent?.submitter?.dataset.overCash;
  const amount = form.querySelector("input[name=amount]");
  const chosen = form.querySelector("select[name=player]")?.selectedOptions[0];
  const cash = chosen && document.querySelector(`.balances [data-player="${CSS.escape(chosen.value)}"] [data-cash]`);
  if (!overCash || !amount || !cash || Number(amount.value) <= Number(cash.dataset.cash)) return;
  event.preventDefault();
  const question = overCash.replaceAll("{name}", chosen.dataset.name ?? "").replaceAll("{cash}", cash.textContent.trim());
  if (confirm(question)) event.detail.issueRequest(true);
});

// A payment's second tap (templates/_second_tap.html) comes where a refusal would, under its form;
// its "No" just takes it away (once applied, it goes with the box's folding, above).
document.addEventListener("click", (event) => {
  const no = event.target.closest?.(".answer [data-dismiss]");
  if (!no) return;
  event.preventDefault();
  no.closest(".answer").remove();
});

// The live connection (templates/_live.html). The version the page shows moves on with each update
// (the event's id). A hidden page closes its connection, so that background tabs (seats the banker
// opened for players without a phone) do not use up the browser's few connections to the server,
// and a phone asleep holds no server thread; shown again, the page reconnects from the version it
// shows and catches up at once. Swapping #live through htmx lets the SSE extension close the old
// connection and open the new one. A seat gone to another phone has no data-live: it stays closed.
// A new history entry comes alone, added at the top of its list: the list keeps its newest
// data-keep rows, as a page drawn afresh would show.
document.addEventListener("htmx:sseMessage", () => {
  document.querySelectorAll("[data-keep]").forEach((list) => {
    while (list.children.length > Number(list.dataset.keep)) list.lastElementChild.remove();
  });
});
document.addEventListener("htmx:sseMessage", (event) => {
  const live = document.getElementById("live");
  if (live && event.detail.lastEventId) live.dataset.version = event.detail.lastEventId;
});
document.addEventListener("visibilitychange", () => {
  const live = document.getElementById("live");
  if (!live || !live.dataset.live) return;
  const fresh = live.cloneNode(false);
  if (document.hidden) fresh.removeAttribute("sse-connect");
  else fresh.setAttribute("sse-connect", `${live.dataset.live}?v=${live.dataset.version}`);
  htmx.swap(live, fresh.outerHTML, { swapStyle: "outerHTML" });
});

// A push never undoes what someone is doing. Before an update replaces parts of the page, note
// what the reader changed and has not sent (dice tapped, choices made, text typed: whatever differs
// from what the server drew) in every form with an id, and where the focus was; afterwards, put it
// back where the same form still is (a choice only while it is still offered). Details the reader
// opened or closed stay as they left them, and so does one they are using (a tap on a control in
// it, such as Build, keeps it open after the server folds it for having nothing more to offer,
// with the reason why under the button); one the reader never touched follows the server. So
// only the reader's own taps count, not the "toggle" of a details the server drew open. A tap (or
// key) on a summary comes before its details turns: it is about to be the other way.
// (idiomorph's morph swaps would keep the nodes, but still write the server's values, ticks and open
// details over the reader's unless told which the reader changed: this same bookkeeping.)
const toggled = {};
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || !event.target.closest) return;
  const summary = event.target.closest("summary");
  const details = (summary ?? event.target).closest("details[id]");
  if (!details) return;
  if (summary) {
    if (details.querySelector(":scope > summary") === summary) toggled[details.id] = !details.open;
  } else if (details.open && event.target.closest("button, input, select, textarea, label, a")) {
    toggled[details.id] = true;
  }
});
// Put into the pushed HTML before it replaces the page's, so that no details shuts for a moment
// (the page would grow shorter and lose its scroll position).
function keepToggled(root) {
  root.querySelectorAll("details[id]").forEach((details) => {
    if (details.id in toggled && details.open !== toggled[details.id]) details.open = toggled[details.id];
  });
}
document.addEventListener("htmx:oobBeforeSwap", (event) => keepToggled(event.detail.fragment));
let unsent = [];
let focused = null;
const changedByReader = (field) => (field.type === "radio" || field.type === "checkbox"
  ? field.checked !== field.defaultChecked
  : field.tagName === "SELECT" ? [...field.options].some((o) => o.selected !== o.defaultSelected)
    : field.value !== field.defaultValue);
document.addEventListener("htmx:sseBeforeMessage", () => {
  unsent = [...document.querySelectorAll("form[id] input:not([type=hidden]), form[id] select")]
    .filter(changedByReader)
    .map((f) => ({ form: f.form.id, name: f.name, value: f.value, checked: f.checked, type: f.type }));
  const active = document.activeElement;
  focused = active && active.form && active.form.id ? { form: active.form.id, name: active.name } : null;
});
document.addEventListener("htmx:sseMessage", () => {
  for (const { form, name, value, checked, type } of unsent) {
    const fields = document.getElementById(form)?.querySelectorAll(`[name="${CSS.escape(name)}"]`) || [];
    for (const field of fields) {
      if (type === "radio" || type === "checkbox") {
        if (field.value === value) field.checked = checked;
      } else if (field.tagName !== "SELECT" || [...field.options].some((option) => option.value === value)) {
        field.value = value;
      }
    }
  }
  // A panel gone from the page (a seat's "Act for" box once its turn is over) is forgotten: when it
  // comes back, it opens or not as the server draws it.
  for (const id of Object.keys(toggled)) if (!document.getElementById(id)) delete toggled[id];
  keepToggled(document);
  const field = focused && document.getElementById(focused.form)?.querySelector(`[name="${CSS.escape(focused.name)}"]`);
  if (field && field !== document.activeElement) field.focus({ preventScroll: true });
});

// A proposed quick bid the high bid has caught up with is dropped once the update is in (after the
// lines above have put back what the reader left unsent): its box and button go back to their plain
// state, rather than up to the new lowest bid, so that a tap never bids more than its player chose.
// Left as it was, the button offered a bid the rules refuse while the countdown ran. A proposal is
// always at least the bidder's floor, which an auction keeps from its start, so it falls short
// exactly when it is no more than the high bid. A typed amount stays: it is the player's own.
document.addEventListener("htmx:sseMessage", () => {
  document.querySelectorAll("form.typed-bid[data-proposal]").forEach((form) => {
    const high = form.closest("[data-high-bid]")?.dataset.highBid;
    if (high !== undefined && Number(form.dataset.proposal) <= Number(high)) form.reset();
  });
});

// A tournament's phone told live that a round seats its player shows the table and seat, then goes
// on to its phone at the table a moment later, as the page drawn afresh does at once
// (tournament.me): left alone, it kept offering the link while the player's turn came and went.
// Not a page opened to stay there (the way back from a table, or after withdrawing).
const GO_ON_MS = 3000;
document.addEventListener("htmx:sseMessage", () => {
  const link = document.querySelector("a[data-go-on]");
  if (!link || link.dataset.going || new URLSearchParams(location.search).has("stay")) return;
  link.dataset.going = "1";
  setTimeout(() => { if (link.isConnected) location.assign(link.href); }, GO_ON_MS);
});

// Saying so when the banker's laptop cannot be reached: a banner while the live connection is
// down (the browser reconnects by itself), and a message when a tap got no answer at all. The
// banner lies at the foot of the screen, and the page keeps room for it there (--link-down,
// app.css): every control can be scrolled above it, and the host's columns end over it.
function linkDown(down) {
  const banner = document.getElementById("reconnecting");
  if (!banner) return;
  banner.hidden = !down;
  if (down) document.documentElement.style.setProperty("--link-down", `${banner.offsetHeight}px`);
  else document.documentElement.style.removeProperty("--link-down");
}
document.addEventListener("htmx:sseError", () => {
  if (!document.hidden) linkDown(true);
});
document.addEventListener("htmx:sseOpen", () => linkDown(false));
document.addEventListener("htmx:sendError", (event) => {
  const box = document.getElementById("message");
  if (!box) return;
  const line = document.createElement("p");
  line.className = "message error";
  line.setAttribute("role", "alert");
  line.textContent = box.dataset.unreachable;
  answerPlace(event.detail.elt.closest?.("form")).replaceChildren(line);
});

// The new-game form: picking an edition or a preset fills every rule field in with its values
// (an edition has its own defaults, such as the UK's double rent), so what the form shows is what
// the game gets (without JavaScript the server applies them to the fields left as shown).
document.addEventListener("change", (event) => {
  const form = event.target.closest("form.new-game");
  if (!form || !["preset", "edition"].includes(event.target.name)) return;
  const edition = form.elements.edition.value, preset = form.elements.preset.value;
  const values = JSON.parse(form.dataset.presets)[edition][preset];
  for (const [key, value] of Object.entries(values)) {
    const field = form.elements[key];
    if (!field || key === "preset") continue;
    if (field.type === "checkbox") field.checked = value;
    else field.value = key === "time_limit_minutes" && !value ? "" : String(value);
  }
  form.elements.shown_preset.value = preset;
  form.elements.shown_edition.value = edition;
});

// The timeline's slider follows the steps: after a step link brought another version, the slider
// shows it (not while the slider itself has focus: it is being moved, and asked for what it shows).
document.addEventListener("htmx:load", (event) => {
  const past = event.target;
  const slider = document.getElementById("timeline-v");
  if (past.id === "past" && slider && document.activeElement !== slider) slider.value = past.dataset.version;
});

// A phone buzzes when something needs its player (templates/player/_buzz.html has the toggles): when
// it becomes their turn, when their cash changes by something they did not do themselves (rent
// arrives or is charged, the banker acts for them; not their own purchase, house or payment), or such
// a charge becomes a debt (one they cannot pay leaves their cash as it was, and the game waits on
// them; paying off their own debt does not buzz), when an auction they may bid in opens, when a trade is
// offered to them, and briefly when the game ends (its standings are to be read). Each is read off
// what a live update changed on the page, as the server already draws it (#news h2.mine; the
// wallet's data-cash and data-owed, and its data-moved, the newest entry that moved this player's
// money or debts without their own tap; the turn panel's auction with its bids, its offers to this
// player, its standings): a buzz calls attention to what the player did not do, and the server,
// which knows who acted, says which money that was.
// Vibrating is on by default where the browser can (not iOS Safari: the toggle says so), a short beep
// (WebAudio) off; both remembered on the phone (localStorage).
const BUZZES = { turn: [200, 100, 200], needed: [150, 80, 150], money: [80], end: [120] };
const buzzSetting = (name, fallback) => {
  try {
    return (localStorage.getItem(`banker.${name}`) ?? fallback) === "on";
  } catch {
    return fallback === "on";  // storage refused (private mode): the default, not remembered
  }
};
function whatNeedsMe() {
  const auction = document.querySelector("#turn .auction");
  const wallet = document.querySelector("#wallet [data-cash]")?.dataset;
  return {
    turn: Boolean(document.querySelector("#news h2.mine")),
    cash: wallet?.cash,
    owed: wallet?.owed,
    moved: wallet?.moved,
    auction: auction?.querySelector("form") ? auction.dataset.auction : null,
    offers: document.querySelectorAll("#turn .offer a[href='#trades']").length,
    ended: Boolean(document.querySelector("#turn .standings")),
  };
}
let needed = null;
let audio = null;
function beep() {
  audio ??= new AudioContext();
  const tone = audio.createOscillator();
  const volume = audio.createGain();
  tone.frequency.value = 880;
  volume.gain.value = 0.15;
  tone.connect(volume).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.12);
}
function buzz(pattern) {
  if (buzzSetting("vibrate", "on") && typeof navigator.vibrate === "function") navigator.vibrate(pattern);
  if (buzzSetting("sound", "off") && window.AudioContext) beep();
}
document.addEventListener("htmx:sseBeforeMessage", () => {
  if (document.body.classList.contains("phone")) needed = whatNeedsMe();
});
document.addEventListener("htmx:sseMessage", () => {
  if (!needed) return;
  const now = whatNeedsMe();
  const before = needed;
  needed = null;
  if (now.ended && !before.ended) buzz(BUZZES.end);
  else if (now.turn && !before.turn) buzz(BUZZES.turn);
  else if ((now.auction && now.auction !== before.auction) || now.offers > before.offers) buzz(BUZZES.needed);
  else if (now.cash !== undefined && before.cash !== undefined
    && (now.cash !== before.cash || now.owed !== before.owed) && now.moved !== before.moved) buzz(BUZZES.money);
});
// The toggles: shown only with JavaScript (without it nothing buzzes); "Vibrate" says when this browser
// cannot. A sound may only start after a tap on the page: the tap on "Sound" itself starts it.
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("buzz");
  if (!box) return;
  const vibrate = box.querySelector("[name=vibrate]");
  const sound = box.querySelector("[name=sound]");
  if (typeof navigator.vibrate === "function") {
    vibrate.checked = buzzSetting("vibrate", "on");
  } else {
    vibrate.checked = false;
    vibrate.disabled = true;
    box.querySelector("[data-unavailable]").hidden = false;
  }
  sound.checked = buzzSetting("sound", "off");
  box.hidden = false;
  box.addEventListener("change", (event) => {
    const toggle = event.target;
    try {
      localStorage.setItem(`banker.${toggle.name}`, toggle.checked ? "on" : "off");
    } catch { /* not remembered: it holds for this page */ }
    if (toggle === sound && toggle.checked) beep();
  });
});

// The story's Print button (no inline handler: the page's CSP forbids them).
document.addEventListener("click", (event) => {
  if (event.target.closest?.("button[data-print]")) window.print();
});

// A square's name that its tile would clip (a long word in the reader's face and language: the TV
// showed "Vaugirarc" and "Courcelle" on the Paris board) is set smaller until it shows whole, down to
// three quarters of the board's size: whole in smaller type reads better than cut. The board's own
// size comes back first (the tile may have grown), then each round reads every name once and shrinks
// those that do not fit, so a board costs a few layouts, not one per name. Again after a resize and
// after a live update, which may bring new squares.
function fitNames() {
  const names = [...document.querySelectorAll(".sq-name")];
  names.forEach((name) => name.style.removeProperty("font-size"));
  const base = new Map(names.map((name) => [name, parseFloat(getComputedStyle(name).fontSize)]));
  // Its words' own width, to the fraction of a pixel (scrollWidth rounds a word cut by less than one).
  const words = document.createRange();
  const clipped = (name) => {
    words.selectNodeContents(name);
    return words.getBoundingClientRect().width > name.clientWidth + 0.25 || name.scrollHeight > name.clientHeight + 0.5;
  };
  let cut = names.filter(clipped);
  for (let round = 0; cut.length && round < 8; round++) {
    cut.forEach((name) => {
      const now = parseFloat(name.style.fontSize) || base.get(name);
      name.style.fontSize = `${Math.max(base.get(name) * 0.75, now * 0.93)}px`;
    });
    cut = cut.filter((name) => clipped(name) && parseFloat(name.style.fontSize) > base.get(name) * 0.75);
  }
}
let fitting = 0;
const fitSoon = () => {
  cancelAnimationFrame(fitting);
  fitting = requestAnimationFrame(fitNames);
};
document.addEventListener("DOMContentLoaded", fitSoon);
window.addEventListener("resize", fitSoon);
document.addEventListener("htmx:sseMessage", fitSoon);
document.addEventListener("htmx:afterSettle", fitSoon);
document.fonts?.ready.then(fitSoon);
