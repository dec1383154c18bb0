// @ts-check
// The Account section of the settings dialog, built here at run time (index.html has none): keep one's games on
// every device with a passkey (WebAuthn), sign in on another device, sign out, delete the account, export one's
// games; name and remove one's passkeys (the last one after a stronger warning), see the devices signed in and
// sign them out, one or all but this one. The server does the rest (docs/api.md, "Accounts and passkeys"); after a change of who this browser is,
// the page is loaded again so that every view shows the new player's games and statistics, and a notice kept in
// sessionStorage says what happened. Its styles are account.css, linked from here.

import { api, ApiError, EXPORT_PATH } from "./api.js";
import { confirm } from "./dialogs.js";
import { el, errorMessage, toast } from "./dom.js";
import { dateTime, integer, onLanguageChange, t } from "./i18n.js";
import { dailyDate } from "./share.js";

/** @typedef {import("./api.js").AccountState} AccountState */
/** @typedef {import("./api.js").PasskeyInfo} PasskeyInfo */
/** @typedef {import("./api.js").SessionInfo} SessionInfo */

const NOTICE = "fs.accountNotice";
// The game this browser shows on its start page (game.js's key): forgotten when the browser becomes a new
// player, whose game it is not.
const STORAGE_GAME = "fs.game";

/** @type {HTMLFieldSetElement | null} */
let section = null;
/** @type {AccountState | null} */
let known = null;
/** @type {SessionInfo[]} the browsers signed in to the account, as last known */
let sessions = [];
/** @type {string | null} the passkey whose name is being typed */
let renaming = null;
// Whether Delete was pressed and the question waits: kept across a render, since the answer of the refresh that
// opening the settings starts may arrive after the player has already pressed Delete.
let confirmingDelete = false;
let busy = false;

// The days a signed-in browser may stay unused before the server signs it out (docs/api.md).
const SESSION_IDLE_DAYS = 30;
// The longest name of a passkey (the server's limit).
const NAME_LENGTH = 64;

// --- base64url and WebAuthn's JSON ---------------------------------------------------------------------------

/**
 * @param {string} text base64url, without padding
 * @returns {ArrayBuffer}
 */
function bytesOf(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/**
 * @param {ArrayBuffer} buffer
 * @returns {string} base64url, without padding
 */
function textOf(buffer) {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The descriptors of the options, with their ids as bytes.
 * @param {import("./api.js").CredentialDescriptorJSON[]} descriptors
 * @returns {PublicKeyCredentialDescriptor[]}
 */
const descriptorsOf = (descriptors) =>
  descriptors.map((d) => ({
    type: d.type,
    id: bytesOf(d.id),
    transports: /** @type {AuthenticatorTransport[]} */ (d.transports ?? []),
  }));

/** Whether this browser can make and use passkeys here (WebAuthn in a secure context). */
export const passkeysAvailable = () => window.isSecureContext && typeof window.PublicKeyCredential === "function";

/** A new passkey, made by the browser's authenticator for the server's options; its JSON for the server. */
async function createCredential() {
  const options = await api.registrationOptions();
  /** @type {PublicKeyCredentialCreationOptions} */
  const publicKey = {
    ...options,
    challenge: bytesOf(options.challenge),
    user: { ...options.user, id: bytesOf(options.user.id) },
    excludeCredentials: descriptorsOf(options.excludeCredentials),
  };
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.create({ publicKey }));
  if (!credential) throw new DOMException("no credential", "NotAllowedError");
  const response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
  return {
    id: credential.id,
    rawId: textOf(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: textOf(response.clientDataJSON),
      attestationObject: textOf(response.attestationObject),
      transports: typeof response.getTransports === "function" ? response.getTransports() : [],
    },
  };
}

/** A signature by one of this site's passkeys (the authenticator offers them: no name to type); its JSON. */
async function signWithPasskey() {
  const options = await api.signInOptions();
  /** @type {PublicKeyCredentialRequestOptions} */
  const publicKey = {
    ...options,
    challenge: bytesOf(options.challenge),
    allowCredentials: descriptorsOf(options.allowCredentials),
  };
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get({ publicKey }));
  if (!credential) throw new DOMException("no credential", "NotAllowedError");
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  return {
    id: credential.id,
    rawId: textOf(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: textOf(response.clientDataJSON),
      authenticatorData: textOf(response.authenticatorData),
      signature: textOf(response.signature),
      ...(response.userHandle ? { userHandle: textOf(response.userHandle) } : {}),
    },
  };
}

