// @ts-check
/**
 * The club's page (/club, docs/HOSTING.md "A club"): set up the administrator, sign up with an
 * invitation (?invitation=TOKEN), sign in and out, change the password; administrators invite
 * and disable members and say who may watch; members see the members and the club nights and
 * start one.
 *
 * Hooks for end-to-end tests:
 *   #setup-form, #signup-form, #signin-form   input[name=name], input[name=password]
 *   #account           signed in: #account-name, #account-rating, #signout, #password-form
 *   #admin             administrators: #invite, #invite-link (the new link), #watchers
 *   #member-list       li[data-member="{id}"] .name, .rating; button[data-disable] (admin)
 *   #passkey-signin, #passkey-signup (with the form's name), #passkey-add: passkeys, where
 *                      the browser has them (else hidden)
 *   #night-list        li > a[data-night="{id}"]
 *   #night-form        input[name=name|tables|rounds|deals], select[name=movement|computer],
 *                      #night-players input[data-player="{id}"] (checked in the list's order)
 *   #toasts .toast[data-code]  error messages
 */

import { initI18n, onLangChange, t } from "/static/i18n.js";
import { api, byId, el, errorText, tableOptions, toast, toastFailure } from "/static/common.js";
import { clubMe, forgetMe, showClubBar } from "/static/club-bar.js";
import { computerLevel } from "/static/names.js";
import { makePasskey, passkeysWork, usePasskey } from "/static/passkeys.js";

/** @typedef {import("/static/club-bar.js").Member} Member */

/** Show or hide the section `id`. @param {string} id @param {boolean} shown */
function show(id, shown) {
  byId(id).hidden = !shown;
}

/** The form's fields by name. @param {HTMLFormElement} form */
function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

/** Send the form to `path` when submitted; then `done` with the answer.
 * @param {string} id @param {(body: Record<string, unknown>) => [string, unknown]} request
 * @param {(answer: any) => void | Promise<void>} done */
function onSubmit(id, request, done) {
  const form = byId(id, HTMLFormElement);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const [path, body] = request(fields(form));
    try {
      await done(await api("POST", path, body));
    } catch (err) {
      toastFailure(err);
    }
  });
}

/** A button that runs a passkey ceremony, then `done`; a refusal or a cancel is said.
 * @param {string} id @param {() => Promise<unknown>} ceremony @param {() => unknown} done */
function passkeyButton(id, ceremony, done) {
  byId(id, HTMLButtonElement).addEventListener("click", async () => {
    try {
      await ceremony();
    } catch (err) {
      // The browser's own refusals (the person cancelled, no passkey here) are DOMExceptions,
      // whose codes are numbers: the server's are words.
      const given = /** @type {{ code?: unknown }} */ (err)?.code;
      const code = typeof given === "string" ? given : "passkey_cancelled";
      toast(errorText(code), "error", code);
      return;
    }
    await done();
  });
}

async function signedIn() {
  forgetMe();
  location.assign("/club");
}

/** Draw the page for whoever is signed in. */
async function draw() {
  const me = await showClubBar();
  if (!me.club) {
    show("not-club", true);
    return;
  }
  const invitation = new URLSearchParams(location.search).get("invitation");
  const member = me.member;
  show("setup", !member && me.setup);
  show("signup", !member && !me.setup && Boolean(invitation));
  show("signin", !member && !me.setup);
  if (!member && invitation) {
    const state = await api("GET", `/api/club/invitations/${encodeURIComponent(invitation)}`);
    show("signup-closed", !state.open);
    byId("signup-form", HTMLFormElement).hidden = !state.open;
  }
  for (const id of ["account", "members", "nights"]) show(id, Boolean(member));
  show("admin", Boolean(member?.admin));
  if (!member) return;
  byId("account-name", HTMLElement).textContent = member.name;
  byId("account-rating", HTMLElement).textContent = String(member.rating);
  byId("account-page", HTMLAnchorElement).href = `/club/members/${member.id}`;
  if (member.admin) {
    const settings = await api("GET", "/api/club/settings");
    byId("watchers", HTMLSelectElement).value = settings.watchers;
  }
  await Promise.all([drawMembers(member), drawNights()]);
}

/** The members, best rated first; administrators disable or enable one.
 * @param {Member} me */
