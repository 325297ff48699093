// The account page: sign in, register or play as a guest; a guest registers or is deleted; an account changes its
// password, signs out or is deleted. Every form is sent by script (the page's policy allows no form action).
import {
  becomeGuest, changePassword, deletePlayer, onPlayer, register, shownName, signIn, signOut, whoAmI,
} from "/static/players/session.js";

const $ = (id) => document.getElementById(id);
const main = $("main");

function show(player) {
  const view = !player ? "signed-out" : player.kind;
  main.dataset.view = view;
  $("signed-out").hidden = view !== "signed-out" && view !== "guest";
  $("signin-form").closest("section").hidden = view !== "signed-out";
  $("guest-box").hidden = view !== "signed-out";
  $("as-guest").hidden = view !== "guest";
  $("as-account").hidden = view !== "account";
  if (!player) {
    $("status").textContent = "You are not signed in.";
    $("register-title").textContent = "Register";
  } else if (player.kind === "guest") {
    $("status").textContent = `You play as ${shownName(player)} on this device.`;
    $("register-title").textContent = "Keep your games: register";
  } else {
    $("status").textContent = `You are signed in as ${player.name}.`;
    $("profile-link").href = player.profile;
    $("profile-link").textContent = `Your profile (${player.name})`;
    $("password-username").value = player.name;
  }
}

/** Send a form: its button busy meanwhile, a refusal in its error line (focused, so that it is read out). */
function handle(formId, errorId, send) {
  const form = $(formId);
  const error = $(errorId);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    error.hidden = true;
    error.textContent = "";
    button.disabled = true;
    main.dataset.busy = "true";
    try {
      const note = await send(form);
      form.reset();
      if (note) {
        $("done").textContent = note;
        $("done").hidden = false;
      }
      $("title").focus();
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    } finally {
      button.disabled = false;
      delete main.dataset.busy;
    }
  });
}

function wire() {
  handle("signin-form", "signin-error", async () => {
    const player = await signIn($("signin-name").value.trim(), $("signin-password").value);
    return `Signed in as ${player.name}.`;
  });
  handle("register-form", "register-error", async () => {
    const player = await register($("register-name").value.trim(), $("register-password").value);
    return `Registered: welcome, ${player.name}.`;
  });
  handle("guest-form", "guest-error", async () => {
    const player = await becomeGuest($("guest-name").value.trim());
    return `You play as ${shownName(player)} on this device.`;
  });
  handle("password-form", "password-error", async () => {
    await changePassword($("current-password").value, $("new-password").value);
    return "Your password is changed; your other devices are signed out.";
  });
  handle("delete-form", "delete-error", async () => {
    if (!$("delete-sure").checked) throw new Error("Tick “Yes, delete my account” first.");
    await deletePlayer($("delete-password").value);
    return "Your account is deleted.";
  });
  $("forget").addEventListener("click", async () => {
    $("forget-error").hidden = true;
    try {
      await deletePlayer();
      $("done").textContent = "The guest is deleted.";
      $("done").hidden = false;
    } catch (e) {
      $("forget-error").textContent = e.message;
      $("forget-error").hidden = false;
    }
  });
  $("signout").addEventListener("click", async () => {
    await signOut();
    $("done").textContent = "You are signed out.";
    $("done").hidden = false;
  });
}

async function start() {
  $("title").tabIndex = -1;
  wire();
  onPlayer(show);
  try {
    show(await whoAmI());
  } catch (e) {
    $("status").textContent = e.message;
  }
  main.dataset.ready = "true";
}

start();