// --- the actions -----------------------------------------------------------------------------------------------

/**
 * Load the page again as the new player, with `notice` to show once it is back (`view`: the address's hash).
 * @param {string} notice a catalogue key
 * @param {{forget?: boolean, view?: string}} [how] forget: the remembered game is no longer this player's
 */
function reloadAs(notice, { forget = false, view } = {}) {
  try {
    sessionStorage.setItem(NOTICE, notice);
    if (forget) localStorage.removeItem(STORAGE_GAME);
  } catch {
    /* storage disabled: no notice, nothing remembered */
  }
  if (view) history.replaceState(null, "", view);
  location.reload();
}

/**
 * Run an action of the section: one at a time; an error is told (a closed passkey prompt without alarm).
 * @param {() => Promise<void>} action
 */
async function run(action) {
  if (busy) return;
  busy = true;
  section?.setAttribute("aria-busy", "true");
  try {
    await action();
  } catch (error) {
    if (error instanceof ApiError) toast(errorMessage(error), "error");
    else if (error instanceof DOMException && ["NotAllowedError", "AbortError"].includes(error.name)) {
      toast(t("account.cancelled"));
    } else toast(t("account.unsupported"), "error");
  } finally {
    busy = false;
    section?.setAttribute("aria-busy", "false");
  }
}

const createPasskey = () =>
  run(async () => {
    const account = await api.register(await createCredential());
    if (known?.signed_in) {
      known = account;
      render();
      toast(t("account.createdNotice"));
    } else reloadAs("account.createdNotice"); // the same games, under the account's cookie
  });

const signIn = () =>
  run(async () => {
    await api.signIn(await signWithPasskey());
    reloadAs("account.signedInNotice", { view: "#/stats" });
  });

const signOut = () =>
  run(async () => {
    await api.signOut();
    reloadAs("account.signedOutNotice", { forget: true, view: "#/stats" });
  });

/** @param {PasskeyInfo} passkey */
const passkeyName = (passkey) => passkey.name ?? t("account.passkeyUnnamed");

/** @param {SessionInfo} session */
function deviceName(session) {
  if (session.browser && session.system) return t("account.device", { browser: session.browser, system: session.system });
  return session.browser ?? session.system ?? t("account.deviceUnknown");
}

/**
 * Keep the passkey's name typed in `input`.
 * @param {PasskeyInfo} passkey
 * @param {HTMLInputElement} input
 */
const savePasskeyName = (passkey, input) =>
  run(async () => {
    known = await api.renamePasskey(passkey.id, input.value.trim());
    renaming = null;
    render();
    toast(t("account.renamedNotice"));
  });

/** @param {PasskeyInfo} passkey */
const removePasskey = (passkey) =>
  run(async () => {
    const last = (known?.passkeys.length ?? 0) <= 1;
    const question = last ? t("account.removeLastConfirm") : t("account.removeConfirm", { name: passkeyName(passkey) });
    if (!(await confirm(question, { ok: "account.remove", danger: true }))) return;
    known = await api.removePasskey(passkey.id, last);
    render();
    toast(t("account.removedNotice"));
  });

/** @param {SessionInfo} session */
const endSession = (session) =>
  run(async () => {
    const question = t("account.sessionSignOutConfirm", { device: deviceName(session) });
    if (!(await confirm(question, { ok: "account.signOut" }))) return;
    sessions = (await api.endSession(session.handle)).sessions;
    render();
    toast(t("account.sessionEndedNotice"));
  });

const signOutEverywhere = () =>
  run(async () => {
    if (!(await confirm(t("account.signOutEverywhereConfirm"), { ok: "account.signOut" }))) return;
    sessions = (await api.signOutEverywhere()).sessions;
    render();
    toast(t("account.signedOutEverywhereNotice"));
  });

const deleteAccount = () =>
  run(async () => {
    await api.deleteAccount();
    reloadAs("account.deletedNotice", { forget: true, view: "#/stats" });
  });

// --- the section -----------------------------------------------------------------------------------------------