async function drawMembers(me) {
  /** @type {Member[]} */
  const members = await api("GET", "/api/club/members");
  const list = byId("member-list", HTMLOListElement);
  list.replaceChildren(
    ...members.map((m) =>
      el(
        "li",
        { dataset: { member: String(m.id), disabled: String(m.disabled) } },
        el("a", { class: "name", href: `/club/members/${m.id}` }, m.name),
        " ",
        el("span", { class: "rating" }, String(m.rating)),
        m.disabled ? el("span", { class: "badge", text: t("club.member.disabled") }) : null,
        me.admin && m.id !== me.id
          ? el("button", {
              type: "button",
              class: "small",
              dataset: { disable: String(m.id) },
              text: t(m.disabled ? "club.member.enable" : "club.member.disable"),
              onclick: () => setDisabled(m, !m.disabled, me),
            })
          : null,
      ),
    ),
  );
  const players = byId("night-players", HTMLOListElement);
  players.replaceChildren(
    ...members
      .filter((m) => !m.disabled)
      .map((m) =>
        el(
          "li",
          {},
          el(
            "label",
            {},
            el("input", { type: "checkbox", dataset: { player: String(m.id) } }),
            ` ${m.name}`,
          ),
        ),
      ),
  );
}

/** @param {Member} member @param {boolean} disabled @param {Member} me */
async function setDisabled(member, disabled, me) {
  try {
    await api("POST", `/api/club/members/${member.id}/status`, { disabled });
  } catch (err) {
    toastFailure(err);
  }
  await drawMembers(me);
}

async function drawNights() {
  /** @type {{id: string, name: string, status: string, created: string}[]} */
  const nights = await api("GET", "/api/club/nights");
  byId("night-list", HTMLUListElement).replaceChildren(
    ...nights.map((n) =>
      el(
        "li",
        {},
        el("a", { href: `/club/nights/${n.id}`, dataset: { night: n.id } }, n.name),
        " ",
        el("span", { class: "hint", text: t(`club.night.status.${n.status}`) }),
      ),
    ),
  );
}

async function main() {
  const [, options] = await Promise.all([initI18n(), tableOptions(), clubMe()]);
  const computer = byId("night-computer", HTMLSelectElement);
  computer.replaceChildren(...options.players.map((p) => el("option", { value: p, title: p })));
  computer.value = options.players.includes("club") ? "club" : options.players[0];
  // By level, as the tables name them ("club player"), the program in the tooltip.
  const nameComputers = () => {
    for (const option of computer.options) option.textContent = computerLevel(option.value);
  };
  onLangChange(nameComputers);
  nameComputers();
  onSubmit("setup-form", (f) => ["/api/club/setup", f], signedIn);
  onSubmit("signin-form", (f) => ["/api/club/signin", f], signedIn);
  onSubmit(
    "signup-form",
    (f) => [
      "/api/club/signup",
      { ...f, invitation: new URLSearchParams(location.search).get("invitation") },
    ],
    async () => {
      forgetMe();
      location.assign("/club");
    },
  );
  onSubmit(
    "password-form",
    (f) => ["/api/club/password", f],
    () => {
      byId("password-form", HTMLFormElement).reset();
      toast(t("club.password.changed"), "info");
    },
  );
  onSubmit(
    "night-form",
    (f) => {
      /** @type {NodeListOf<HTMLInputElement>} */
      const boxes = document.querySelectorAll("#night-players input:checked");
      return [
        "/api/club/nights",
        {
          name: f.name,
          tables: Number(f.tables),
          rounds: Number(f.rounds),
          deals: Number(f.deals),
          movement: f.movement,
          computer: f.computer,
          members: [...boxes].map((b) => Number(b.dataset.player)),
        },
      ];
    },
    (night) => location.assign(`/club/nights/${night.id}`),
  );
  for (const id of ["passkey-signin", "passkey-signup", "passkey-add"]) {
    byId(id, HTMLButtonElement).hidden = !passkeysWork();
  }
  const invitation = new URLSearchParams(location.search).get("invitation");
  passkeyButton("passkey-signin", usePasskey, signedIn);
  passkeyButton(
    "passkey-signup",
    () =>
      makePasskey(
        "/api/club/passkeys/signup/options",
        { invitation, name: fields(byId("signup-form", HTMLFormElement)).name },
        "/api/club/passkeys/signup",
      ),
    signedIn,
  );
  passkeyButton(
    "passkey-add",
    () => makePasskey("/api/club/passkeys/register/options", {}, "/api/club/passkeys/register"),
    () => toast(t("club.passkey.added"), "info"),
  );
  byId("signout", HTMLButtonElement).addEventListener("click", async () => {
    await api("POST", "/api/club/signout", {});
    await signedIn();
  });
  byId("invite", HTMLButtonElement).addEventListener("click", async () => {
    try {
      const made = await api("POST", "/api/club/invitations", {});
      show("invite-box", true);
      const input = byId("invite-link", HTMLInputElement);
      input.value = made.link;
      input.select();
    } catch (err) {
      toastFailure(err);
    }
  });
  byId("watchers", HTMLSelectElement).addEventListener("change", async (event) => {
    const watchers = /** @type {HTMLSelectElement} */ (event.target).value;
    try {
      await api("POST", "/api/club/settings", { watchers });
      toast(t("club.watchers.saved"), "info");
    } catch (err) {
      toastFailure(err);
    }
  });
  onLangChange(draw);
  await draw();
}

main();
