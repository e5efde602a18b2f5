// Signup form: client-side validation and a small state machine for submission.
//
// States: idle -> editing -> submitting -> (done | failed); failed -> editing.
// The server validates everything again; these checks only save a round trip.
"use strict";

const MIN_PASSWORD = 10;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const FREE_MAIL = ["gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com"];

const MESSAGES = {
  nameMissing: "Tell us your name.",
  nameTooLong: "Names are limited to 80 characters.",
  emailMissing: "Enter your work email.",
  emailInvalid: "Enter an email address like name@company.com.",
  emailFreeMail: "Use your work address so your team can find you.",
  passwordMissing: "Choose a password.",
  passwordShort: `Use at least ${MIN_PASSWORD} characters.`,
  passwordWeak: "Mix letters with numbers or symbols.",
  confirmMismatch: "The passwords do not match.",
  termsMissing: "Accept the terms to continue.",
  network: "We could not reach Lantern. Check your connection and try again.",
  taken: "An account with this email already exists. Sign in instead?",
};

const TRANSITIONS = {
  idle: { input: "editing", submit: "submitting" },
  editing: { input: "editing", submit: "submitting" },
  submitting: { succeeded: "done", failed: "failed" },
  failed: { input: "editing", submit: "submitting" },
  done: {},
};

function createMachine(initial, onChange) {
  let state = initial;
  return {
    get state() {
      return state;
    },
    send(event) {
      const next = TRANSITIONS[state][event];
      if (!next) {
        return false;
      }
      const previous = state;
      state = next;
      onChange(state, previous, event);
      return true;
    },
  };
}

// Each validator returns a message key from MESSAGES, or null when the value is fine.
const validators = {
  name(value) {
    const name = value.trim();
    if (!name) {
      return "nameMissing";
    }
    return name.length > 80 ? "nameTooLong" : null;
  },

  email(value, values) {
    const email = value.trim().toLowerCase();
    if (!email) {
      return "emailMissing";
    }
    if (!EMAIL_PATTERN.test(email)) {
      return "emailInvalid";
    }
    const domain = email.split("@")[1];
    if (values.plan !== "free" && FREE_MAIL.includes(domain)) {
      return "emailFreeMail";
    }
    return null;
  },

  password(value) {
    if (!value) {
      return "passwordMissing";
    }
    if (value.length < MIN_PASSWORD) {
      return "passwordShort";
    }
    return /[^A-Za-z]/.test(value) ? null : "passwordWeak";
  },

  confirm(value, values) {
    return value === values.password ? null : "confirmMismatch";
  },

  terms(_value, values) {
    return values.terms ? null : "termsMissing";
  },
};

function passwordStrength(password) {
  let score = 0;
  if (password.length >= MIN_PASSWORD) score += 1;
  if (password.length >= 16) score += 1;
  if (/[0-9]/.test(password)) score += 1;
  if (/[^A-Za-z0-9]/.test(password)) score += 1;
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) score += 1;
  const labels = ["Too short", "Weak", "Fair", "Good", "Strong", "Very strong"];
  return { score, label: labels[score], percent: (score / 5) * 100 };
}

function readValues(form) {
  const data = new FormData(form);
  return {
    name: data.get("name") || "",
    email: data.get("email") || "",
    password: data.get("password") || "",
    confirm: data.get("confirm") || "",
    plan: data.get("plan") || "free",
    terms: data.get("terms") === "on",
  };
}

function validate(values) {
  const errors = {};
  for (const [field, check] of Object.entries(validators)) {
    const key = check(values[field], values);
    if (key) {
      errors[field] = MESSAGES[key];
    }
  }
  return errors;
}

function showError(form, field, message) {
  const wrapper = form.querySelector(`[data-field="${field}"]`);
  const slot = form.querySelector(`#${field}-error`);
  if (!wrapper || !slot) {
    return;
  }
  wrapper.classList.toggle("-invalid", Boolean(message));
  slot.textContent = message || "";
  const input = wrapper.querySelector("input");
  if (input) {
    input.setAttribute("aria-invalid", message ? "true" : "false");
  }
}

function showErrors(form, errors) {
  for (const field of Object.keys(validators)) {
    showError(form, field, errors[field]);
  }
  const first = Object.keys(validators).find((field) => errors[field]);
  if (first) {
    form.querySelector(`[data-field="${first}"] input`)?.focus();
  }
}

function showBanner(form, message) {
  const banner = form.querySelector(".banner");
  banner.textContent = message || "";
  banner.hidden = !message;
}

function updateMeter(form, password) {
  const meter = form.querySelector(".meter");
  const { score, label, percent } = passwordStrength(password);
  meter.style.setProperty("--meter", `${percent}%`);
  meter.style.setProperty("--meter-color", score >= 3 ? "var(--ok)" : "var(--danger)");
  meter.querySelector(".meter__label").textContent = label;
}

async function createAccount(values) {
  const response = await fetch("/api/accounts", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name: values.name.trim(),
      email: values.email.trim().toLowerCase(),
      password: values.password,
      plan: values.plan,
    }),
  });
  if (response.status === 409) {
    return { ok: false, error: MESSAGES.taken, field: "email" };
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    return { ok: false, error: body.message || MESSAGES.network };
  }
  return { ok: true };
}

function showSuccess(form, email) {
  const success = document.querySelector(".success");
  success.querySelector(".success__email").textContent = email;
  form.hidden = true;
  success.hidden = false;
  success.focus();
}

function init() {
  const form = document.getElementById("signup-form");
  if (!form) {
    return;
  }
  const touched = new Set();
  const machine = createMachine("idle", (state) => {
    form.dataset.state = state;
    form.querySelector("button[type=submit]").disabled = state === "submitting";
  });

  form.addEventListener("input", (event) => {
    machine.send("input");
    const field = event.target.name;
    const values = readValues(form);
    if (field === "password") {
      updateMeter(form, values.password);
    }
    if (touched.has(field)) {
      showError(form, field, validate(values)[field]);
    }
  });

  form.addEventListener("focusout", (event) => {
    const field = event.target.name;
    if (!field || !(field in validators)) {
      return;
    }
    touched.add(field);
    showError(form, field, validate(readValues(form))[field]);
  });

  form.querySelector(".password__toggle").addEventListener("click", (event) => {
    const input = form.querySelector("#password");
    const showing = input.type === "text";
    input.type = showing ? "password" : "text";
    event.currentTarget.textContent = showing ? "Show" : "Hide";
    event.currentTarget.setAttribute("aria-pressed", String(!showing));
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = readValues(form);
    const errors = validate(values);
    Object.keys(validators).forEach((field) => touched.add(field));
    showErrors(form, errors);
    if (Object.keys(errors).length > 0 || !machine.send("submit")) {
      return;
    }
    showBanner(form, "");
    let result;
    try {
      result = await createAccount(values);
    } catch {
      result = { ok: false, error: MESSAGES.network };
    }
    if (result.ok) {
      machine.send("succeeded");
      showSuccess(form, values.email.trim());
      return;
    }
    machine.send("failed");
    if (result.field) {
      showError(form, result.field, result.error);
    } else {
      showBanner(form, result.error);
    }
  });
}

document.addEventListener("DOMContentLoaded", init);