/**
 * A control and the sentence that says what it does.
 * @param {HTMLElement} control
 * @param {string} helpKey
 */
function action(control, helpKey) {
  const help = el("small", { class: "choice-help account-help", id: `${control.dataset.action}-help`, text: t(helpKey) });
  control.setAttribute("aria-describedby", help.id);
  return el("div", { class: "account-action" }, control, help);
}

/**
 * @param {string} name the control's data-action
 * @param {string} labelKey
 * @param {() => void} onclick
 * @param {string} [kind] an extra class
 */
const button = (name, labelKey, onclick, kind = "") =>
  el("button", { type: "button", class: `button ${kind}`.trim(), "data-action": name, text: t(labelKey), onclick });

/**
 * One passkey of the list: its name and dates, Rename (a field in its place while it is typed) and Remove.
 * @param {PasskeyInfo} passkey
 */
function passkeyItem(passkey) {
  const created = dailyDate(passkey.created_at.slice(0, 10));
  const dates = passkey.last_used_at
    ? t("account.passkeyDates", { created, used: dailyDate(passkey.last_used_at.slice(0, 10)) })
    : t("account.passkeyNeverUsed", { created });
  const item = el("li", { class: "account-item", "data-passkey": passkey.id });
  if (renaming === passkey.id) {
    const input = el("input", { type: "text", class: "account-name-input", maxlength: String(NAME_LENGTH),
      value: passkey.name ?? "", "aria-label": t("account.renameLabel"), "data-action": "passkey-name" });  // prettier-ignore
    const form = el(
      "div",
      { class: "account-item-buttons" },
      button("passkey-rename-save", "account.renameSave", () => savePasskeyName(passkey, input), "button-primary"),
      button("passkey-rename-cancel", "action.cancel", () => {
        renaming = null;
        render();
      }),
    );
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        savePasskeyName(passkey, input);
      }
    });
    item.append(input, form);
    queueMicrotask(() => input.focus());
    return item;
  }
  item.append(
    el("span", { class: "account-item-name", text: passkeyName(passkey) }),
    el("small", { class: "account-item-meta", text: dates }),
    el(
      "div",
      { class: "account-item-buttons" },
      button("passkey-rename", "account.rename", () => {
        renaming = passkey.id;
        render();
      }),
      button("passkey-remove", "account.remove", () => removePasskey(passkey), "button-danger-quiet"),
    ),
  );
  return item;
}

/**
 * One signed-in device of the list: its name, whether it is this browser, its dates, and Sign out for another.
 * @param {SessionInfo} session
 */
function sessionItem(session) {
  const name = el("span", { class: "account-item-name", text: deviceName(session) });
  if (session.current) name.append(" ", el("span", { class: "account-badge", text: t("account.thisDevice") }));
  const dates = t("account.sessionDates", { created: dateTime(session.created_at), seen: dateTime(session.last_seen_at) });
  const item = el("li", { class: "account-item", "data-session": session.handle }, name,
    el("small", { class: "account-item-meta", text: dates }));  // prettier-ignore
  if (!session.current) {
    item.append(el("div", { class: "account-item-buttons" },
      button("session-sign-out", "account.signOut", () => endSession(session))));  // prettier-ignore
  }
  return item;
}

/**
 * The account's passkeys and signed-in devices, with their controls.
 * @returns {HTMLElement[]}
 */
function controls() {
  const passkeys = known?.passkeys ?? [];
  const others = sessions.filter((session) => !session.current);
  const everywhere = button("sign-out-everywhere", "account.signOutEverywhere", signOutEverywhere);
  if (!others.length) everywhere.setAttribute("disabled", "");
  return [
    el("h3", { class: "account-heading", text: t("account.passkeysTitle") }),
    el("ul", { class: "account-list", id: "account-passkeys" }, ...passkeys.map(passkeyItem)),
    el("h3", { class: "account-heading", text: t("account.sessionsTitle") }),
    el("ul", { class: "account-list", id: "account-sessions" }, ...sessions.map(sessionItem)),
    ...(others.length ? [] : [el("p", { class: "account-help", text: t("account.noOtherSessions") })]),
    action(everywhere, "account.signOutEverywhereHelp"),
    el("p", { class: "account-help", text: t("account.sessionsHelp", { days: integer(SESSION_IDLE_DAYS) }) }),
  ];
}

