// After an action form was applied: a fresh nonce for the next submission (the server applies a
// nonce once, so a double tap pays once) and the typed values cleared. crypto.getRandomValues
// works on plain-http LAN addresses, unlike crypto.randomUUID.
function freshNonce() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt.closest && event.detail.elt.closest("form");
  if (!form || !event.detail.successful || form.method.toLowerCase() !== "post") return;
  form.reset();
  const nonce = form.querySelector("input[name=nonce]");
  if (nonce) nonce.defaultValue = nonce.value = freshNonce();
});

// A message is dismissed by tapping it.
document.addEventListener("click", (event) => {
  const message = event.target.closest && event.target.closest("#message .message");
  if (message) message.remove();
});