/** The section's contents for the account as last known. */
function render() {
  if (!section) return;
  const account = known;
  const signedIn = Boolean(account?.signed_in);
  section.dataset.signedIn = String(signedIn);
  const status = signedIn
    ? t("account.signedIn", { date: dailyDate((account?.created_at ?? "").slice(0, 10)) })
    : t("account.anonymous");
  /** @type {HTMLElement[]} */
  const parts = [el("legend", { text: t("account.title") }), el("p", { class: "account-status", text: status })];
  if (signedIn) parts.push(el("p", { class: "account-count", text: t("account.passkeyCount", { count: integer(account?.passkeys.length ?? 0) }) }));
  const exportLink = el("a", {
    class: "button",
    href: EXPORT_PATH,
    download: "foursquare-games.json",
    "data-action": "export-games",
    text: t("account.export"),
  });
  if (!passkeysAvailable()) {
    parts.push(el("p", { class: "account-unsupported", text: t("account.unsupported") }));
  } else if (signedIn) {
    parts.push(action(button("sign-out", "account.signOut", signOut), "account.signOutHelp"));
    parts.push(action(button("passkey-create", "account.add", createPasskey), "account.addHelp"));
    parts.push(...controls());
  } else {
    parts.push(action(button("passkey-create", "account.create", createPasskey, "button-primary"), "account.createHelp"));
    parts.push(action(button("passkey-sign-in", "account.signIn", signIn), "account.signInHelp"));
  }
  parts.push(action(exportLink, "account.exportHelp"));
  if (signedIn) {
    const confirmBox = el(
      "div",
      { class: "account-confirm", role: "group", hidden: !confirmingDelete },
      el("p", { id: "account-delete-question", text: t("account.deleteConfirm") }),
      el(
        "div",
        { class: "account-confirm-buttons" },
        button("account-delete-cancel", "action.cancel", () => {
          confirmingDelete = false;
          confirmBox.hidden = true;
          askButton.focus();
        }),
        button("account-delete-confirm", "account.deleteYes", deleteAccount, "button-danger"),
      ),
    );
    confirmBox.setAttribute("aria-labelledby", "account-delete-question");
    const askButton = button("account-delete", "account.delete", () => {
      confirmingDelete = true;
      confirmBox.hidden = false;
      /** @type {HTMLButtonElement | null} */ (confirmBox.querySelector("[data-action=account-delete-cancel]"))?.focus();
    }, "button-danger-quiet");
    parts.push(action(askButton, "account.deleteHelp"), confirmBox);
  } else {
    confirmingDelete = false;
  }
  const focusedAction = section.contains(document.activeElement)
    ? /** @type {HTMLElement} */ (document.activeElement).dataset.action
    : undefined;
  section.replaceChildren(...parts);
  // The control that had the focus, drawn anew, keeps it.
  if (focusedAction) /** @type {HTMLElement | null} */ (section.querySelector(`[data-action="${focusedAction}"]`))?.focus();
}

/** Ask the server who this browser is, and show it. */
export async function refreshAccount() {
  confirmingDelete = false; // the settings opened anew: the question is asked again only when Delete is pressed
  try {
    known = await api.account();
    sessions = known.signed_in ? (await api.sessions()).sessions : [];
  } catch {
    known = null; // the server cannot say: the section offers what an anonymous browser may do
    sessions = [];
  }
  render();
}

/**
 * Build the Account section in the settings form, before `before` (the dialog's closing note), and show the
 * notice a change of account left before the page was loaded again.
 * @param {HTMLFormElement} form
 * @param {Element | null} before
 */
export function setupAccount(form, before) {
  const sheet = el("link", { rel: "stylesheet", href: "/static/account.css" });
  document.head.append(sheet);
  section = el("fieldset", { class: "account", id: "settings-account", "aria-busy": "false" });
  form.insertBefore(section, before);
  render();
  onLanguageChange(render);
  let notice = null;
  try {
    notice = sessionStorage.getItem(NOTICE);
    sessionStorage.removeItem(NOTICE);
  } catch {
    /* storage disabled */
  }
  if (notice) toast(t(notice));
}
